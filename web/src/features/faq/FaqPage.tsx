import { useEffect, useMemo, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { FAQ_CATEGORIES, FAQ_CATEGORY_LABELS, FAQ_ITEMS, faqText, type FaqCategory, type FaqText } from './faq-data';
import './faq.css';

/** Accents and case aside (a search for "numero" finds "número"), unless the search itself has accents. */
function matcher(search: string, locale: string): (text: string) => boolean {
  const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLocaleLowerCase(locale).replace(/đ/g, 'd');
  const exact = (s: string) => s.normalize('NFC').toLocaleLowerCase(locale);
  const needle = search.trim();
  const folded = fold(needle);
  // Hangul decomposes into letters, not marks: a Korean search stays folded (and finds a syllable being typed).
  const accented = folded !== needle.normalize('NFD').toLocaleLowerCase(locale);
  const norm = accented ? exact : fold;
  const wanted = norm(needle);
  return (text) => norm(text).includes(wanted);
}

/** A match on the question or the answer as the reader reads them, within the chosen category. */
export function filterFaq<T extends FaqText & { category: FaqCategory }>(
  items: readonly T[],
  search: string,
  category: FaqCategory | 'all',
  locale: string,
): T[] {
  const matches = search.trim() ? matcher(search, locale) : () => true;
  return items.filter((item) => (category === 'all' || item.category === category) && (matches(item.question) || matches(item.answer)));
}

const itemIds = new Set(FAQ_ITEMS.map((i) => i.id));

/**
 * /faq. The open item IS the URL hash (one source of truth): toggling an item rewrites the hash, and a
 * link to /faq#<id> opens that item and scrolls to it.
 */
export function FaqPage() {
  const intl = useIntl();
  const location = useLocation();
  const navigate = useNavigate();
  const [search, setSearch] = useState('');
  const [category, setCategory] = useState<FaqCategory | 'all'>('all');
  const hashId = decodeURIComponent(location.hash.replace(/^#/, ''));
  const openId = itemIds.has(hashId) ? hashId : null;
  const texts = useMemo(() => FAQ_ITEMS.map((item) => ({ id: item.id, category: item.category, ...faqText(item, intl) })), [intl]);
  const items = useMemo(() => filterFaq(texts, search, category, intl.locale), [texts, search, category, intl.locale]);
  // Set when the hash changes because the user toggled an item here: no scrolling then.
  const toggledHere = useRef(false);

  useEffect(() => {
    if (!openId) return;
    if (toggledHere.current) {
      toggledHere.current = false;
      return;
    }
    // A deep link (or back/forward): bring the item into view and give it focus for keyboard users.
    // the item (its scroll-margin keeps it clear of the sticky header), not the button inside it
    const button = document.getElementById(`faq-q-${openId}`);
    document.getElementById(openId)?.scrollIntoView?.({ behavior: 'smooth', block: 'start' });
    button?.focus({ preventScroll: true });
  }, [openId]);

  const toggle = (id: string) => {
    toggledHere.current = true;
    navigate({ pathname: location.pathname, search: location.search, hash: openId === id ? '' : id }, { replace: true });
  };
  const clearFilters = () => {
    setSearch('');
    setCategory('all');
  };

  return (
    <main className="page faq-page" aria-labelledby="faq-title">
      <header className="faq-hero">
        <h1 id="faq-title">
          <FormattedMessage id="faq.page.title" defaultMessage="Frequently Asked Questions" />
        </h1>
        <p className="muted">
          <FormattedMessage id="faq.page.lead" defaultMessage="Answers about staying safe with Beacon, plans, technical details and privacy." />
        </p>
        <div className="field faq-search">
          <label htmlFor="faq-search" className="visually-hidden">
            <FormattedMessage id="faq.search.label" defaultMessage="Search questions" />
          </label>
          <input
            id="faq-search"
            type="search"
            placeholder={intl.formatMessage({ id: 'faq.search.placeholder', defaultMessage: 'Search questions...' })}
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
        </div>
        <div className="faq-chips" role="group" aria-label={intl.formatMessage({ id: 'faq.categories.label', defaultMessage: 'Categories' })}>
          {(['all', ...FAQ_CATEGORIES] as const).map((c) => (
            <button
              key={c}
              type="button"
              className={`chip ${category === c ? 'chip-active' : ''}`}
              aria-pressed={category === c}
              onClick={() => setCategory(c)}
            >
              {intl.formatMessage(FAQ_CATEGORY_LABELS[c])}
            </button>
          ))}
        </div>
      </header>

      <p className="visually-hidden" aria-live="polite">
        <FormattedMessage
          id="faq.results.count"
          defaultMessage="{count, plural, one {# question shown} other {# questions shown}}"
          values={{ count: items.length }}
        />
      </p>
      {items.length === 0 ? (
        <div className="empty-state card" role="status">
          <h2>
            <FormattedMessage id="faq.results.noneTitle" defaultMessage="No results found" />
          </h2>
          <p>
            <FormattedMessage id="faq.results.noneHint" defaultMessage="Try a different search term or category." />
          </p>
          <button type="button" className="btn btn-primary" onClick={clearFilters}>
            <FormattedMessage id="faq.results.clearFilters" defaultMessage="Clear filters" />
          </button>
        </div>
      ) : (
        <ul className="faq-list">
          {items.map((item) => {
            const open = item.id === openId;
            return (
              <li key={item.id} id={item.id} className={`faq-item card ${open ? 'open' : ''}`}>
                <h2 className="faq-question">
                  <button type="button" id={`faq-q-${item.id}`} aria-expanded={open} aria-controls={`faq-a-${item.id}`} onClick={() => toggle(item.id)}>
                    <span>{item.question}</span>
                    {/* a + or − drawn by the stylesheet (faq.css) */}
                    <span aria-hidden="true" className="faq-chevron" />
                  </button>
                </h2>
                <div id={`faq-a-${item.id}`} role="region" aria-labelledby={`faq-q-${item.id}`} hidden={!open} className="faq-answer">
                  <p>{item.answer}</p>
                  <span className="badge">{intl.formatMessage(FAQ_CATEGORY_LABELS[item.category])}</span>
                </div>
              </li>
            );
          })}
        </ul>
      )}

      <div className="grid-2 faq-more">
        <div className="card">
          <h2>
            <FormattedMessage id="faq.more.supportTitle" defaultMessage="Still have questions?" />
          </h2>
          <p className="muted">
            <FormattedMessage id="faq.more.supportText" defaultMessage="Our support team answers within one business day." />
          </p>
          <Link to="/contact" className="btn btn-primary">
            <FormattedMessage id="faq.more.contactSupport" defaultMessage="Contact Support" />
          </Link>
        </div>
        <div className="card">
          <h2>
            <FormattedMessage id="faq.more.premiumTitle" defaultMessage="Want more coverage?" />
          </h2>
          <p className="muted">
            <FormattedMessage id="faq.more.premiumText" defaultMessage="Premium extends your alert radius, history and camera access." />
          </p>
          <Link to="/premium" className="btn btn-outline">
            <FormattedMessage id="faq.more.viewPremium" defaultMessage="View Premium Plans" />
          </Link>
        </div>
      </div>
    </main>
  );
}

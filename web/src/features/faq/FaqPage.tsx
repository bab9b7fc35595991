import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { FAQ_CATEGORIES, FAQ_CATEGORY_LABELS, FAQ_ITEMS, type FaqCategory } from './faq-data';
import './faq.css';

/** Case-insensitive match on the question or the answer, within the chosen category. */
export function filterFaq(search: string, category: FaqCategory | 'all') {
  const needle = search.trim().toLowerCase();
  return FAQ_ITEMS.filter(
    (item) =>
      (category === 'all' || item.category === category) &&
      (!needle || item.question.toLowerCase().includes(needle) || item.answer.toLowerCase().includes(needle)),
  );
}

const itemIds = new Set(FAQ_ITEMS.map((i) => i.id));

/**
 * /faq. The open item IS the URL hash (one source of truth): toggling an item rewrites the hash, and a
 * link to /faq#<id> opens that item and scrolls to it.
 */
export function FaqPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const [search, setSearch] = useState('');
  const [category, setCategory] = useState<FaqCategory | 'all'>('all');
  const hashId = decodeURIComponent(location.hash.replace(/^#/, ''));
  const openId = itemIds.has(hashId) ? hashId : null;
  const items = useMemo(() => filterFaq(search, category), [search, category]);
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
        <h1 id="faq-title">Frequently Asked Questions</h1>
        <p className="muted">Answers about staying safe with Beacon, plans, technical details and privacy.</p>
        <div className="field faq-search">
          <label htmlFor="faq-search" className="visually-hidden">
            Search questions
          </label>
          <input id="faq-search" type="search" placeholder="Search questions..." value={search} onChange={(e) => setSearch(e.target.value)} />
        </div>
        <div className="faq-chips" role="group" aria-label="Categories">
          {(['all', ...FAQ_CATEGORIES] as const).map((c) => (
            <button
              key={c}
              type="button"
              className={`chip ${category === c ? 'chip-active' : ''}`}
              aria-pressed={category === c}
              onClick={() => setCategory(c)}
            >
              {c === 'all' ? 'All' : FAQ_CATEGORY_LABELS[c]}
            </button>
          ))}
        </div>
      </header>

      <p className="visually-hidden" aria-live="polite">
        {items.length} {items.length === 1 ? 'question' : 'questions'} shown
      </p>
      {items.length === 0 ? (
        <div className="empty-state card" role="status">
          <h2>No results found</h2>
          <p>Try a different search term or category.</p>
          <button type="button" className="btn btn-primary" onClick={clearFilters}>
            Clear filters
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
                    <span aria-hidden="true" className="faq-chevron">
                      {open ? '−' : '+'}
                    </span>
                  </button>
                </h2>
                <div id={`faq-a-${item.id}`} role="region" aria-labelledby={`faq-q-${item.id}`} hidden={!open} className="faq-answer">
                  <p>{item.answer}</p>
                  <span className="badge">{FAQ_CATEGORY_LABELS[item.category]}</span>
                </div>
              </li>
            );
          })}
        </ul>
      )}

      <div className="grid-2 faq-more">
        <div className="card">
          <h2>Still have questions?</h2>
          <p className="muted">Our support team answers within one business day.</p>
          <Link to="/contact" className="btn btn-primary">
            Contact Support
          </Link>
        </div>
        <div className="card">
          <h2>Want more coverage?</h2>
          <p className="muted">Premium extends your alert radius, history and camera access.</p>
          <Link to="/premium" className="btn btn-outline">
            View Premium Plans
          </Link>
        </div>
      </div>
    </main>
  );
}

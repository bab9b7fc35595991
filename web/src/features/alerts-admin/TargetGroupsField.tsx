import { useEffect, useRef, useState, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'react-router-dom';
import { ALERT_GROUPS_MAX, type AlertTargetGroup } from '@beacon/contracts';
import { useTargetGroupsQuery } from './alerts-admin.api';
import { GROUP_WORDS, groupText, membersText, targetGroupOf } from './target-groups';
import './audience.css';

/** How many groups the list shows at once; a search finds the others. */
const SHOWN = 8;

interface TargetGroupsFieldProps {
  /** The form's id, the fields' ids' prefix. */
  id: string;
  value: AlertTargetGroup[];
  onChange: (groups: AlertTargetGroup[]) => void;
  error?: string;
  /** Why no group can be chosen now (everyone, everywhere is): said instead of the choice, the chosen kept. */
  unavailable?: ReactNode;
}

/**
 * The contact groups an alert targets (issue #42), beside its area: each chosen one as a chip with its name and member
 * count and a button that removes it, and a searchable checklist of the others (a search field, then a checkbox per
 * group whose name contains it), all reachable and operable by keyboard. At most ALERT_GROUPS_MAX; a change is
 * announced, and removing a chip gives the focus to the search field rather than losing it.
 */
export function TargetGroupsField({ id, value, onChange, error, unavailable }: TargetGroupsFieldProps) {
  const intl = useIntl();
  const [search, setSearch] = useState('');
  const [said, setSaid] = useState('');
  const searchBox = useRef<HTMLInputElement>(null);
  const [focusSearch, setFocusSearch] = useState(false);
  // Read again each time the form opens: members come and go between two alerts.
  const groups = useTargetGroupsQuery(undefined, { refetchOnMountOrArgChange: true });
  useEffect(() => {
    if (!focusSearch) return;
    searchBox.current?.focus();
    setFocusSearch(false);
  }, [focusSearch]);

  const chosen = new Set(value.map((g) => g.id));
  const full = value.length >= ALERT_GROUPS_MAX;
  const words = search.trim().toLocaleLowerCase();
  const matches = (groups.data ?? []).filter((g) => g.name.toLocaleLowerCase().includes(words));
  const shown = matches.slice(0, SHOWN);
  const describedBy = [`${id}-groups-hint`, error ? `${id}-groups-error` : ''].filter(Boolean).join(' ');

  function add(group: AlertTargetGroup) {
    const next = [...value, targetGroupOf(group)];
    onChange(next);
    setSaid(intl.formatMessage(GROUP_WORDS.added, { name: group.name, count: next.length }));
  }
  function remove(group: AlertTargetGroup, fromChip: boolean) {
    const next = value.filter((g) => g.id !== group.id);
    onChange(next);
    setSaid(intl.formatMessage(GROUP_WORDS.removed, { name: group.name, count: next.length }));
    // The chip and its button are gone: the focus goes to the search rather than to the page's start.
    if (fromChip) setFocusSearch(true);
  }

  return (
    <fieldset className="field target-groups" aria-describedby={describedBy}>
      <legend className="label">
        <FormattedMessage {...GROUP_WORDS.legend} />
      </legend>
      <p className="small muted" id={`${id}-groups-hint`}>
        <FormattedMessage {...GROUP_WORDS.hint} values={{ max: ALERT_GROUPS_MAX }} />
      </p>
      {value.length > 0 && (
        <ul className="group-chips" aria-label={intl.formatMessage(GROUP_WORDS.chosenLabel)}>
          {value.map((g) => (
            <li key={g.id} className="group-chip">
              <span className="group-chip-text">
                <strong>{g.name}</strong> <span className="muted">{membersText(intl, g)}</span>
              </span>
              <button
                type="button"
                className="btn btn-ghost btn-sm group-chip-remove"
                aria-label={intl.formatMessage(GROUP_WORDS.remove, { name: g.name })}
                onClick={() => remove(g, true)}
              >
                <span aria-hidden="true">×</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {unavailable ? (
        <p className="small">{unavailable}</p>
      ) : (
        <>
          <label htmlFor={`${id}-groups-search`}>
            <FormattedMessage {...GROUP_WORDS.searchLabel} />
          </label>
          <input
            id={`${id}-groups-search`}
            ref={searchBox}
            type="search"
            value={search}
            placeholder={intl.formatMessage(GROUP_WORDS.searchPlaceholder)}
            onChange={(e) => setSearch(e.target.value)}
            // Inside the wizard's form: Enter here is not Next.
            onKeyDown={(e) => e.key === 'Enter' && e.preventDefault()}
          />
          {groups.isLoading ? (
            <p className="small muted">
              <FormattedMessage {...GROUP_WORDS.loading} />
            </p>
          ) : groups.isError && !groups.data ? (
            <p className="small row">
              <FormattedMessage {...GROUP_WORDS.loadFailed} />
              <button type="button" className="btn btn-outline btn-sm" onClick={() => void groups.refetch()}>
                <FormattedMessage {...GROUP_WORDS.retry} />
              </button>
            </p>
          ) : groups.data?.length === 0 ? (
            <p className="small muted">
              <FormattedMessage {...GROUP_WORDS.none} values={{ link: (text) => <Link to="/admin/contact-groups">{text}</Link> }} />
            </p>
          ) : matches.length === 0 ? (
            <p className="small muted">
              <FormattedMessage {...GROUP_WORDS.noMatch} values={{ search: search.trim() }} />
            </p>
          ) : (
            <ul className="group-options" aria-label={intl.formatMessage(GROUP_WORDS.foundLabel)}>
              {shown.map((g) => {
                const on = chosen.has(g.id);
                return (
                  <li key={g.id}>
                    <label className="checkbox">
                      <input type="checkbox" checked={on} disabled={!on && full} onChange={(e) => (e.target.checked ? add(g) : remove(g, false))} />{' '}
                      <span>{groupText(intl, targetGroupOf(g))}</span>
                    </label>
                  </li>
                );
              })}
            </ul>
          )}
          {matches.length > shown.length && (
            <p className="small muted">
              <FormattedMessage {...GROUP_WORDS.more} values={{ count: matches.length - shown.length }} />
            </p>
          )}
          {full && (
            <p className="small muted">
              <FormattedMessage {...GROUP_WORDS.full} values={{ max: ALERT_GROUPS_MAX }} />
            </p>
          )}
        </>
      )}
      {error && (
        <p className="field-error" id={`${id}-groups-error`} role="alert">
          {error}
        </p>
      )}
      <p role="status" className="visually-hidden">
        {said}
      </p>
    </fieldset>
  );
}

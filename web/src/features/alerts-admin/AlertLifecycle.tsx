import { useId, useState, type FormEvent } from 'react';
import {
  ALERT_LIMITS,
  openRing,
  polygonProblem,
  ALL_CLEAR_MESSAGE_MAX,
  SEVERITIES,
  SEVERITY_INFO,
  type AdminAlert,
  type AlertUpdateField,
  type AlertVersion,
  type Severity,
} from '@beacon/contracts';
import { errorMessage, type ApiError } from '@/app/api';
import { LazyAreaMap } from '@/features/alerts';
import { AddressSearch, PolygonPoints } from './AreaDrawing';
import { TranslationFields } from './AlertLanguages';
import { translationErrors, translationsBody, type FormTranslations } from './alert-form';
import { formatDateTime } from '@/common/time';
import { useAlertVersionsQuery, useAllClearAlertMutation, useUpdateAlertMutation, type UpdateAlertBody } from './alerts-admin.api';

const FIELD_LABELS: Record<AlertUpdateField, string> = {
  title: 'title',
  message: 'message',
  translations: 'other languages',
  severity: 'severity',
  expiresAt: 'expiry',
  area: 'area',
};

/** A version in words: "Version 2 · Updated (title, area) by admin@… · 14:02 · 12 messages". */
export function versionText(v: AlertVersion): string {
  const what =
    v.kind === 'original'
      ? 'Sent'
      : v.kind === 'all_clear'
        ? 'All clear given'
        : `Updated${v.changed.length ? ` (${v.changed.map((f) => FIELD_LABELS[f]).join(', ')})` : ''}`;
  const notified = v.kind === 'original' ? '' : v.notified === null ? ' · being sent' : ` · ${v.notified} ${v.notified === 1 ? 'message' : 'messages'}`;
  return `Version ${v.version} · ${what}${v.actorEmail ? ` by ${v.actorEmail}` : ''} · ${formatDateTime(v.at)}${notified}`;
}

/** The form's values as text, as the inputs hold them. */
interface Draft {
  title: string;
  message: string;
  severity: Severity;
  locationName: string;
  lat: string;
  lng: string;
  radiusKm: string;
  /** A drawn area's corners (open ring); null for a circle or no area. */
  points: [number, number][] | null;
  translations: FormTranslations;
}

const draftOf = (a: AdminAlert): Draft => ({
  title: a.title,
  message: a.message,
  severity: a.severity,
  locationName: a.locationName ?? '',
  lat: a.lat === null ? '' : String(a.lat),
  lng: a.lng === null ? '' : String(a.lng),
  radiusKm: a.radiusKm === null ? '' : String(a.radiusKm),
  points: a.area?.type === 'polygon' ? openRing(a.area.points) : null,
  translations: a.translations ?? {},
});

/**
 * Only what the admin changed in `a` (the alert as the form opened on it), so the new version says exactly that, with
 * the revision it was made on: the server refuses it if a colleague changed the alert since. It checks the values.
 */
export function changesOf(a: AdminAlert, d: Draft): UpdateAlertBody {
  const body: UpdateAlertBody = { revision: a.revision };
  if (d.title.trim() !== a.title) body.title = d.title.trim();
  if (d.message.trim() !== a.message) body.message = d.message.trim();
  if (d.severity !== a.severity) body.severity = d.severity;
  // The other languages go whole when any of them changed (the server replaces them whole).
  const translations = translationsBody(d.translations) ?? {};
  const sorted = (t: object) => JSON.stringify(Object.entries(t).sort(([x], [y]) => x.localeCompare(y)));
  if (sorted(translations) !== sorted(a.translations ?? {})) body.translations = translations;
  if (d.locationName.trim() !== (a.locationName ?? '')) body.locationName = d.locationName.trim();
  if (d.points) {
    // A drawn area is sent whole when its corners changed.
    const before = a.area?.type === 'polygon' ? openRing(a.area.points) : [];
    if (JSON.stringify(d.points) !== JSON.stringify(before)) body.area = { type: 'polygon', points: d.points };
    return body;
  }
  const num = (s: string) => (s.trim() === '' ? undefined : Number(s));
  const [lat, lng, radiusKm] = [num(d.lat), num(d.lng), num(d.radiusKm)];
  if (lat !== (a.lat ?? undefined) || lng !== (a.lng ?? undefined)) Object.assign(body, { lat, lng });
  if (radiusKm !== (a.radiusKm ?? undefined)) body.radiusKm = radiusKm;
  return body;
}

/**
 * The alert's life after it went out: update it (a new version; those it reached are told what changed, those newly
 * concerned get it, those no longer concerned are told so) or give the all-clear (it ends; everyone it reached is
 * told, after their quiet hours). And its versions, oldest first. Acting needs an alert in effect whose audience is
 * chosen; the server has the last word and its refusal is shown as it says it.
 */
export function AlertLifecycle({ alert: a }: { alert: AdminAlert }) {
  const id = useId();
  const [mode, setMode] = useState<'idle' | 'update' | 'all-clear'>('idle');
  // The alert as the form opened on it: live changes and reloads of `a` must not move what the edit was made on.
  const [opened, setOpened] = useState<AdminAlert>(a);
  const [draft, setDraft] = useState<Draft>(() => draftOf(a));
  const [clearMessage, setClearMessage] = useState('');
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string; editedElsewhere?: boolean } | null>(null);
  const [update, updating] = useUpdateAlertMutation();
  const [allClear, clearing] = useAllClearAlertMutation();
  const versions = useAlertVersionsQuery({ id: a.id, version: a.version }, { skip: a.version < 2 });
  // A draft is edited in place (nothing went out); an alert in effect, once its audience is chosen, gets a new version.
  const isDraft = a.status === 'draft';
  const canAct = (a.status === 'active' && a.recipients !== null) || isDraft;
  const [focus, setFocus] = useState<{ lat: number; lng: number } | null>(a.lat !== null && a.lng !== null ? { lat: a.lat, lng: a.lng } : null);
  const set = (k: keyof Draft) => (e: { target: { value: string } }) => setDraft((d) => ({ ...d, [k]: e.target.value }));
  const openForm = () => {
    setOpened(a);
    setDraft(draftOf(a));
    setOutcome(null);
    setMode('update');
  };

  async function submitUpdate(e: FormEvent) {
    e.preventDefault();
    try {
      const next = await update({ id: a.id, body: changesOf(opened, draft) }).unwrap();
      setOutcome({ ok: true, text: isDraft ? 'Draft saved.' : `Version ${next.version} is going out to the people this alert concerns.` });
      setMode('idle');
    } catch (err) {
      const editedElsewhere = (err as Partial<ApiError>).code === 'alert_edited_elsewhere';
      setOutcome({ ok: false, text: errorMessage(err, 'The update could not be sent.'), editedElsewhere });
    }
  }

  async function submitAllClear(e: FormEvent) {
    e.preventDefault();
    try {
      await allClear({ id: a.id, message: clearMessage.trim() || undefined }).unwrap();
      setOutcome({ ok: true, text: 'All clear given: everyone this alert reached is being told.' });
      setMode('idle');
    } catch (err) {
      setOutcome({ ok: false, text: errorMessage(err, 'The all-clear could not be sent.') });
    }
  }

  if (!canAct && !versions.data && a.status !== 'all_clear') return null;
  return (
    <section className="card stack" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{isDraft ? 'Edit draft' : 'Update or end'}</h2>
      {a.status === 'all_clear' && a.allClear && (
        <p role="status">
          All clear given {formatDateTime(a.allClear.at)}
          {a.allClear.message ? `: ${a.allClear.message}` : '.'}
        </p>
      )}
      {canAct && mode === 'idle' && (
        <div className="row">
          <button type="button" className="btn btn-outline" onClick={openForm}>
            {isDraft ? 'Edit draft' : 'Update alert'}
          </button>
          {!isDraft && (
            <button
              type="button"
              className="btn btn-primary"
              onClick={() => {
                setOutcome(null);
                setMode('all-clear');
              }}
            >
              Give the all-clear
            </button>
          )}
        </div>
      )}
      {canAct && mode === 'update' && (
        <form className="stack" onSubmit={submitUpdate} aria-label={isDraft ? 'Edit draft' : 'Update alert'}>
          <p className="small muted">
            {isDraft
              ? 'Nothing has gone out yet: the draft is saved as you leave it, and sent when you send it.'
              : 'Those this alert reached get an “Update:” message; people newly inside the area get the alert; people no longer inside are told so. Change the other languages too, or their readers keep the earlier text.'}
          </p>
          <div className="field">
            <label htmlFor={`${id}-u-title`}>Title</label>
            <input id={`${id}-u-title`} value={draft.title} onChange={set('title')} maxLength={ALERT_LIMITS.titleMax} required />
          </div>
          <div className="field">
            <label htmlFor={`${id}-u-message`}>Message</label>
            <textarea id={`${id}-u-message`} value={draft.message} onChange={set('message')} maxLength={ALERT_LIMITS.messageMax} rows={3} required />
          </div>
          <TranslationFields
            value={draft.translations}
            errors={translationErrors(draft.translations)}
            onChange={(translations) => setDraft((d) => ({ ...d, translations }))}
          />
          <div className="field">
            <label htmlFor={`${id}-u-severity`}>Severity</label>
            <select id={`${id}-u-severity`} value={draft.severity} onChange={set('severity')}>
              {SEVERITIES.map((s) => (
                <option key={s} value={s}>
                  {SEVERITY_INFO[s].label}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor={`${id}-u-location`}>Location name</label>
            <input id={`${id}-u-location`} value={draft.locationName} onChange={set('locationName')} maxLength={200} />
          </div>
          {!draft.points && a.area === null && (
            <button type="button" className="btn btn-outline btn-sm" onClick={() => setDraft((d) => ({ ...d, points: [] }))}>
              Draw the area
            </button>
          )}
          {draft.points ? (
            <div className="field">
              <span className="label">Area</span>
              <p className="small muted">Click the map to add corners; Undo, Clear or remove corners below. Only homes inside the new area are concerned.</p>
              <AddressSearch onFound={(place) => setFocus({ lat: place.lat, lng: place.lng })} />
              <LazyAreaMap
                // Opened on the area as it stands (a drawn area's lat/lng are its centroid), or where the search found.
                center={a.lat !== null && a.lng !== null ? { lat: a.lat, lng: a.lng } : null}
                focus={focus}
                radiusKm={0}
                polygon={draft.points}
                onPick={(lat, lng) => setDraft((d) => ({ ...d, points: [...(d.points ?? []), [lat, lng]] }))}
                label="New area map: click to add a corner of the polygon"
              />
              <PolygonPoints points={draft.points} onChange={(points) => setDraft((d) => ({ ...d, points }))} />
            </div>
          ) : (
            <div className="row">
              <div className="field">
                <label htmlFor={`${id}-u-lat`}>Latitude</label>
                <input id={`${id}-u-lat`} inputMode="decimal" value={draft.lat} onChange={set('lat')} />
              </div>
              <div className="field">
                <label htmlFor={`${id}-u-lng`}>Longitude</label>
                <input id={`${id}-u-lng`} inputMode="decimal" value={draft.lng} onChange={set('lng')} />
              </div>
              <div className="field">
                <label htmlFor={`${id}-u-radius`}>Radius (km)</label>
                <input id={`${id}-u-radius`} inputMode="decimal" value={draft.radiusKm} onChange={set('radiusKm')} />
              </div>
            </div>
          )}
          <div className="row">
            <button
              type="submit"
              className="btn btn-primary"
              disabled={
                updating.isLoading || (!!draft.points && !!polygonProblem(draft.points)) || Object.values(translationErrors(draft.translations)).some(Boolean)
              }
            >
              {updating.isLoading ? 'Saving…' : isDraft ? 'Save draft' : 'Send update'}
            </button>
            <button type="button" className="btn btn-outline" onClick={() => setMode('idle')}>
              Keep as it is
            </button>
          </div>
        </form>
      )}
      {canAct && mode === 'all-clear' && (
        <form className="stack" onSubmit={submitAllClear} aria-label="Give the all-clear">
          <p>The alert ends, and everyone it reached is told “All clear” on the channels that reached them (after their quiet hours).</p>
          <div className="field">
            <label htmlFor={`${id}-clear`}>All-clear message (optional)</label>
            <textarea id={`${id}-clear`} value={clearMessage} onChange={(e) => setClearMessage(e.target.value)} maxLength={ALL_CLEAR_MESSAGE_MAX} rows={2} />
          </div>
          <div className="row">
            <button type="submit" className="btn btn-primary" disabled={clearing.isLoading}>
              {clearing.isLoading ? 'Sending all-clear…' : 'Send all-clear'}
            </button>
            <button type="button" className="btn btn-outline" onClick={() => setMode('idle')}>
              Not yet
            </button>
          </div>
        </form>
      )}
      {outcome && (
        <p role={outcome.ok ? 'status' : 'alert'} className={outcome.ok ? '' : 'field-error'}>
          {outcome.text}
          {outcome.editedElsewhere && mode === 'update' && (
            <>
              {' '}
              <button type="button" className="btn btn-outline btn-sm" onClick={openForm}>
                Reload the latest
              </button>
            </>
          )}
        </p>
      )}
      {versions.data && versions.data.length > 1 && (
        <div>
          <h3 className="h4">Versions</h3>
          <ol className="stack small" aria-label="Versions">
            {versions.data.map((v) => (
              <li key={v.version}>
                <span>{versionText(v)}</span>
                <br />
                <span className="muted">{v.kind === 'all_clear' ? '' : v.title}</span>
              </li>
            ))}
          </ol>
        </div>
      )}
    </section>
  );
}

import { useId, useState, type FormEvent } from 'react';
import {
  ALERT_LIMITS,
  ALL_CLEAR_MESSAGE_MAX,
  LANGUAGE_LABELS,
  SMS_MAX_SEGMENTS,
  TRANSLATION_LANGUAGES,
  alertLanguages,
  lifecycleWords,
  areaParts,
  openRing,
  type AdminAlert,
  type AlertArea,
  type AlertAudience,
  type AlertTargetGroup,
  type AlertUpdateField,
  type AlertVersion,
  type AllClearTranslations,
  type AllClearWords,
  type Language,
  type Severity,
} from '@beacon/contracts';
import { FormattedMessage, useIntl } from 'react-intl';
import { errorMessage, type ApiError } from '@/app/api';
import { LazyAreaMap } from '@/features/alerts';
import { AreaPartsFields } from './AreaDrawing';
import { TranslationFields } from './AlertLanguages';
import {
  AREA_DEFAULTS,
  areaErrors,
  areaIsEmpty,
  areaOfParts,
  areaPartsOf,
  areaValuesOf,
  hasErrors,
  partProblem,
  localDateTimeValue,
  MESSAGES,
  partNamesOf,
  translationErrors,
  translationsBody,
  type AreaValues,
  type FieldErrors,
  type FormTranslations,
} from './alert-form';
import { formatDateTime } from '@/common/time';
import { serverNow } from '@/common/server-clock';
import { currentIntl } from '@/i18n';
import {
  useAlertVersionsQuery,
  useAllClearAlertMutation,
  useAllClearAudienceMutation,
  useUpdateAlertMutation,
  useUpdateAudienceMutation,
  type UpdateAlertBody,
} from './alerts-admin.api';
import { alertChannels } from './AlertDeliverySummary';
import { GuardedSendDialog, people, useAudienceGuard } from './AudienceGuard';
import { LanguagePreviews, readerPreviews, smsTooLong, type PreviewAlert } from './LanguagePreviews';
import { useConsoleRights } from './rights';
import { SeverityOptions } from './ui';
import { GROUP_WORDS, groupErrorText, groupsProblem, isEveryoneAlert, isGroupErrorCode, sameGroups } from './target-groups';
import { TargetGroupsField } from './TargetGroupsField';

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
  /** The area as the drawing fields hold it (its parts: issue #42); null for an alert without one until "Draw the area". */
  area: AreaValues | null;
  translations: FormTranslations;
  /** A `datetime-local` value in the browser's zone; '' for no expiry. */
  expiresAt: string;
  /** The contact groups it targets (issue #42), as their chips show them. */
  groups: AlertTargetGroup[];
}

const localValue = (iso: string | null) => (iso ? localDateTimeValue(new Date(iso)) : '');

const draftOf = (a: AdminAlert): Draft => ({
  title: a.title,
  message: a.message,
  severity: a.severity,
  locationName: a.locationName ?? '',
  area: draftAreaOf(a),
  translations: a.translations ?? {},
  expiresAt: localValue(a.expiresAt),
  groups: a.groups,
});

/** The alert's area as the form edits it; null for an alert to everyone. */
function draftAreaOf(a: AdminAlert): AreaValues | null {
  const area = areaOf(a);
  return area ? areaValuesOf(area) : null;
}

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
  // The input holds minutes: an expiry is changed only when the minute shown was changed (cleared: no expiry).
  if (d.expiresAt !== localValue(a.expiresAt)) body.expiresAt = d.expiresAt ? new Date(d.expiresAt).toISOString() : null;
  // The groups go whole when any changed (the server replaces them whole); absent, they stay as they are.
  if (!sameGroups(d.groups, a.groups)) body.groupIds = d.groups.map((g) => g.id);
  if (!d.area) return body;
  const before = areaOf(a);
  const after = areaOfParts(areaPartsOf(d.area));
  if (!after) return body;
  if (isPlainCircle(after) && (!before || isPlainCircle(before))) {
    // A circle changes by its centre and its radius, each only when changed.
    if (after.lat !== before?.lat || after.lng !== before?.lng) Object.assign(body, { lat: after.lat, lng: after.lng });
    if (after.radiusKm !== before?.radiusKm) body.radiusKm = after.radiusKm;
  } else if (!before || JSON.stringify(comparable(after)) !== JSON.stringify(comparable(before))) {
    // Any other area is sent whole when a part of it changed.
    body.area = after;
  }
  return body;
}

/** The alert's area: its `area`, or the circle of an alert stored before areas were (its lat/lng/radiusKm); null: everyone. */
const areaOf = (a: AdminAlert): AlertArea | null =>
  a.area ?? (a.lat !== null && a.lng !== null ? { type: 'circle', lat: a.lat, lng: a.lng, radiusKm: a.radiusKm ?? ALERT_LIMITS.radiusKmDefault } : null);

const isPlainCircle = (area: AlertArea): area is Extract<AlertArea, { type: 'circle' }> => area.type === 'circle' && !area.description;

/** An area's parts as the form writes them (open rings, names only when given), so an untouched area compares equal. */
const comparable = (area: AlertArea) =>
  areaParts(area).map((p) =>
    p.type === 'polygon'
      ? { type: p.type, points: openRing(p.points), description: p.description || undefined }
      : { type: p.type, lat: p.lat, lng: p.lng, radiusKm: p.radiusKm, description: p.description || undefined },
  );

/**
 * The area's problems as the update form shows them while it is edited: only what no part says itself (the polygon
 * being drawn and the list of parts say their own), and a circle without a centre in this form's words.
 */
function liveAreaErrors(area: AreaValues): FieldErrors {
  const errors = areaErrors(area);
  const parts = areaPartsOf(area);
  const saidByPart = parts.length > 1 ? parts.some((p) => partProblem(p)) : area.areaType === 'polygon';
  if (saidByPart) return { ...errors, area: undefined };
  return errors.area === MESSAGES.areaRequired ? { ...errors, area: 'Place the centre of the area on the map, or type its coordinates' } : errors;
}

/** The fields an update body changes, in words: "title, expiry". */
const changedText = (body: UpdateAlertBody) =>
  (['title', 'message', 'translations', 'severity', 'expiresAt', 'area'] as const)
    .filter((f) => (f === 'area' ? body.area !== undefined || body.lat !== undefined || body.radiusKm !== undefined : body[f] !== undefined))
    .map((f) => FIELD_LABELS[f])
    .concat(body.locationName !== undefined ? ['location name'] : [])
    .concat(body.groupIds !== undefined ? [currentIntl().formatMessage(GROUP_WORDS.changed)] : [])
    .join(', ');

/** The alert an update sends, as the form holds it (LanguagePreviews puts Beacon's "Update:" on it in each language). */
const updatedAlert = (d: Draft): PreviewAlert => ({
  title: d.title,
  message: d.message,
  translations: translationsBody(d.translations) ?? {},
  severity: d.severity,
  locationName: d.locationName,
});

/**
 * What the update form's groups break: too many, or none left on an alert in effect without an area (it would reach
 * nobody, or read as everyone). A draft may be saved with neither: it is sent only once it has one, or everyone.
 */
function groupsError(opened: AdminAlert, d: Draft, isDraft: boolean): string | undefined {
  const intl = currentIntl();
  const problem = groupsProblem(intl, d.groups, false);
  if (problem) return problem;
  if (!isDraft && !d.area && d.groups.length === 0 && opened.groups.length > 0) return intl.formatMessage(GROUP_WORDS.keepOne);
  return undefined;
}

/** The all-clear's body: the English words and each other language's, only those written. */
export function allClearBody(words: Partial<Record<Language, string>>): { message?: string; translations?: AllClearTranslations } {
  const translations: AllClearTranslations = {};
  for (const l of TRANSLATION_LANGUAGES) {
    const text = words[l]?.trim();
    if (text) translations[l] = { message: text };
  }
  const message = words.en?.trim();
  return { ...(message ? { message } : {}), ...(Object.keys(translations).length ? { translations } : {}) };
}

const SMS_TOO_LONG = `In one language the SMS would take more than ${SMS_MAX_SEGMENTS} segments: shorten its text.`;

const toldText = (audience: AlertAudience) => {
  const t = audience.told;
  if (!t) return null;
  const parts = [
    t.stillInArea > 0 && `${people(t.stillInArea)} it reached get the update`,
    t.leftArea > 0 && `${people(t.leftArea)} the new area leaves out are told so`,
    t.newlyConcerned > 0 && `${people(t.newlyConcerned)} newly inside get the alert`,
  ].filter(Boolean);
  return parts.length ? `${parts.join('; ')}.` : null;
};

/**
 * The alert's life after it went out: update it (a new version; those it reached are told what changed, those newly
 * concerned get it, those no longer concerned are told so) or give the all-clear (it ends; everyone it reached is
 * told, after their quiet hours, each in their language). Both show what goes out per language and channel and whom it
 * tells, and go out only on a confirmation naming that number (the audience guard). And its versions, oldest first.
 * Acting needs an alert in effect whose audience is chosen, and a publisher; the server has the last word.
 */
export function AlertLifecycle({ alert: a }: { alert: AdminAlert }) {
  const id = useId();
  const intl = useIntl();
  const { canPublish } = useConsoleRights();
  const [mode, setMode] = useState<'idle' | 'update' | 'all-clear'>('idle');
  // The alert as the form opened on it: live changes and reloads of `a` must not move what the edit was made on.
  const [opened, setOpened] = useState<AdminAlert>(a);
  const [draft, setDraft] = useState<Draft>(() => draftOf(a));
  const [clearWords, setClearWords] = useState<Partial<Record<Language, string>>>({});
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string; editedElsewhere?: boolean } | null>(null);
  // The server's refusal of the groups (issue #42), said at them until they change.
  const [refusedGroups, setRefusedGroups] = useState<string | null>(null);
  const [update, updating] = useUpdateAlertMutation();
  const [updateAudience] = useUpdateAudienceMutation();
  const [allClear] = useAllClearAlertMutation();
  const [allClearAudience] = useAllClearAudienceMutation();
  const guard = useAudienceGuard();
  // What the open confirmation is about: the update body it counted, or the all-clear.
  const [confirming, setConfirming] = useState<
    { kind: 'update'; body: UpdateAlertBody; alert: PreviewAlert } | { kind: 'all-clear'; allClear: AllClearWords } | null
  >(null);
  const versions = useAlertVersionsQuery({ id: a.id, version: a.version }, { skip: a.version < 2 });
  // A draft is edited in place (nothing went out); an alert in effect, once its audience is chosen, gets a new version.
  const isDraft = a.status === 'draft';
  const canAct = canPublish && ((a.status === 'active' && a.recipients !== null) || isDraft);
  const channels = alertChannels(a);
  const set = (k: keyof Draft) => (e: { target: { value: string } }) => setDraft((d) => ({ ...d, [k]: e.target.value }));
  const expiryPast = draft.expiresAt !== '' && draft.expiresAt !== localValue(opened.expiresAt) && new Date(draft.expiresAt).getTime() <= serverNow().getTime();
  const openForm = () => {
    setOpened(a);
    setDraft(draftOf(a));
    setOutcome(null);
    setRefusedGroups(null);
    setMode('update');
  };
  const fail =
    (fallback: string, groups: AlertTargetGroup[] = []) =>
    (err: unknown) => {
      const code = (err as Partial<ApiError>).code;
      if (isGroupErrorCode(code)) {
        setRefusedGroups(groupErrorText(intl, code, errorMessage(err, fallback), groups));
        return;
      }
      const editedElsewhere = code === 'alert_edited_elsewhere';
      setOutcome({ ok: false, text: errorMessage(err, fallback), editedElsewhere });
    };
  const groupsWrong = refusedGroups ?? groupsError(opened, draft, isDraft);
  // An alert that went to everyone keeps going to everyone: groups would narrow it to their members.
  const groupsUnavailable = !isDraft && isEveryoneAlert(opened) && !draft.area;

  async function submitUpdate(e: FormEvent) {
    e.preventDefault();
    const body = changesOf(opened, draft);
    if (isDraft) {
      // Nothing goes out: a draft is saved as it is, and confirmed with its audience when it is sent.
      try {
        await update({ id: a.id, body }).unwrap();
        setOutcome({ ok: true, text: 'Draft saved.' });
        setMode('idle');
      } catch (err) {
        fail('The draft could not be saved.', draft.groups)(err);
      }
      return;
    }
    if (Object.keys(body).length === 1) {
      setOutcome({ ok: false, text: 'Nothing was changed: change the text, the area, the severity or the expiry first.' });
      return;
    }
    setOutcome(null);
    setConfirming({ kind: 'update', body, alert: updatedAlert(draft) });
    guard.open({
      preview: () => updateAudience({ id: a.id, body }).unwrap(),
      send: (audienceToken) => update({ id: a.id, body, audienceToken }).unwrap(),
      onSent: (next, audience) => {
        setOutcome({ ok: true, text: `Version ${next.version} is going out to ${people(audience.recipients)}.` });
        setMode('idle');
      },
      onError: fail('The update could not be sent.', draft.groups),
    });
  }

  function submitAllClear(e: FormEvent) {
    e.preventDefault();
    setOutcome(null);
    const body = allClearBody(clearWords);
    setConfirming({ kind: 'all-clear', allClear: body });
    guard.open({
      preview: () => allClearAudience({ id: a.id, ...body }).unwrap(),
      send: (audienceToken) => allClear({ id: a.id, ...body, audienceToken }).unwrap(),
      onSent: (_ended, audience) => {
        setOutcome({
          ok: true,
          text: `All clear given: ${people(audience.recipients)} this alert reached ${audience.recipients === 1 ? 'is' : 'are'} being told.`,
        });
        setMode('idle');
      },
      onError: fail('The all-clear could not be sent.'),
    });
  }

  if (!canAct && !versions.data && a.status !== 'all_clear') return null;
  const counted = guard.state.phase === 'confirming' || guard.state.phase === 'sending' ? guard.state.audience : null;
  // An SMS over the limit in any language is refused by the server: shorten it before anything is counted.
  const updateTooLong = mode === 'update' && !isDraft && smsTooLong(readerPreviews(updatedAlert(draft), 'update'), channels);
  const clearTooLong = mode === 'all-clear' && smsTooLong(readerPreviews(a, 'all_clear', allClearBody(clearWords)), channels);
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
                setClearWords({});
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
              <SeverityOptions />
            </select>
          </div>
          <div className="field">
            <label htmlFor={`${id}-u-expires`}>Expires (your time; empty: never)</label>
            <div className="row">
              <input
                id={`${id}-u-expires`}
                type="datetime-local"
                value={draft.expiresAt}
                onChange={set('expiresAt')}
                aria-invalid={expiryPast}
                aria-describedby={expiryPast ? `${id}-u-expires-error` : undefined}
              />
              {draft.expiresAt && (
                <button type="button" className="btn btn-ghost btn-sm" onClick={() => setDraft((d) => ({ ...d, expiresAt: '' }))}>
                  Never expires
                </button>
              )}
            </div>
            {expiryPast && (
              <p id={`${id}-u-expires-error`} className="field-error">
                {MESSAGES.expiresPast}
              </p>
            )}
          </div>
          <div className="field">
            <label htmlFor={`${id}-u-location`}>Location name</label>
            <input id={`${id}-u-location`} value={draft.locationName} onChange={set('locationName')} maxLength={200} />
          </div>
          {draft.area ? (
            <div className="field">
              <span className="label">Area</span>
              <p className="small muted">Only homes inside the new area are concerned. Edit, add or remove its parts below the map.</p>
              <AreaPartsFields
                id={`${id}-u`}
                values={draft.area}
                errors={liveAreaErrors(draft.area)}
                change={(patch) => setDraft((d) => ({ ...d, area: d.area && { ...d.area, ...patch } }))}
                mapName="New area map"
                // Opened on the area as it stands (a drawn area's lat/lng are its centroid).
                start={a.lat !== null && a.lng !== null ? { lat: a.lat, lng: a.lng } : null}
              />
            </div>
          ) : (
            <button
              type="button"
              className="btn btn-outline btn-sm"
              onClick={() => setDraft((d) => ({ ...d, area: { ...AREA_DEFAULTS, areaType: 'polygon' } }))}
            >
              Draw the area
            </button>
          )}
          <TargetGroupsField
            id={`${id}-u`}
            value={draft.groups}
            onChange={(groups) => {
              setDraft((d) => ({ ...d, groups }));
              setRefusedGroups(null);
            }}
            error={groupsWrong}
            unavailable={groupsUnavailable && <FormattedMessage {...GROUP_WORDS.sentToEveryone} />}
          />
          <div className="row">
            <button
              type="submit"
              className="btn btn-primary"
              disabled={
                updating.isLoading ||
                guard.state.phase !== 'closed' ||
                expiryPast ||
                updateTooLong ||
                Boolean(groupsWrong) ||
                (!!draft.area && hasErrors(areaErrors(draft.area))) ||
                Object.values(translationErrors(draft.translations)).some(Boolean)
              }
            >
              {isDraft ? (updating.isLoading ? 'Saving…' : 'Save draft') : 'Review the update'}
            </button>
            <button type="button" className="btn btn-outline" onClick={() => setMode('idle')}>
              Keep as it is
            </button>
          </div>
          {updateTooLong && <p className="field-error">{SMS_TOO_LONG}</p>}
        </form>
      )}
      {canAct && mode === 'all-clear' && (
        <form className="stack" onSubmit={submitAllClear} aria-label="Give the all-clear">
          <p>
            The alert ends, and everyone it reached is told “All clear” on the channels that reached them (after their quiet hours), each in their language.
          </p>
          {alertLanguages(a).map((l) => (
            <div className="field" key={l}>
              <label htmlFor={`${id}-clear-${l}`}>All-clear message{l === 'en' ? '' : ` in ${LANGUAGE_LABELS[l].replace(/ \(.*\)$/, '')}`} (optional)</label>
              <textarea
                id={`${id}-clear-${l}`}
                lang={l}
                value={clearWords[l] ?? ''}
                onChange={(e) => setClearWords((w) => ({ ...w, [l]: e.target.value }))}
                maxLength={ALL_CLEAR_MESSAGE_MAX}
                rows={2}
                placeholder={lifecycleWords(l).allClearDefault}
              />
            </div>
          ))}
          {alertLanguages(a).length > 1 && (
            <p className="small muted">A language left empty gets Beacon&apos;s own words in that language (shown greyed in its field), never the English.</p>
          )}
          <div className="row">
            <button type="submit" className="btn btn-primary" disabled={guard.state.phase !== 'closed' || clearTooLong}>
              Review the all-clear
            </button>
            <button type="button" className="btn btn-outline" onClick={() => setMode('idle')}>
              Not yet
            </button>
          </div>
          {clearTooLong && <p className="field-error">{SMS_TOO_LONG}</p>}
        </form>
      )}
      {confirming && (
        <GuardedSendDialog
          guard={guard}
          title={confirming.kind === 'update' ? `Send version ${opened.version + 1} of “${opened.title}”?` : `Give the all-clear for “${a.title}”?`}
          actionLabel={confirming.kind === 'update' ? 'Send update to' : 'Send all-clear to'}
          lead={confirming.kind === 'update' ? 'This update tells' : 'The all-clear tells'}
          partNames={confirming.kind === 'update' && draft.area ? areaPartsOf(draft.area).map((p) => p.description.trim()) : partNamesOf(opened.area)}
        >
          {confirming.kind === 'update' && <p>Changes: {changedText(confirming.body) || 'none'}.</p>}
          {confirming.kind === 'update' ? (
            <LanguagePreviews alert={confirming.alert} kind="update" channels={channels} label="What the update says, per language and channel" />
          ) : (
            // Each language's all-clear words, or Beacon's; never urgent: a critical alert's all-clear goes as high (deliveredText).
            <LanguagePreviews
              alert={a}
              kind="all_clear"
              allClear={confirming.allClear}
              channels={channels}
              label="What the all-clear says, per language and channel"
            />
          )}
          {confirming.kind === 'update' && <NewAreaMap alert={opened} draft={draft} />}
          {confirming.kind === 'update' && confirming.body.groupIds && (
            <p className="small">
              {draft.groups.length
                ? intl.formatMessage(GROUP_WORDS.afterUpdate, {
                    names: intl.formatList(
                      draft.groups.map((g) => g.name),
                      { type: 'conjunction' },
                    ),
                  })
                : intl.formatMessage(GROUP_WORDS.noneAfterUpdate)}
            </p>
          )}
          {counted && confirming.kind === 'update' && toldText(counted) && <p className="small">{toldText(counted)}</p>}
        </GuardedSendDialog>
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

/** The area the update leaves the alert with, on a map: every part of it as the form holds it; everywhere without one. */
function NewAreaMap({ alert: a, draft: d }: { alert: AdminAlert; draft: Draft }) {
  const label = `Area after the update of ${a.title}`;
  const area = d.area && !areaIsEmpty(d.area) ? areaOfParts(areaPartsOf(d.area)) : null;
  if (!area && d.groups.length) return <p className="small muted">{currentIntl().formatMessage(GROUP_WORDS.noArea)}</p>;
  if (!area) return <p className="small muted">Area: everywhere.</p>;
  return <LazyAreaMap center={null} radiusKm={0} parts={areaParts(area)} label={label} height={220} />;
}

import type { IntlShape } from 'react-intl';
import { SEVERITIES, type AlertChange, type AlertStatus, type Severity } from '@beacon/contracts';
import { serverNow } from '@/common/server-clock';
import { formatDateTime, relativeAge } from '@/common/time';
import { severityName } from '@/features/alerts/labels';
import { currentIntl, defineMessages } from '@/i18n';

/**
 * The warning layer's words and those of the alert card's change and end lines, in the reader's language (issue #41).
 * They are the app's own words around an alert, never its text: the alert's title, message and all-clear are the
 * admin's, shown as they come, in the language they are in. What is spoken aloud is not here: it is in the alert's
 * own language, from the contracts' words (speech.ts).
 */
export const WARNING_WORDS = defineMessages({
  regionLabel: { id: 'warnings.region.label', defaultMessage: 'Warnings' },
  newAlert: { id: 'warnings.banner.newAlert', defaultMessage: 'New alert' },
  updatedAlert: { id: 'warnings.banner.updatedAlert', defaultMessage: 'Alert updated' },
  allClear: { id: 'warnings.ended.allClear', defaultMessage: 'All clear' },
  ended: { id: 'warnings.ended.ended', defaultMessage: 'Ended' },
  cancelled: { id: 'warnings.banner.cancelled', defaultMessage: 'Alert cancelled' },
  criticalAlert: { id: 'warnings.takeover.criticalAlert', defaultMessage: 'Critical alert' },
  heldNote: { id: 'warnings.banner.heldNote', defaultMessage: 'Arrived quietly: your quiet hours or digest hold its messages.' },
  view: { id: 'warnings.banner.view', defaultMessage: 'View alert' },
  viewLabel: { id: 'warnings.banner.viewLabel', defaultMessage: 'View alert: {title}' },
  dismissLabel: { id: 'warnings.banner.dismissLabel', defaultMessage: 'Dismiss: {title}' },
  moreWarnings: { id: 'warnings.banner.more', defaultMessage: '{n} more: All alerts' },
  acknowledge: { id: 'warnings.takeover.acknowledge', defaultMessage: 'I understand' },
  call911: { id: 'warnings.takeover.call911', defaultMessage: 'Call 911' },
  takeoverAdvice: { id: 'warnings.takeover.advice', defaultMessage: 'Follow these instructions now. If you are in immediate danger, call 911.' },
  speaking: { id: 'warnings.speaking.reading', defaultMessage: 'Reading an alert aloud' },
  speakingTitle: { id: 'warnings.speaking.readingTitle', defaultMessage: 'Reading an alert aloud: {title}' },
  stop: { id: 'warnings.speaking.stop', defaultMessage: 'Stop' },
  stopLabel: { id: 'warnings.speaking.stopLabel', defaultMessage: 'Stop reading the alert aloud' },
  endedAt: { id: 'warnings.ended.endedAt', defaultMessage: 'Ended {at}' },
  clearedAt: { id: 'warnings.ended.clearedAt', defaultMessage: 'All clear given {at}' },
  /** What an ended alert says when the all-clear brought no words of its own. */
  expiredWords: { id: 'warnings.ended.expiredWords', defaultMessage: 'This alert has ended. Nothing more needs to be done.' },
  cancelledWords: { id: 'warnings.ended.cancelledWords', defaultMessage: 'This alert was cancelled: there is nothing to do.' },
  whatItSaid: { id: 'warnings.ended.whatItSaid', defaultMessage: 'What the alert said' },
});

/** Label of one changed field in "Updated 2m ago: ...". Severity is said with its direction (severityPhrase). */
const FIELD_PHRASES = defineMessages({
  title: { id: 'warnings.change.title', defaultMessage: 'new title' },
  message: { id: 'warnings.change.message', defaultMessage: 'new instructions' },
  translations: { id: 'warnings.change.translations', defaultMessage: 'new translations' },
  expiresAt: { id: 'warnings.change.expiresAt', defaultMessage: 'new end time' },
  area: { id: 'warnings.change.area', defaultMessage: 'area changed' },
});

const SEVERITY_PHRASES = defineMessages({
  now: { id: 'warnings.change.severityNow', defaultMessage: 'severity now {severity}' },
  raised: { id: 'warnings.change.severityRaised', defaultMessage: 'severity raised to {severity}' },
  lowered: { id: 'warnings.change.severityLowered', defaultMessage: 'severity lowered to {severity}' },
});

const UPDATED = defineMessages({
  ago: { id: 'warnings.change.updatedAgo', defaultMessage: 'Updated {age}' },
  justNow: { id: 'warnings.change.updatedJustNow', defaultMessage: 'Updated just now' },
  line: { id: 'warnings.change.line', defaultMessage: '{updated}: {what}' },
});

/** "severity raised to Critical", "severity lowered to Medium", or "severity now High" when the earlier one is unknown. */
export function severityPhrase(to: Severity, from: Severity | null, intl: IntlShape = currentIntl()): string {
  const severity = severityName(to, intl);
  if (!from || from === to) return intl.formatMessage(SEVERITY_PHRASES.now, { severity });
  return intl.formatMessage(SEVERITIES.indexOf(to) > SEVERITIES.indexOf(from) ? SEVERITY_PHRASES.raised : SEVERITY_PHRASES.lowered, { severity });
}

/**
 * What an update changed, severity first (the reason to look again), as the reader's language lists things:
 * "severity raised to Critical and new instructions".
 */
export function changedWords(change: Pick<AlertChange, 'fields' | 'severityFrom'>, severity: Severity, intl: IntlShape = currentIntl()): string {
  const parts: string[] = [];
  if (change.fields.includes('severity')) parts.push(severityPhrase(severity, change.severityFrom, intl));
  for (const f of change.fields) if (f !== 'severity' && FIELD_PHRASES[f]) parts.push(intl.formatMessage(FIELD_PHRASES[f]));
  return intl.formatList(parts, { type: 'conjunction' });
}

/** "Updated 2m ago", "Updated just now": the spec's relative age, measured on the server's clock. */
export function updatedAgo(at: string, now: Date = serverNow(), intl: IntlShape = currentIntl()): string {
  const then = new Date(at).getTime();
  if (now.getTime() - then < 60_000 && !Number.isNaN(then)) return intl.formatMessage(UPDATED.justNow);
  return intl.formatMessage(UPDATED.ago, { age: relativeAge(at, now, intl) });
}

/**
 * The card's and the banner's line for an alert's latest change: "Updated 2m ago: severity raised to Critical", or
 * null when its latest version is the first or the change is the all-clear (the calm state says that itself).
 */
export function changeLine(alert: { lastChange?: AlertChange | null; severity: Severity }, now?: Date, intl: IntlShape = currentIntl()): string | null {
  const change = alert.lastChange;
  if (!change || change.kind !== 'update') return null;
  const what = changedWords(change, alert.severity, intl);
  const updated = updatedAgo(change.at, now, intl);
  return what ? intl.formatMessage(UPDATED.line, { updated, what }) : updated;
}

/** An alert that is over: the all-clear was given, it expired, or it was cancelled. */
export const isEnded = (a: { status: AlertStatus; expiresAt?: string | null }, now: Date = serverNow()): boolean =>
  a.status === 'all_clear' || a.status === 'expired' || a.status === 'cancelled' || (!!a.expiresAt && new Date(a.expiresAt).getTime() <= now.getTime());

/** The calm label of an ended alert: "All clear" after the all-clear, "Ended" otherwise. */
export const endedLabel = (a: { status: AlertStatus }, intl: IntlShape = currentIntl()): string =>
  intl.formatMessage(a.status === 'all_clear' ? WARNING_WORDS.allClear : WARNING_WORDS.ended);

/** "All clear given Mar 5, 2025 3:07 PM" or "Ended ...", in the reader's language and date format. */
export const endedWhen = (a: { status: AlertStatus }, at: string, intl: IntlShape = currentIntl()): string =>
  intl.formatMessage(a.status === 'all_clear' ? WARNING_WORDS.clearedAt : WARNING_WORDS.endedAt, { at: formatDateTime(at, intl) });

/** When the alert ended, as best known: the all-clear's time, the latest change's, or its expiry. */
export function endedAt(a: {
  allClear?: { at: string } | null;
  lastChange?: AlertChange | null;
  expiresAt?: string | null;
  status: AlertStatus;
}): string | null {
  if (a.allClear?.at) return a.allClear.at;
  if (a.status === 'expired' && a.expiresAt) return a.expiresAt;
  return a.lastChange?.at ?? a.expiresAt ?? null;
}

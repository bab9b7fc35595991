import { SEVERITIES, SEVERITY_INFO, type AlertChange, type AlertStatus, type AlertUpdateField, type Severity } from '@beacon/contracts';
import { serverNow } from '@/common/server-clock';
import { formatDateTime, relativeAge } from '@/common/time';

/**
 * Every English string of the warning layer and of the alert card's change and end lines, in one place so that they
 * move into catalogues with the rest of the app (another issue brings i18n). What is spoken aloud is not here: it is in
 * the alert's own language, from the contracts' words (speech.ts).
 */
export const WARNING_WORDS = {
  regionLabel: 'Warnings',
  newAlert: 'New alert',
  updatedAlert: 'Alert updated',
  allClear: 'All clear',
  ended: 'Ended',
  cancelled: 'Alert cancelled',
  criticalAlert: 'Critical alert',
  heldNote: 'Arrived quietly: your quiet hours or digest hold its messages.',
  view: 'View alert',
  viewAll: 'All alerts',
  dismiss: 'Dismiss',
  acknowledge: 'I understand',
  call911: 'Call 911',
  takeoverAdvice: 'Follow these instructions now. If you are in immediate danger, call 911.',
  speaking: 'Reading an alert aloud',
  stop: 'Stop',
  stopLabel: 'Stop reading the alert aloud',
  unread: (n: number) => `${n} unread`,
  moreWarnings: (n: number) => `${n} more`,
  endedAt: (at: string) => `Ended ${formatDateTime(at)}`,
  clearedAt: (at: string) => `All clear given ${formatDateTime(at)}`,
  /** What an ended alert says when the all-clear brought no words of its own. */
  expiredWords: 'This alert has ended. Nothing more needs to be done.',
  cancelledWords: 'This alert was cancelled: there is nothing to do.',
  whatItSaid: 'What the alert said',
} as const;

/** Label of one changed field in "Updated 2m ago: ...". Severity is said with its direction (severityPhrase). */
const FIELD_PHRASES: Record<Exclude<AlertUpdateField, 'severity'>, string> = {
  title: 'new title',
  message: 'new instructions',
  translations: 'new translations',
  expiresAt: 'new end time',
  area: 'area changed',
};

/** "severity raised to Critical", "severity lowered to Medium", or "severity now High" when the earlier one is unknown. */
export function severityPhrase(to: Severity, from: Severity | null): string {
  const label = SEVERITY_INFO[to].label;
  if (!from || from === to) return `severity now ${label}`;
  return SEVERITIES.indexOf(to) > SEVERITIES.indexOf(from) ? `severity raised to ${label}` : `severity lowered to ${label}`;
}

/** "a, b and c". */
function inWords(parts: string[]): string {
  return parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

/** What an update changed, severity first (the reason to look again): "severity raised to Critical and new instructions". */
export function changedWords(change: Pick<AlertChange, 'fields' | 'severityFrom'>, severity: Severity): string {
  const parts: string[] = [];
  if (change.fields.includes('severity')) parts.push(severityPhrase(severity, change.severityFrom));
  for (const f of change.fields) if (f !== 'severity') parts.push(FIELD_PHRASES[f]);
  return inWords(parts);
}

/** "Updated 2m ago", "Updated just now": the spec's relative age, measured on the server's clock. */
export function updatedAgo(at: string, now?: Date): string {
  const age = relativeAge(at, now);
  return `Updated ${age === 'Just now' ? 'just now' : age}`;
}

/**
 * The card's and the banner's line for an alert's latest change: "Updated 2m ago: severity raised to Critical", or
 * null when its latest version is the first or the change is the all-clear (the calm state says that itself).
 */
export function changeLine(alert: { lastChange?: AlertChange | null; severity: Severity }, now?: Date): string | null {
  const change = alert.lastChange;
  if (!change || change.kind !== 'update') return null;
  const what = changedWords(change, alert.severity);
  return what ? `${updatedAgo(change.at, now)}: ${what}` : updatedAgo(change.at, now);
}

/** An alert that is over: the all-clear was given, it expired, or it was cancelled. */
export const isEnded = (a: { status: AlertStatus; expiresAt?: string | null }, now: Date = serverNow()): boolean =>
  a.status === 'all_clear' || a.status === 'expired' || a.status === 'cancelled' || (!!a.expiresAt && new Date(a.expiresAt).getTime() <= now.getTime());

/** The calm label of an ended alert: "All clear" after the all-clear, "Ended" otherwise. */
export const endedLabel = (a: { status: AlertStatus }): string => (a.status === 'all_clear' ? WARNING_WORDS.allClear : WARNING_WORDS.ended);

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

import { messageWords, severityRank, type MessageWords } from '@beacon/contracts';
import type { ChannelMessage, SendableAlert } from './send-targets.repository';
import type { ClaimedHeldDelivery } from '../deliveries/deliveries.repository';
import { asDelivered } from './delivery-text';
import { alertTextFor } from './alert-text';

/** Where a digest's reader lands: the user's own alert list. */
export const DIGEST_URL = '/dashboard/alerts';

/** Lines a push notification's body lists before "and N more" (push payloads are limited to about 4 KB). */
const PUSH_LINES = 5;

/** Most severe first; among equals, the newest first. */
export function byUrgency(a: SendableAlert, b: SendableAlert): number {
  const time = (x: SendableAlert) => new Date(x.sent_at ?? x.created_at).getTime();
  return severityRank(b.severity) - severityRank(a.severity) || time(b) - time(a) || a.id.localeCompare(b.id);
}

/**
 * Held deliveries taken by claimHeldBatch, as one message per user, each alert in the user's language (read with the
 * claim, like the rest of the user's settings): the user's own row of the batch leads (it
 * is the message's id); when that row did not go (its alert was cancelled meanwhile), the lead recorded on
 * the merged rows stays the id, so a retry sends the same message under the same key.
 */
export function toMessages(claimed: ClaimedHeldDelivery[], alerts: ReadonlyMap<string, SendableAlert>): ChannelMessage[] {
  const byUser = new Map<string, ClaimedHeldDelivery[]>();
  for (const d of claimed) {
    const rows = byUser.get(d.user_id);
    if (rows) rows.push(d);
    else byUser.set(d.user_id, [d]);
  }
  const messages: ChannelMessage[] = [];
  for (const [userId, rows] of byUser) {
    const own = rows.find((r) => r.lead === null);
    // Each listed alert in the user's language, or English where it has none (alertTextFor), as its delivery carries it.
    const list = rows.flatMap((r) => {
      const alert = alerts.get(r.alert_id);
      return alert ? [asDelivered(alertTextFor(alert, rows[0].language), r.kind)] : [];
    });
    if (!list.length) continue;
    messages.push({
      id: own?.id ?? rows[0].lead!,
      userId,
      alerts: [...new Map(list.map((a) => [a.id, a])).values()].sort(byUrgency),
      deliveryIds: rows.map((r) => r.id),
      // Every row of a message records its outcome, so each knows the devices that took the message.
      recipient: rows[0],
      pushAccepted: [...new Set(rows.flatMap((r) => r.push_accepted))],
    });
  }
  return messages;
}

export const isDigest = (m: ChannelMessage) => m.alerts.length > 1;

/**
 * The language a digest's own words are in: the reader's, which is the language of any alert it lists in a language
 * other than English (each alert is in the reader's language where it has one, alertTextFor); else English.
 */
export const digestLanguage = (alerts: readonly SendableAlert[]) => alerts.find((a) => a.language && a.language !== 'en')?.language ?? 'en';

export const digestTitle = (alerts: readonly SendableAlert[]) => messageWords(digestLanguage(alerts)).digestTitle(alerts.length);

/** A notification's body: one line per alert, the most severe first. */
export function digestPushBody(alerts: readonly SendableAlert[]): string {
  const words = messageWords(digestLanguage(alerts));
  const lines = alerts.slice(0, PUSH_LINES).map((a) => `${words.severities[a.severity]}: ${a.title}`);
  if (alerts.length > PUSH_LINES) lines.push(words.more(alerts.length - PUSH_LINES));
  return lines.join('\n');
}

/** Characters an SMS digest may take (SMS gateways split long texts, and most refuse past 10 segments). */
export const SMS_DIGEST_MAX_CHARS = 1000;

/** Alert ids a push digest lists (its payload must stay under 4 KB once encrypted). */
export const PUSH_DIGEST_MAX_IDS = 20;

const heading = (a: SendableAlert, words: MessageWords) => `[${words.severities[a.severity]}] ${a.title}${a.location_name ? ` (${a.location_name})` : ''}`;

/**
 * An SMS digest: every alert in full when that fits SMS_DIGEST_MAX_CHARS; otherwise one line per alert and
 * where to read them, as many lines as fit.
 */
export function digestSmsText(alerts: readonly SendableAlert[], detailsUrl: string): string {
  const words = messageWords(digestLanguage(alerts));
  const full = alerts.map((a) => `${heading(a, words)}: ${a.message}`).join('\n\n');
  if (full.length <= SMS_DIGEST_MAX_CHARS) return full;
  const tail = `\n\n${words.details}: ${detailsUrl}`;
  const lines: string[] = [];
  let used = tail.length;
  for (const [i, a] of alerts.entries()) {
    const line = heading(a, words);
    const more = words.more(alerts.length - i);
    const rest = alerts.length - i - 1;
    // Keep room for "and N more" unless this is the last line.
    if (used + line.length + 1 + (rest ? more.length + 1 : 0) > SMS_DIGEST_MAX_CHARS) {
      lines.push(more);
      break;
    }
    lines.push(line);
    used += line.length + 1;
  }
  return lines.join('\n') + tail;
}

/**
 * One alert's lines in an email (what a single-alert email says, without the link), in the words of its text's
 * language, or of the digest's (`w`) that lists it.
 */
export function emailAlertText(a: SendableAlert, w: MessageWords = messageWords(a.language)): string {
  const where = a.location_name ? `\n${w.location}: ${a.location_name}` : '';
  return `${a.title}\n\n${a.message}\n\n${w.severity}: ${w.severities[a.severity]}\n${w.category}: ${w.categories[a.category]}${where}`;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** One alert as HTML: every value escaped (titles and messages are admin text, locations user text). */
export function emailAlertHtml(a: SendableAlert, heading: 'h2' | 'h3' = 'h2', w: MessageWords = messageWords(a.language)): string {
  return `<${heading}>${escapeHtml(a.title)}</${heading}><p>${escapeHtml(a.message)}</p>
<p><strong>${escapeHtml(w.severity)}:</strong> ${escapeHtml(w.severities[a.severity])}<br><strong>${escapeHtml(w.category)}:</strong> ${escapeHtml(w.categories[a.category])}${
    a.location_name ? `<br><strong>${escapeHtml(w.location)}:</strong> ${escapeHtml(a.location_name)}` : ''
  }</p>`;
}

export const emailLink = (href: string, text: string) => `<p><a href="${escapeHtml(href)}">${escapeHtml(text)}</a></p>`;

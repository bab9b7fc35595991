import { create } from 'xmlbuilder2';
import { AlertArea, alertLanguages, allClearMessageIn, areaParts, CAP_LANGUAGE_TAGS, lifecycleWords, SERVICES, textInLanguage } from '@beacon/contracts';
import { CAP_SEVERITY, capCategory, capUrgency } from './cap-vocabulary';
import { toContractArea } from '../alerts/alert-area';
import type { PublicAlertRow } from './cap.repository';

export const CAP_NS = 'urn:oasis:names:tc:emergency:cap:1.2';
export const ATOM_NS = 'http://www.w3.org/2005/Atom';
export const CAP_CONTENT_TYPE = 'application/cap+xml; charset=utf-8';
export const ATOM_CONTENT_TYPE = 'application/atom+xml; charset=utf-8';

/** Where the public reaches Beacon (PUBLIC_URL, the edge): the links and the sender are built from it. */
export class CapSite {
  readonly base: string;
  /** CAP wants an address-like sender unique to the originator; a port would make it no address at all. */
  readonly sender: string;

  constructor(publicUrl: string) {
    this.base = publicUrl.replace(/\/+$/, '');
    this.sender = `beacon@${new URL(this.base).hostname}`;
  }

  get feedUrl() {
    return `${this.base}${SERVICES.alerts.prefix}/cap/alerts.atom`;
  }

  capUrl(id: string) {
    return `${this.base}${SERVICES.alerts.prefix}/cap/alerts/${id}.xml`;
  }

  /** The same page the alert e-mails link to. */
  webUrl(id: string) {
    return `${this.base}/alerts/${id}`;
  }
}

/** Characters XML 1.0 cannot carry at all, not even as a character reference. */
const XML_FORBIDDEN = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/**
 * Text as xmlbuilder2 must be given it. The builder escapes `<`, `>` and quotes, but leaves an `&` that looks like
 * an entity (`&nbsp;`, `&amp;`, `&#1;`) as it is: one such title made the whole feed malformed, and `&amp;` reached
 * readers as `&`. Every `&` is escaped here (the builder then leaves these `&amp;` alone, as it leaves the decimal
 * references below), and what XML forbids is dropped. Every text and attribute value goes through it, typed by an
 * admin or not. A parser turns a literal carriage return into a line feed, so it goes as a reference to arrive.
 */
export const xmlText = (value: string) => value.replace(XML_FORBIDDEN, '').replace(/&/g, '&amp;').replace(/\r/g, '&#13;');

/** Attribute values: a parser also turns a literal tab or line feed in them into a space. */
const xmlAttr = (value: string) => xmlText(value).replace(/\t/g, '&#9;').replace(/\n/g, '&#10;');

type Element = ReturnType<ReturnType<typeof create>['ele']>;

/** A child element holding text. */
const put = (parent: Element, name: string, value: string) => parent.ele(name).txt(xmlText(value));

const attrs = (values: Record<string, string>) => Object.fromEntries(Object.entries(values).map(([k, v]) => [k, xmlAttr(v)]));

/** CAP 1.2 dateTime: seconds precision and a numeric offset; the schema refuses fractions and 'Z'. */
export const capTime = (d: Date) => new Date(d).toISOString().replace(/\.\d+Z$/, '+00:00');

const cancelled = (a: PublicAlertRow) => a.status === 'cancelled' && a.ended_at !== null;
const allClear = (a: PublicAlertRow) => a.status === 'all_clear' && a.all_clear_at != null;

/** One message an alert published: its CAP identifier and when it was sent. */
interface CapMessageRef {
  identifier: string;
  sent: Date;
}

/**
 * The messages an alert has published, oldest first: the original (the alert id), one per later version (an update,
 * the all-clear: `<id>-v<n>`), and its cancellation (`<id>-cancel`). Each is a message of its own with an identifier
 * of its own, and the last is the one served at the alert's CAP URL.
 */
export function publishedMessages(a: PublicAlertRow): CapMessageRef[] {
  const messages: CapMessageRef[] = [{ identifier: a.id, sent: new Date(a.sent_at!) }];
  for (const [version, at] of a.revisions ?? []) messages.push({ identifier: `${a.id}-v${version}`, sent: new Date(at) });
  if (cancelled(a)) messages.push({ identifier: `${a.id}-cancel`, sent: new Date(a.ended_at!) });
  return messages;
}

/** When the message now served at the alert's CAP URL was sent: each later message replaces the one before there. */
export const messageTime = (a: PublicAlertRow): Date => publishedMessages(a).at(-1)!.sent;

/**
 * One CAP 1.2 <alert> for an alert, its latest message: msgType Alert as sent; Update once it was updated, with
 * responseType AllClear and urgency Past for the all-clear; Cancel once it was cancelled. A later message references
 * every earlier one (CAP's sender,identifier,sent triples), so a consumer that missed one still links them.
 */
export function capMessage(a: PublicAlertRow, site: CapSite): string {
  const messages = publishedMessages(a);
  const latest = messages.at(-1)!;
  const doc = create({ version: '1.0', encoding: 'UTF-8' });
  const alert = doc.ele(CAP_NS, 'alert');
  put(alert, 'identifier', latest.identifier);
  put(alert, 'sender', site.sender);
  put(alert, 'sent', capTime(latest.sent));
  // a test alert (never in the public feed; admins read its CAP) says so: CAP 1.2 status Test (issue #38)
  put(alert, 'status', a.source === 'test' ? 'Test' : 'Actual');
  put(alert, 'msgType', cancelled(a) ? 'Cancel' : messages.length > 1 ? 'Update' : 'Alert');
  put(alert, 'scope', 'Public');
  if (messages.length > 1)
    put(
      alert,
      'references',
      messages
        .slice(0, -1)
        .map((m) => `${site.sender},${m.identifier},${capTime(m.sent)}`)
        .join(' '),
    );

  // One <info> per language the alert has text in, English first (CAP 1.2 §3.2.2); the schema's element order.
  const shape = toContractArea(a);
  for (const language of alertLanguages(a)) {
    const text = textInLanguage(a, language);
    const info = alert.ele('info');
    put(info, 'language', CAP_LANGUAGE_TAGS[language]);
    put(info, 'category', capCategory(a.category, a.type));
    put(info, 'event', a.type);
    if (allClear(a)) put(info, 'responseType', 'AllClear');
    put(info, 'urgency', allClear(a) ? 'Past' : capUrgency(a.severity));
    put(info, 'severity', CAP_SEVERITY[a.severity]);
    put(info, 'certainty', 'Observed');
    if (a.expires_at) put(info, 'expires', capTime(a.expires_at));
    put(info, 'senderName', 'Beacon');
    put(info, 'headline', allClear(a) ? `${lifecycleWords(language).allClear}${text.title}` : text.title);
    put(
      info,
      'description',
      allClear(a)
        ? (allClearMessageIn({ message: a.all_clear_message, translations: a.all_clear_translations }, language) ?? lifecycleWords(language).allClearDefault)
        : text.message,
    );
    put(info, 'web', site.webUrl(a.id));
    writeAreas(info, shape, a.location_name);
  }
  return doc.end({ prettyPrint: true });
}

const AREA_DESC_DEFAULT = 'Area of the alert';

/**
 * The <info>'s <area> blocks: one per part of the alert's area, as warning authorities write several areas (issue
 * #42), each named by the part's description, else the alert's location name; one part is named by the location name
 * first (what the alert shows for it); an alert without an area has one <area> naming where it applies, as CAP
 * requires an <areaDesc> of every <area>. CAP 1.2 <area>: areaDesc, polygon*, circle*, geocode*, altitude, ceiling;
 * a polygon is "lat,lon" pairs, first = last; a circle "lat,lon radius" in km.
 */
function writeAreas(info: Element, shape: AlertArea | null, locationName: string | null) {
  if (!shape) return void put(info.ele('area'), 'areaDesc', locationName ?? AREA_DESC_DEFAULT);
  const parts = areaParts(shape);
  for (const part of parts) {
    const area = info.ele('area');
    const name = parts.length > 1 ? (part.description ?? locationName) : (locationName ?? part.description);
    put(area, 'areaDesc', name || AREA_DESC_DEFAULT);
    if (part.type === 'polygon') put(area, 'polygon', part.points.map(([lat, lng]) => `${lat},${lng}`).join(' '));
    else put(area, 'circle', `${part.lat},${part.lng} ${part.radiusKm}`);
  }
}

const ENDED_PREFIX: Record<string, string> = { cancelled: 'Cancelled: ', expired: 'Expired: ', all_clear: 'All clear: ' };

/** The Atom feed of the given alerts (already chosen and ordered), each entry linking to its CAP message. */
export function atomFeed(alerts: PublicAlertRow[], site: CapSite, now: Date = new Date()): string {
  const updated = alerts.length ? new Date(Math.max(...alerts.map((a) => messageTime(a).getTime()))) : now;
  const doc = create({ version: '1.0', encoding: 'UTF-8' });
  const feed = doc.ele(ATOM_NS, 'feed');
  put(feed, 'id', site.feedUrl);
  put(feed, 'title', 'Beacon public alerts');
  put(feed, 'updated', updated.toISOString());
  const author = feed.ele('author');
  put(author, 'name', 'Beacon');
  put(author, 'uri', site.base);
  feed.ele('link').att(attrs({ rel: 'self', type: 'application/atom+xml', href: site.feedUrl }));
  feed.ele('link').att(attrs({ rel: 'alternate', type: 'text/html', href: site.base }));
  for (const a of alerts) {
    const entry = feed.ele('entry');
    // Stable per alert, so a reader sees an update, the all-clear or the cancel as an update of the same entry.
    put(entry, 'id', `urn:uuid:${a.id}`);
    put(entry, 'title', `${ENDED_PREFIX[a.status] ?? ''}${a.title}`);
    put(entry, 'updated', messageTime(a).toISOString());
    put(entry, 'published', new Date(a.sent_at!).toISOString());
    put(entry, 'summary', allClear(a) ? (a.all_clear_message ?? lifecycleWords('en').allClearDefault) : a.message);
    entry.ele('category').att(attrs({ term: capCategory(a.category, a.type) }));
    entry.ele('link').att(attrs({ rel: 'alternate', type: 'application/cap+xml', href: site.capUrl(a.id) }));
    entry.ele('link').att(attrs({ rel: 'related', type: 'text/html', href: site.webUrl(a.id) }));
  }
  return doc.end({ prettyPrint: true });
}

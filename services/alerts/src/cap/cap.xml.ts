import { create } from 'xmlbuilder2';
import { CAP_SEVERITY, capCategory, capUrgency, SERVICES } from '@beacon/contracts';
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

/** CAP 1.2 dateTime: seconds precision and a numeric offset; the schema refuses fractions and 'Z'. */
export const capTime = (d: Date) => new Date(d).toISOString().replace(/\.\d+Z$/, '+00:00');

const cancelled = (a: PublicAlertRow) => a.status === 'cancelled' && a.ended_at !== null;

/** The original alert keeps the alert id; its cancellation is a message of its own and needs an identifier of its own. */
const identifierOf = (a: PublicAlertRow) => (cancelled(a) ? `${a.id}-cancel` : a.id);

/** When the message now served at the alert's CAP URL was sent: the cancel replaces the original there. */
export const messageTime = (a: PublicAlertRow): Date => new Date(cancelled(a) ? a.ended_at! : a.sent_at!);

/** One CAP 1.2 <alert> for an alert: msgType Alert, or Cancel (referencing the original) once it was cancelled. */
export function capMessage(a: PublicAlertRow, site: CapSite): string {
  const doc = create({ version: '1.0', encoding: 'UTF-8' });
  const alert = doc.ele(CAP_NS, 'alert');
  alert.ele('identifier').txt(identifierOf(a));
  alert.ele('sender').txt(site.sender);
  alert.ele('sent').txt(capTime(messageTime(a)));
  alert.ele('status').txt('Actual');
  alert.ele('msgType').txt(cancelled(a) ? 'Cancel' : 'Alert');
  alert.ele('scope').txt('Public');
  // CAP's reference triple: sender,identifier,sent of the message being cancelled.
  if (cancelled(a)) alert.ele('references').txt(`${site.sender},${a.id},${capTime(a.sent_at!)}`);

  // Element order follows the CAP 1.2 schema's sequence.
  const info = alert.ele('info');
  info.ele('language').txt('en-US');
  info.ele('category').txt(capCategory(a.category, a.type));
  info.ele('event').txt(a.type);
  info.ele('urgency').txt(capUrgency(a.severity));
  info.ele('severity').txt(CAP_SEVERITY[a.severity]);
  info.ele('certainty').txt('Observed');
  if (a.expires_at) info.ele('expires').txt(capTime(a.expires_at));
  info.ele('senderName').txt('Beacon');
  info.ele('headline').txt(a.title);
  info.ele('description').txt(a.message);
  info.ele('web').txt(site.webUrl(a.id));
  const area = info.ele('area');
  area.ele('areaDesc').txt(a.location_name ?? 'Area of the alert');
  if (a.lat !== null && a.lng !== null && a.radius_km !== null) area.ele('circle').txt(`${a.lat},${a.lng} ${a.radius_km}`);
  return doc.end({ prettyPrint: true });
}

const ENDED_PREFIX: Record<string, string> = { cancelled: 'Cancelled: ', expired: 'Expired: ' };

/** The Atom feed of the given alerts (already chosen and ordered), each entry linking to its CAP message. */
export function atomFeed(alerts: PublicAlertRow[], site: CapSite, now: Date = new Date()): string {
  const updated = alerts.length ? new Date(Math.max(...alerts.map((a) => messageTime(a).getTime()))) : now;
  const doc = create({ version: '1.0', encoding: 'UTF-8' });
  const feed = doc.ele(ATOM_NS, 'feed');
  feed.ele('id').txt(site.feedUrl);
  feed.ele('title').txt('Beacon public alerts');
  feed.ele('updated').txt(updated.toISOString());
  feed.ele('author').ele('name').txt('Beacon').up().ele('uri').txt(site.base);
  feed.ele('link').att({ rel: 'self', type: 'application/atom+xml', href: site.feedUrl });
  feed.ele('link').att({ rel: 'alternate', type: 'text/html', href: site.base });
  for (const a of alerts) {
    const entry = feed.ele('entry');
    // Stable per alert, so a reader sees the cancel as an update of the same entry.
    entry.ele('id').txt(`urn:uuid:${a.id}`);
    entry.ele('title').txt(`${ENDED_PREFIX[a.status] ?? ''}${a.title}`);
    entry.ele('updated').txt(messageTime(a).toISOString());
    entry.ele('published').txt(new Date(a.sent_at!).toISOString());
    entry.ele('summary').txt(a.message);
    entry.ele('category').att({ term: capCategory(a.category, a.type) });
    entry.ele('link').att({ rel: 'alternate', type: 'application/cap+xml', href: site.capUrl(a.id) });
    entry.ele('link').att({ rel: 'related', type: 'text/html', href: site.webUrl(a.id) });
  }
  return doc.end({ prettyPrint: true });
}

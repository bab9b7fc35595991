import { CapRefusal, childrenNamed, childText, parseStrictXml, XmlElement, XmlLimits } from './strict-xml';

export const CAP_NAMESPACES = { '1.2': 'urn:oasis:names:tc:emergency:cap:1.2', '1.1': 'urn:oasis:names:tc:emergency:cap:1.1' } as const;
const ATOM = 'http://www.w3.org/2005/Atom';

export type CapVersion = keyof typeof CAP_NAMESPACES;
export type CapMsgType = 'Alert' | 'Update' | 'Cancel' | 'Ack' | 'Error';
const MSG_TYPES: CapMsgType[] = ['Alert', 'Update', 'Cancel', 'Ack', 'Error'];

export interface CapPoint {
  lat: number;
  lng: number;
}
export interface CapCircle extends CapPoint {
  radiusKm: number;
}
export interface CapArea {
  areaDesc: string;
  /** Each polygon's points, closed (the first point repeated last), as CAP writes them. */
  polygons: CapPoint[][];
  circles: CapCircle[];
  geocodes: { valueName: string; value: string }[];
}
export interface CapInfo {
  language: string;
  categories: string[];
  event: string;
  urgency: string;
  severity: string;
  certainty: string;
  headline: string | null;
  description: string | null;
  instruction: string | null;
  onset: string | null;
  expires: string | null;
  web: string | null;
  areas: CapArea[];
}
export interface CapReference {
  sender: string;
  identifier: string;
  sent: string;
}
/** A CAP 1.2 or 1.1 <alert>, every <info> and <area> kept. */
export interface CapMessage {
  version: CapVersion;
  identifier: string;
  sender: string;
  sent: string;
  status: string;
  msgType: CapMsgType;
  scope: string;
  references: CapReference[];
  infos: CapInfo[];
}

/** What a fetched document holds: CAP messages in it (a single message, or embedded in a feed's entries) and links to more. */
export interface FeedDocument {
  messages: { message: CapMessage; xml: string }[];
  links: string[];
  /** Entries of the document that could not be read, with why (the rest is still used). */
  refusals: string[];
}

const capVersionOf = (el: XmlElement): CapVersion | null =>
  el.name === 'alert' ? ((Object.keys(CAP_NAMESPACES) as CapVersion[]).find((v) => CAP_NAMESPACES[v] === el.ns) ?? null) : null;

/** Reads a document: a CAP alert, an Atom feed or an RSS 2.0 channel. Refuses (CapRefusal) what is none of them. */
export function readFeedDocument(text: string, limits?: XmlLimits): FeedDocument {
  const root = parseStrictXml(text, limits);
  if (root.name === 'alert') {
    if (!capVersionOf(root)) throw new CapRefusal(`the <alert> is in namespace '${root.ns}', not CAP 1.2 or 1.1`);
    return { messages: [{ message: toCapMessage(root), xml: text }], links: [], refusals: [] };
  }
  const doc: FeedDocument = { messages: [], links: [], refusals: [] };
  const entries =
    root.name === 'feed' && root.ns === ATOM
      ? childrenNamed(root, 'entry', ATOM)
      : root.name === 'rss'
        ? childrenNamed(root, 'channel').flatMap((c) => childrenNamed(c, 'item'))
        : null;
  if (!entries) throw new CapRefusal(`the document is neither a CAP alert nor an Atom or RSS feed (root <${root.name}>)`);
  for (const entry of entries) {
    try {
      const embedded = embeddedAlert(entry, limits);
      if (embedded) {
        doc.messages.push(embedded);
        continue;
      }
      const link = entryLink(entry);
      if (link) doc.links.push(link);
      else doc.refusals.push('a feed entry has neither a link nor an embedded CAP alert');
    } catch (e) {
      if (!(e instanceof CapRefusal)) throw e;
      doc.refusals.push(`a feed entry's CAP alert is refused: ${e.message}`);
    }
  }
  return doc;
}

/** The CAP alert inside an entry's <content> (as XML, or as escaped text); null when there is none. */
function embeddedAlert(entry: XmlElement, limits?: XmlLimits): { message: CapMessage; xml: string } | null {
  const content = childrenNamed(entry, 'content')[0];
  if (!content) return null;
  const inline = content.children.find((c) => c.name === 'alert');
  if (inline) {
    if (!capVersionOf(inline)) throw new CapRefusal(`the <alert> is in namespace '${inline.ns}', not CAP 1.2 or 1.1`);
    return { message: toCapMessage(inline), xml: serialize(inline) };
  }
  const escaped = content.text.trim();
  if (!escaped.startsWith('<')) return null;
  const doc = readFeedDocument(escaped, limits);
  return doc.messages[0] ?? null;
}

function entryLink(entry: XmlElement): string | null {
  const atomLinks = childrenNamed(entry, 'link').filter((l) => l.attrs.href);
  const cap = atomLinks.find((l) => /cap/i.test(l.attrs.type ?? '')) ?? atomLinks.find((l) => !l.attrs.rel || l.attrs.rel === 'alternate');
  if (cap) return cap.attrs.href;
  const enclosure = childrenNamed(entry, 'enclosure').find((e) => e.attrs.url);
  if (enclosure) return enclosure.attrs.url;
  const rss = childText(entry, 'link');
  return rss || null;
}

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** An embedded alert written back out as a standalone document (kept as the original message). */
function serialize(el: XmlElement, parentNs = ''): string {
  const ns = el.ns !== parentNs ? ` xmlns="${escapeXml(el.ns)}"` : '';
  const attrs = Object.entries(el.attrs)
    .map(([k, v]) => ` ${k}="${escapeXml(v)}"`)
    .join('');
  const inner = el.children.length ? el.children.map((c) => serialize(c, el.ns)).join('') : escapeXml(el.text);
  return `<${el.name}${ns}${attrs}>${inner}</${el.name}>`;
}

function required(el: XmlElement, name: string): string {
  const v = childText(el, name, el.ns);
  if (!v) throw new CapRefusal(`the CAP alert has no <${name}>`);
  return v;
}

function toCapMessage(alert: XmlElement): CapMessage {
  const version = capVersionOf(alert)!;
  const ns = alert.ns;
  const msgType = required(alert, 'msgType');
  if (!MSG_TYPES.includes(msgType as CapMsgType)) throw new CapRefusal(`unknown msgType '${msgType}'`);
  const sent = required(alert, 'sent');
  if (Number.isNaN(Date.parse(sent))) throw new CapRefusal(`<sent> '${sent}' is not a date`);
  const references = (childText(alert, 'references', ns) ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .map((triple) => {
      const [sender, identifier, refSent] = triple.split(',');
      if (!sender || !identifier || !refSent) throw new CapRefusal(`<references> entry '${triple}' is not sender,identifier,sent`);
      return { sender, identifier, sent: refSent };
    });
  const infos = childrenNamed(alert, 'info', ns).map((info) => toInfo(info, ns));
  if ((msgType === 'Alert' || msgType === 'Update') && !infos.length) throw new CapRefusal(`the ${msgType} has no <info>`);
  return {
    version,
    identifier: required(alert, 'identifier'),
    sender: required(alert, 'sender'),
    sent,
    status: required(alert, 'status'),
    msgType: msgType as CapMsgType,
    scope: required(alert, 'scope'),
    references,
    infos,
  };
}

function toInfo(info: XmlElement, ns: string): CapInfo {
  const text = (name: string) => childText(info, name, ns) || null;
  const need = (name: string) => {
    const v = text(name);
    if (!v) throw new CapRefusal(`an <info> has no <${name}>`);
    return v;
  };
  const expires = text('expires');
  if (expires && Number.isNaN(Date.parse(expires))) throw new CapRefusal(`<expires> '${expires}' is not a date`);
  return {
    language: text('language') ?? 'en-US',
    categories: childrenNamed(info, 'category', ns).map((c) => c.text.trim()),
    event: need('event'),
    urgency: need('urgency'),
    severity: need('severity'),
    certainty: need('certainty'),
    headline: text('headline'),
    description: text('description'),
    instruction: text('instruction'),
    onset: text('onset'),
    expires,
    web: text('web'),
    areas: childrenNamed(info, 'area', ns).map((a) => toArea(a, ns)),
  };
}

/**
 * An empty <polygon/> or <circle/> (feeds whose alerts name only zones write `<polygon></polygon>`) is no shape at all:
 * skipped, not refused, so the message's other areas and geocodes are still taken.
 */
const withText = (els: XmlElement[]) => els.filter((el) => el.text.trim() !== '');

function toArea(area: XmlElement, ns: string): CapArea {
  return {
    areaDesc: childText(area, 'areaDesc', ns) ?? '',
    polygons: withText(childrenNamed(area, 'polygon', ns)).map((p) => parsePolygon(p.text)),
    circles: withText(childrenNamed(area, 'circle', ns)).map((c) => parseCircle(c.text)),
    geocodes: childrenNamed(area, 'geocode', ns).map((g) => ({ valueName: childText(g, 'valueName', ns) ?? '', value: childText(g, 'value', ns) ?? '' })),
  };
}

function parsePoint(pair: string): CapPoint {
  const [lat, lng] = pair.split(',').map(Number);
  if (!Number.isFinite(lat) || !Number.isFinite(lng) || Math.abs(lat) > 90 || Math.abs(lng) > 180) throw new CapRefusal(`'${pair}' is not a WGS 84 point`);
  return { lat, lng };
}

/** CAP: four or more space-separated lat,lng pairs, the first and last the same. */
export function parsePolygon(text: string): CapPoint[] {
  const points = text.trim().split(/\s+/).map(parsePoint);
  const [first, last] = [points[0], points[points.length - 1]];
  if (points.length < 4 || first.lat !== last.lat || first.lng !== last.lng)
    throw new CapRefusal('a <polygon> needs at least four points, the first and last the same');
  return points;
}

/** CAP: "lat,lng radius" with the radius in kilometres. */
export function parseCircle(text: string): CapCircle {
  const [pair, radius] = text.trim().split(/\s+/);
  const r = Number(radius);
  if (!pair || !Number.isFinite(r) || r < 0) throw new CapRefusal(`<circle> '${text.trim()}' is not "lat,lng radius"`);
  return { ...parsePoint(pair), radiusKm: r };
}

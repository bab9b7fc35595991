import { atomFeed, capMessage, CapSite } from './cap.xml';
import type { PublicAlertRow } from './cap.repository';
import { strictParse } from '../testing/strict-xml';
import { publicAlertRow } from '../testing/public-alert-row';
import { SaxesParser } from 'saxes';

/**
 * Every text an admin types reaches the feed's readers exactly, and no text can make the feed malformed: checked
 * with a strict parser (testing/strict-xml).
 */

const HOSTILE = [
  'Road closed &nbsp; test',
  'Fish &amp; chips',
  'Control &#1; reference',
  'CDATA end ]]> here',
  '<b>bold</b> & "quotes" \'apos\'',
  'Raw controls \u0000\u0001\u0008\u000b\u000c\u001f and \ufffe\uffff and a lone \ud800 surrogate',
  'Tab\tnewline\ncarriage\r kept, CRLF\r\n kept, emoji 🚨 kept',
];

/**
 * What a reader must see: the text as typed, less only the characters XML 1.0 cannot carry. A carriage return is
 * no such character, so it must survive the parser's line-end normalisation too.
 */
const readable = (s: string) => s.replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '');

const row = (text: string, over: Partial<PublicAlertRow> = {}): PublicAlertRow =>
  publicAlertRow({ title: `Title ${text}`, message: `Message ${text}`, type: `Wrong-way Driver ${text}`, location_name: `Loop 101 ${text}`, ...over });

const site = new CapSite('https://alerts.example.org');

describe('CAP and Atom text escaping', () => {
  it.each(HOSTILE)('a CAP message with %j in every text field is well-formed and reads back as typed', (text) => {
    const texts = strictParse(capMessage(row(text), site));
    expect(texts.get('headline')).toEqual([readable(`Title ${text}`)]);
    expect(texts.get('description')).toEqual([readable(`Message ${text}`)]);
    expect(texts.get('event')).toEqual([readable(`Wrong-way Driver ${text}`)]);
    expect(texts.get('areaDesc')).toEqual([readable(`Loop 101 ${text}`)]);
  });

  it.each(HOSTILE)('the Atom feed with %j in every entry is well-formed and reads back as typed', (text) => {
    const cancelled = row(text, { id: '7f1c1f43-2b3d-4c7e-9a41-1d2f3e4a5b6c', status: 'cancelled', ended_at: new Date('2026-11-25T11:00:00Z') });
    const texts = strictParse(atomFeed([row(text), cancelled], site, new Date('2026-11-25T11:30:00Z')));
    expect(texts.get('title')).toEqual(['Beacon public alerts', readable(`Title ${text}`), readable(`Cancelled: Title ${text}`)]);
    expect(texts.get('summary')).toEqual([readable(`Message ${text}`), readable(`Message ${text}`)]);
  });

  // No attribute carries an admin's text today, but the links carry PUBLIC_URL: attributes go through the same escaping.
  it.each(HOSTILE)('attribute values with %j are well-formed and read back as given', (text) => {
    const path = `/beacon ${text}`;
    const hostile = new CapSite(`https://alerts.example.org${path}`);
    const base = `https://alerts.example.org${path}`;
    const attributes: Record<string, string>[] = [];
    const feed = strictParse(atomFeed([row('x')], hostile, new Date('2026-11-25T11:30:00Z')), attributes);
    const hrefs = attributes.map((a) => a.href).filter(Boolean);
    expect(hrefs).toEqual([
      `${readable(base)}/api/alerts/cap/alerts.atom`,
      readable(base),
      expect.stringContaining('/cap/alerts/'),
      expect.stringContaining('/alerts/'),
    ]);
    expect(hrefs.every((h) => h.startsWith(readable(base)))).toBe(true);
    // the same URLs as element text
    expect(feed.get('id')?.[0]).toBe(`${readable(base)}/api/alerts/cap/alerts.atom`);
    expect(feed.get('uri')).toEqual([readable(base)]);
    expect(strictParse(capMessage(row('x'), hostile)).get('web')).toEqual([`${readable(base)}/alerts/${row('x').id}`]);
  });

  it('the CAP message of a cancelled alert is well-formed too', () => {
    const texts = strictParse(capMessage(row(HOSTILE.join(' | '), { status: 'cancelled', ended_at: new Date('2026-11-25T11:00:00Z') }), site));
    expect(texts.get('msgType')).toEqual(['Cancel']);
    expect(texts.get('headline')).toEqual([readable(`Title ${HOSTILE.join(' | ')}`)]);
  });
});

/** The CAP 1.2 schema's sequence of an <info>'s elements (those Beacon writes among them). */
const CAP_INFO_ORDER = [
  'language',
  'category',
  'event',
  'responseType',
  'urgency',
  'severity',
  'certainty',
  'audience',
  'eventCode',
  'effective',
  'onset',
  'expires',
  'senderName',
  'headline',
  'description',
  'instruction',
  'web',
  'contact',
  'parameter',
  'resource',
  'area',
];

/** Each <info>'s child element names, in document order, read by the strict parser. */
function infoChildren(xml: string): string[][] {
  const infos: string[][] = [];
  const stack: string[] = [];
  const parser = new SaxesParser({ xmlns: true });
  parser.on('error', (e) => {
    throw e;
  });
  parser.on('opentag', (tag) => {
    if (stack[stack.length - 1] === 'info') infos[infos.length - 1].push(tag.local);
    if (tag.local === 'info') infos.push([]);
    stack.push(tag.local);
  });
  parser.on('closetag', () => stack.pop());
  parser.write(xml).close();
  return infos;
}

describe('CAP languages', () => {
  const spanish = { title: `Título ${HOSTILE[4]}`, message: `Mensaje ${HOSTILE[0]} 🚨` };

  it('an alert with a Spanish translation has one <info> per language, English first, each in the schema order', () => {
    const xml = capMessage(row('x', { translations: { es: spanish } }), site);
    const texts = strictParse(xml);
    expect(texts.get('language')).toEqual(['en-US', 'es-US']);
    expect(texts.get('headline')).toEqual(['Title x', readable(spanish.title)]);
    expect(texts.get('description')).toEqual(['Message x', readable(spanish.message)]);
    // What does not depend on the language is the same in each.
    expect(texts.get('event')).toEqual(['Wrong-way Driver x', 'Wrong-way Driver x']);
    expect(texts.get('areaDesc')).toEqual(['Loop 101 x', 'Loop 101 x']);
    const infos = infoChildren(xml);
    expect(infos).toHaveLength(2);
    for (const names of infos) {
      const positions = names.map((n) => CAP_INFO_ORDER.indexOf(n));
      expect(positions.every((p) => p >= 0)).toBe(true);
      expect(positions).toEqual([...positions].sort((x, y) => x - y));
      expect(names[0]).toBe('language');
    }
  });

  it('an alert in English only has one <info>, en-US', () => {
    const texts = strictParse(capMessage(row('x'), site));
    expect(texts.get('language')).toEqual(['en-US']);
    expect(infoChildren(capMessage(row('x'), site))).toHaveLength(1);
  });

  it('a cancelled alert with a translation cancels in each language', () => {
    const texts = strictParse(capMessage(row('x', { translations: { es: spanish }, status: 'cancelled', ended_at: new Date('2026-11-25T11:00:00Z') }), site));
    expect(texts.get('msgType')).toEqual(['Cancel']);
    expect(texts.get('language')).toEqual(['en-US', 'es-US']);
  });
});

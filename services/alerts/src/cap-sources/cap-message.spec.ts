import { readFeedDocument } from './cap-message';
import { parseStrictXml } from './strict-xml';

const CAP12 = 'urn:oasis:names:tc:emergency:cap:1.2';
const alertXml = (id: string, ns = CAP12, extra = '') => `<alert xmlns="${ns}"><identifier>${id}</identifier><sender>s@example.gov</sender>
<sent>2026-11-25T10:00:00-07:00</sent><status>Actual</status><msgType>Alert</msgType><scope>Public</scope>${extra}
<info><language>en-US</language><category>Met</category><event>Heat</event><urgency>Expected</urgency><severity>Moderate</severity>
<certainty>Likely</certainty><area><areaDesc>Phoenix</areaDesc><circle>33.45,-112.07 10</circle>
<polygon>33.1,-112.1 33.2,-112.1 33.2,-112.0 33.1,-112.1</polygon></area></info></alert>`;

describe('readFeedDocument', () => {
  it('reads a CAP 1.2 message with its areas and references', () => {
    const doc = readFeedDocument(alertXml('a1', CAP12, '<references>x@y,prev-1,2026-11-25T09:00:00-07:00 x@y,prev-2,2026-11-25T09:30:00-07:00</references>'));
    const m = doc.messages[0].message;
    expect(m).toMatchObject({ version: '1.2', identifier: 'a1', msgType: 'Alert', status: 'Actual' });
    expect(m.references).toEqual([
      { sender: 'x@y', identifier: 'prev-1', sent: '2026-11-25T09:00:00-07:00' },
      { sender: 'x@y', identifier: 'prev-2', sent: '2026-11-25T09:30:00-07:00' },
    ]);
    expect(m.infos[0].areas[0].circles).toEqual([{ lat: 33.45, lng: -112.07, radiusKm: 10 }]);
    expect(m.infos[0].areas[0].polygons[0]).toHaveLength(4);
  });

  it('reads CAP 1.1 and refuses an <alert> in another namespace', () => {
    expect(readFeedDocument(alertXml('old', 'urn:oasis:names:tc:emergency:cap:1.1')).messages[0].message.version).toBe('1.1');
    expect(() => readFeedDocument(alertXml('x', 'urn:example:not-cap'))).toThrow(/not CAP 1.2 or 1.1/);
  });

  it('follows Atom links and RSS links, and takes CAP embedded in an Atom entry (as XML or escaped)', () => {
    const atom = `<feed xmlns="http://www.w3.org/2005/Atom">
      <entry><link rel="alternate" href="https://a.example/1.cap"/></entry>
      <entry><content type="application/cap+xml">${alertXml('inline')}</content></entry>
      <entry><content type="text">${alertXml('escaped').replace(/&/g, '&amp;').replace(/</g, '&lt;')}</content></entry>
      <entry><title>nothing</title></entry></feed>`;
    const doc = readFeedDocument(atom);
    expect(doc.links).toEqual(['https://a.example/1.cap']);
    expect(doc.messages.map((m) => m.message.identifier)).toEqual(['inline', 'escaped']);
    expect(readFeedDocument(doc.messages[0].xml).messages[0].message.identifier).toBe('inline');
    expect(doc.refusals).toEqual(['a feed entry has neither a link nor an embedded CAP alert']);
    const rss = `<rss version="2.0"><channel><title>t</title><item><link>https://b.example/2.xml</link></item></channel></rss>`;
    expect(readFeedDocument(rss).links).toEqual(['https://b.example/2.xml']);
  });

  it('refuses a bad entry but keeps the rest of the feed', () => {
    const atom = `<feed xmlns="http://www.w3.org/2005/Atom"><entry><content>${alertXml('ok')}</content></entry>
      <entry><content><alert xmlns="${CAP12}"><identifier>no-sender</identifier></alert></content></entry></feed>`;
    const doc = readFeedDocument(atom);
    expect(doc.messages.map((m) => m.message.identifier)).toEqual(['ok']);
    expect(doc.refusals).toEqual(["a feed entry's CAP alert is refused: the CAP alert has no <msgType>"]);
  });

  it('skips an empty <polygon/> or <circle></circle> (no shape), keeping the area and its other shapes', () => {
    const xml = alertXml('empty').replace('<circle>', '<polygon/><circle></circle><polygon>  </polygon><circle>');
    const [area] = readFeedDocument(xml).messages[0].message.infos[0].areas;
    expect(area.areaDesc).toBe('Phoenix');
    expect(area.circles).toEqual([{ lat: 33.45, lng: -112.07, radiusKm: 10 }]);
    expect(area.polygons).toHaveLength(1);
  });

  it('refuses a polygon that is not closed and a circle that is not "lat,lng radius"', () => {
    expect(() => readFeedDocument(alertXml('p').replace('33.1,-112.1</polygon>', '33.1,-112.0</polygon>'))).toThrow(/polygon/);
    expect(() => readFeedDocument(alertXml('c').replace('33.45,-112.07 10', '33.45,-112.07'))).toThrow(/circle/);
  });
});

describe('parseStrictXml', () => {
  const limits = { maxBytes: 10_000, maxElements: 50, maxDepth: 5 };
  it('refuses any DOCTYPE: internal entities, external entities and DTDs', () => {
    expect(() => parseStrictXml('<!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>', limits)).toThrow(/DOCTYPE/);
    expect(() => parseStrictXml('<!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]><a>&x;</a>', limits)).toThrow(/DOCTYPE/);
    expect(() => parseStrictXml('<!DOCTYPE a SYSTEM "http://169.254.169.254/a.dtd"><a/>', limits)).toThrow(/DOCTYPE/);
  });
  it('expands only the predefined entities: an undeclared one is not well-formed', () => {
    expect(parseStrictXml('<a>&amp;&lt;&#65;</a>', limits).text).toBe('&<A');
    expect(() => parseStrictXml('<a>&lol9;</a>', limits)).toThrow(/not well-formed/);
  });
  it('caps size, element count and depth', () => {
    expect(() => parseStrictXml(`<a>${'x'.repeat(10_001)}</a>`, limits)).toThrow(/more than the 10000 allowed/);
    expect(() => parseStrictXml(`<a>${'<b/>'.repeat(50)}</a>`, limits)).toThrow(/more than 50 elements/);
    expect(() => parseStrictXml('<a><b><c><d><e><f/></e></d></c></b></a>', limits)).toThrow(/deeper than 5/);
    expect(parseStrictXml('<a><b><c><d><e/></d></c></b></a>', limits).name).toBe('a');
  });
});

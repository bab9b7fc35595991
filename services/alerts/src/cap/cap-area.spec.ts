import { SaxesParser } from 'saxes';
import type { AlertAreaPart } from '@beacon/contracts';
import { toPgPolygon } from '../deliveries/polygon-column';
import { capMessage, CapSite } from './cap.xml';
import type { PublicAlertRow } from './cap.repository';
import { strictParse } from '../testing/strict-xml';
import { publicAlertRow } from '../testing/public-alert-row';

const site = new CapSite('https://alerts.example.org');

const row = (over: Partial<PublicAlertRow>): PublicAlertRow =>
  publicAlertRow({
    title: 'Chemical spill',
    message: 'Stay indoors and close windows.',
    type: 'Hazmat',
    severity: 'high',
    category: 'public_safety',
    location_name: 'Tempe industrial park',
    lat: 33.4,
    lng: -111.9,
    radius_km: null,
    expires_at: null,
    ...over,
  });

/** The names of each <area>'s children, in document order, one list per <area> (strict parser: saxes). */
function areasChildren(xml: string): string[][] {
  const areas: string[][] = [];
  const stack: string[] = [];
  const parser = new SaxesParser({ xmlns: true });
  parser.on('error', (e) => {
    throw e;
  });
  parser.on('opentag', (tag) => {
    if (tag.local === 'area') areas.push([]);
    if (stack[stack.length - 1] === 'area') areas[areas.length - 1].push(tag.local);
    stack.push(tag.local);
  });
  parser.on('closetag', () => stack.pop());
  parser.write(xml).close();
  return areas;
}

/** The children of the one <area> of a message in one language. */
function areaChildren(xml: string): string[] {
  const areas = areasChildren(xml);
  expect(areas).toHaveLength(1);
  return areas[0];
}

describe('CAP <area> of a drawn polygon', () => {
  it('writes <polygon> as "lat,lon" pairs, first = last, after areaDesc and before any circle', () => {
    // Stored open, a corner east of 180 (the ring crosses the antimeridian): CAP gets it closed and back in -180..180.
    const ring: [number, number][] = [
      [-16, 179],
      [-19, 179],
      [-17.5, 181.5],
    ];
    const xml = capMessage(row({ lat: -17.5, lng: 179.8, area_polygon: toPgPolygon(ring) }), site);
    expect(areaChildren(xml)).toEqual(['areaDesc', 'polygon']);
    const [polygon] = strictParse(xml).get('polygon')!;
    const pairs = polygon.split(' ');
    expect(pairs).toEqual(['-16,179', '-19,179', '-17.5,-178.5', '-16,179']);
    expect(pairs.length).toBeGreaterThanOrEqual(4);
    for (const pair of pairs) expect(pair).toMatch(/^-?\d+(\.\d+)?,-?\d+(\.\d+)?$/);
  });

  it('a circle alert keeps its <circle> and has no <polygon>', () => {
    const xml = capMessage(row({ radius_km: 5 }), site);
    expect(areaChildren(xml)).toEqual(['areaDesc', 'circle']);
    expect(strictParse(xml).get('circle')).toEqual(['33.4,-111.9 5']);
  });

  it('an alert without an area has only its description', () => {
    expect(areaChildren(capMessage(row({ lat: null, lng: null }), site))).toEqual(['areaDesc']);
  });
});

describe('CAP <area>s of an area of several parts (issue #42)', () => {
  // As stored (alert-area.ts StoredArea): rings open, longitudes continuous (one part across the antimeridian).
  const parts: AlertAreaPart[] = [
    {
      type: 'polygon',
      points: [
        [44.99, -65.56],
        [45.03, -65.1],
        [44.8, -64.92],
      ],
      description: 'Annapolis County',
    },
    {
      type: 'polygon',
      points: [
        [-16, 179],
        [-19, 179],
        [-17.5, 181.5],
      ],
      description: 'Fiji & Lau',
    },
    { type: 'circle', lat: 44.65, lng: -63.57, radiusKm: 12.5, description: 'Halifax' },
    { type: 'circle', lat: 46.24, lng: -63.13, radiusKm: 3 },
  ];
  const multi = (over: Partial<PublicAlertRow> = {}) =>
    capMessage(row({ lat: 45, lng: -64, radius_km: null, area_parts: parts, location_name: 'Maritimes', ...over }), site);

  it('writes one <area> per part, each its <areaDesc> then its <polygon> or <circle>', () => {
    expect(areasChildren(multi())).toEqual([
      ['areaDesc', 'polygon'],
      ['areaDesc', 'polygon'],
      ['areaDesc', 'circle'],
      ['areaDesc', 'circle'],
    ]);
    const texts = strictParse(multi());
    expect(texts.get('polygon')).toEqual(['44.99,-65.56 45.03,-65.1 44.8,-64.92 44.99,-65.56', '-16,179 -19,179 -17.5,-178.5 -16,179']);
    expect(texts.get('circle')).toEqual(['44.65,-63.57 12.5', '46.24,-63.13 3']);
  });

  it("names each <area> by its part's description, else by the alert's location name, else by a default", () => {
    expect(strictParse(multi()).get('areaDesc')).toEqual(['Annapolis County', 'Fiji & Lau', 'Halifax', 'Maritimes']);
    expect(strictParse(multi({ location_name: null })).get('areaDesc')).toEqual(['Annapolis County', 'Fiji & Lau', 'Halifax', 'Area of the alert']);
  });

  it('repeats the <area>s in every language', () => {
    const texts = strictParse(multi({ translations: { fr: { title: 'Avis de gel', message: 'Du gel est prévu.' } } }));
    expect(texts.get('language')).toEqual(['en-US', 'fr']);
    expect(texts.get('areaDesc')).toHaveLength(8);
  });

  it("one part is named by the alert's location name, else by its description", () => {
    const one = (over: Partial<PublicAlertRow>) =>
      strictParse(capMessage(row({ radius_km: 5, area_description: 'Tempe (CAP)', ...over }), site)).get('areaDesc');
    expect(one({})).toEqual(['Tempe industrial park']);
    expect(one({ location_name: null })).toEqual(['Tempe (CAP)']);
    expect(one({ location_name: null, area_description: null })).toEqual(['Area of the alert']);
  });
});

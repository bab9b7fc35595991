import { SaxesParser } from 'saxes';
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

/** The names of <area>'s children, in document order (strict parser: saxes). */
function areaChildren(xml: string): string[] {
  const names: string[] = [];
  const stack: string[] = [];
  const parser = new SaxesParser({ xmlns: true });
  parser.on('error', (e) => {
    throw e;
  });
  parser.on('opentag', (tag) => {
    if (stack[stack.length - 1] === 'area') names.push(tag.local);
    stack.push(tag.local);
  });
  parser.on('closetag', () => stack.pop());
  parser.write(xml).close();
  return names;
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

import { greatCircleKm } from '@beacon/geo';
import { seededRandom } from '@beacon/common';
import { smallestEnclosingCircle, toBeaconArea } from './cap-area';
import type { CapInfo } from './cap-message';

const info = (areas: CapInfo['areas']): CapInfo => ({
  language: 'en-US',
  categories: ['Met'],
  event: 'e',
  urgency: 'Immediate',
  severity: 'Extreme',
  certainty: 'Observed',
  headline: null,
  description: null,
  instruction: null,
  onset: null,
  expires: null,
  web: null,
  areas,
});

describe('smallestEnclosingCircle', () => {
  it('contains every point and is no larger than the best circle through the points found by brute force', () => {
    const rnd = seededRandom(42);
    for (let run = 0; run < 30; run++) {
      const points = Array.from({ length: 3 + Math.floor(rnd() * 12) }, () => ({ lat: 33 + rnd() * 0.8, lng: -112.3 + rnd() * 0.9 }));
      const c = smallestEnclosingCircle(points);
      for (const p of points) expect(greatCircleKm(c, p)).toBeLessThanOrEqual(c.radiusKm + 1e-9);
      // Brute force over candidate centres: the midpoint of every pair; none that contains all is smaller (0.5 % for the plane approximation).
      let best = Infinity;
      for (const a of points)
        for (const b of points) {
          const m = { lat: (a.lat + b.lat) / 2, lng: (a.lng + b.lng) / 2 };
          best = Math.min(best, Math.max(...points.map((p) => greatCircleKm(m, p))));
        }
      expect(c.radiusKm).toBeLessThanOrEqual(best * 1.005);
    }
  });
});

describe('toBeaconArea', () => {
  it('a single circle stays itself; a geocode-only area is none', () => {
    expect(toBeaconArea(info([{ areaDesc: 'A', polygons: [], circles: [{ lat: 33, lng: -112, radiusKm: 7 }], geocodes: [] }]))).toEqual({
      area: { type: 'circle', lat: 33, lng: -112, radiusKm: 7 },
      locationName: 'A',
    });
    expect(toBeaconArea(info([{ areaDesc: 'County', polygons: [], circles: [], geocodes: [{ valueName: 'SAME', value: '004013' }] }]))).toBeNull();
  });
  it('a circle beside a polygon is wholly inside the result', () => {
    const a = toBeaconArea(
      info([
        {
          areaDesc: 'P',
          polygons: [
            [
              { lat: 33, lng: -112 },
              { lat: 33.1, lng: -112 },
              { lat: 33.1, lng: -111.9 },
              { lat: 33, lng: -112 },
            ],
          ],
          circles: [{ lat: 33.5, lng: -111.5, radiusKm: 5 }],
          geocodes: [],
        },
      ]),
    )!.area;
    if (a.type !== 'circle') throw new Error('a circle was expected');
    expect(greatCircleKm(a, { lat: 33.5, lng: -111.5 }) + 5).toBeLessThanOrEqual(a.radiusKm + 1e-6);
    expect(greatCircleKm(a, { lat: 33, lng: -112 })).toBeLessThanOrEqual(a.radiusKm + 1e-6);
  });

  const ring = (points: [number, number][]) => points.map(([lat, lng]) => ({ lat, lng }));
  it('one polygon is kept as the authority drew it; one Beacon cannot take (edges crossing) becomes the circle around it', () => {
    const drawn = ring([
      [33, -112],
      [33.1, -112],
      [33.1, -111.9],
      [33, -112],
    ]);
    expect(toBeaconArea(info([{ areaDesc: 'Tempe', polygons: [drawn], circles: [], geocodes: [] }]))).toEqual({
      area: {
        type: 'polygon',
        points: [
          [33, -112],
          [33.1, -112],
          [33.1, -111.9],
        ],
      },
      locationName: 'Tempe',
    });
    const bowtie = ring([
      [33, -112],
      [33.1, -111.9],
      [33, -111.9],
      [33.1, -112],
      [33, -112],
    ]);
    expect(toBeaconArea(info([{ areaDesc: 'Bow tie', polygons: [bowtie], circles: [], geocodes: [] }]))?.area.type).toBe('circle');
  });
});

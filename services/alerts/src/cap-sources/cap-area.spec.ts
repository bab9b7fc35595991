import { greatCircleKm } from '@beacon/geo';
import { seededRandom } from '@beacon/common';
import { CAP_AREA_LIMITS, smallestEnclosingCircle, toBeaconArea } from './cap-area';
import { spiral } from './testing/spiral';
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
  it('a single circle stays itself; a geocode-only area is none', async () => {
    expect(await toBeaconArea(info([{ areaDesc: 'A', polygons: [], circles: [{ lat: 33, lng: -112, radiusKm: 7 }], geocodes: [] }]))).toEqual({
      area: { type: 'circle', lat: 33, lng: -112, radiusKm: 7 },
      locationName: 'A',
    });
    expect(await toBeaconArea(info([{ areaDesc: 'County', polygons: [], circles: [], geocodes: [{ valueName: 'SAME', value: '004013' }] }]))).toBeNull();
  });
  it('a circle beside a polygon is wholly inside the result', async () => {
    const a = (await toBeaconArea(
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
    ))!.area;
    if (a?.type !== 'circle') throw new Error('a circle was expected');
    expect(greatCircleKm(a, { lat: 33.5, lng: -111.5 }) + 5).toBeLessThanOrEqual(a.radiusKm + 1e-6);
    expect(greatCircleKm(a, { lat: 33, lng: -112 })).toBeLessThanOrEqual(a.radiusKm + 1e-6);
  });

  const ring = (points: [number, number][]) => points.map(([lat, lng]) => ({ lat, lng }));
  it('one polygon is kept as the authority drew it; one Beacon cannot take (edges crossing) becomes the circle around it', async () => {
    const drawn = ring([
      [33, -112],
      [33.1, -112],
      [33.1, -111.9],
      [33, -112],
    ]);
    expect(await toBeaconArea(info([{ areaDesc: 'Tempe', polygons: [drawn], circles: [], geocodes: [] }]))).toEqual({
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
    expect((await toBeaconArea(info([{ areaDesc: 'Bow tie', polygons: [bowtie], circles: [], geocodes: [] }])))?.area?.type).toBe('circle');
  });
});

/** Brute force: the smallest of the circles on every pair and through every triple (plane around the points) that holds them all. */
function bruteForceRadiusKm(points: { lat: number; lng: number }[]) {
  const k = Math.cos((points[0].lat * Math.PI) / 180);
  const xy = points.map((p) => ({ x: p.lng * k, y: p.lat }));
  const centres: { x: number; y: number }[] = [];
  for (let i = 0; i < xy.length; i++)
    for (let j = i + 1; j < xy.length; j++) {
      const [a, b] = [xy[i], xy[j]];
      centres.push({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 });
      for (let l = j + 1; l < xy.length; l++) {
        const c = xy[l];
        const d = 2 * (a.x * (b.y - c.y) + b.x * (c.y - a.y) + c.x * (a.y - b.y));
        if (Math.abs(d) < 1e-12) continue;
        const [a2, b2, c2] = [a, b, c].map((p) => p.x * p.x + p.y * p.y);
        centres.push({ x: (a2 * (b.y - c.y) + b2 * (c.y - a.y) + c2 * (a.y - b.y)) / d, y: (a2 * (c.x - b.x) + b2 * (a.x - c.x) + c2 * (b.x - a.x)) / d });
      }
    }
  return Math.min(...centres.map((c) => Math.max(...points.map((p) => greatCircleKm({ lat: c.y, lng: c.x / k }, p)))));
}

describe('smallestEnclosingCircle on a hostile spiral (issue 36)', () => {
  it('is the smallest circle of a small spiral, as brute force over every pair and triple finds it', () => {
    const points = spiral(30);
    const c = smallestEnclosingCircle(points);
    for (const p of points) expect(greatCircleKm(c, p)).toBeLessThanOrEqual(c.radiusKm + 1e-9);
    const best = bruteForceRadiusKm(points);
    expect(Math.abs(c.radiusKm - best) / best).toBeLessThan(0.005);
  });

  it('encloses 3,000 points in order on a spiral (cubic unshuffled) in a number of steps linear in the points, every point inside', () => {
    const points = spiral(3000);
    const c = smallestEnclosingCircle(points);
    for (const p of points) expect(greatCircleKm(c, p)).toBeLessThanOrEqual(c.radiusKm + 1e-9);
    // The spiral's last turn is about 40 km from its centre: the circle is about that.
    expect(c.radiusKm).toBeGreaterThan(39);
    expect(c.radiusKm).toBeLessThan(41);
    expect(c.steps).toBeLessThan(20 * points.length);
    // Deterministic: the same points take the same steps.
    expect(smallestEnclosingCircle(points).steps).toBe(c.steps);
  });

  it('toBeaconArea encloses them in slices, giving the event loop its turn between them', async () => {
    let pauses = 0;
    const points = spiral(3000);
    const area = await toBeaconArea(info([{ areaDesc: 'Spiral', polygons: [[...points, points[0]]], circles: [], geocodes: [] }]), async () => void pauses++);
    expect(area?.area?.type).toBe('circle');
    expect(pauses).toBeGreaterThan(5);
  });
});

describe('toBeaconArea: areas Beacon refuses (issue 36)', () => {
  const polygon = (points: [number, number][]) => points.map(([lat, lng]) => ({ lat, lng }));
  it('a polygon larger than an alert may cover is refused with the reason, not turned into the largest circle', async () => {
    const quarter = polygon([
      [90, 0],
      [-90, 0],
      [-90, 90],
      [90, 90],
      [90, 0],
    ]);
    expect(await toBeaconArea(info([{ areaDesc: 'Half the world', polygons: [quarter], circles: [], geocodes: [] }]))).toEqual({
      area: null,
      locationName: 'Half the world',
      reason: expect.stringMatching(/^the polygon is too large: The polygon covers more than 3,141,593 km²/),
    });
  });
  it('a circle over 1000 km, or areas whose enclosing circle is, are refused with the reason', async () => {
    const big = await toBeaconArea(info([{ areaDesc: 'Big', polygons: [], circles: [{ lat: 33, lng: -112, radiusKm: 1500 }], geocodes: [] }]));
    expect(big).toMatchObject({ area: null, reason: expect.stringContaining('at most 1000 km') });
    const apart = await toBeaconArea(
      info([
        { areaDesc: 'Phoenix', polygons: [], circles: [{ lat: 33.45, lng: -112.07, radiusKm: 5 }], geocodes: [] },
        { areaDesc: 'Boston', polygons: [], circles: [{ lat: 42.36, lng: -71.06, radiusKm: 5 }], geocodes: [] },
      ]),
    );
    expect(apart).toMatchObject({ area: null, reason: expect.stringContaining('at most 1000 km') });
  });
  it('more points than CAP_AREA_LIMITS.maxPoints are refused unenclosed', async () => {
    const points = spiral(CAP_AREA_LIMITS.maxPoints + 1);
    expect(await toBeaconArea(info([{ areaDesc: 'Spiral', polygons: [[...points, points[0]]], circles: [], geocodes: [] }]))).toMatchObject({
      area: null,
      reason: expect.stringContaining(`at most ${CAP_AREA_LIMITS.maxPoints}`),
    });
  });
});

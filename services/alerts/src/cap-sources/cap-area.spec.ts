import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AREA_PARTS_MAX, AlertArea, areaParts, POLYGON_LIMITS, polygonProblem } from '@beacon/contracts';
import { CAP_AREA_LIMITS, convexHull, toBeaconArea } from './cap-area';
import { CapInfo, readFeedDocument } from './cap-message';
import { primaryInfo } from './cap-translations';
import { spiral } from './testing/spiral';

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

const ring = (points: [number, number][]) => points.map(([lat, lng]) => ({ lat, lng }));
const circle = (lat: number, lng: number, radiusKm: number) => ({ lat, lng, radiusKm });
const area = (areaDesc: string, shapes: { polygons?: [number, number][][]; circles?: ReturnType<typeof circle>[] }): CapInfo['areas'][number] => ({
  areaDesc,
  polygons: (shapes.polygons ?? []).map(ring),
  circles: shapes.circles ?? [],
  geocodes: [],
});

/** Whether [lat, lng] is inside or on the counter-clockwise convex ring (longitudes continuous). */
const inConvex = (hull: [number, number][], [lat, lng]: [number, number]) =>
  hull.every((a, i) => {
    const b = hull[(i + 1) % hull.length];
    return (b[1] - a[1]) * (lat - a[0]) - (b[0] - a[0]) * (lng - a[1]) >= -1e-12;
  });

const areaOf = async (areas: CapInfo['areas']): Promise<AlertArea> => {
  const found = await toBeaconArea(info(areas));
  if (!found?.area) throw new Error(`an area was expected, got ${JSON.stringify(found)}`);
  return found.area;
};

describe('toBeaconArea: one part', () => {
  it('a single circle stays itself, named by its <areaDesc>; a geocode-only area is none', async () => {
    expect(await toBeaconArea(info([area(' A ', { circles: [circle(33, -112, 7)] })]))).toEqual({
      area: { type: 'circle', lat: 33, lng: -112, radiusKm: 7, description: 'A' },
      locationName: 'A',
      approximated: [],
    });
    expect(await toBeaconArea(info([{ areaDesc: 'County', polygons: [], circles: [], geocodes: [{ valueName: 'SAME', value: '004013' }] }]))).toBeNull();
  });

  it('a point (radius 0) is the smallest circle an alert may have', async () => {
    expect(await areaOf([area('Plant', { circles: [circle(33, -112, 0)] })])).toEqual({
      type: 'circle',
      lat: 33,
      lng: -112,
      radiusKm: 1,
      description: 'Plant',
    });
  });

  it('one polygon is kept as the authority drew it (open ring; a corner written twice in a row once)', async () => {
    const drawn: [number, number][] = [
      [33, -112],
      [33.1, -112],
      [33.1, -112],
      [33.1, -111.9],
      [33, -112],
    ];
    expect(await toBeaconArea(info([area('Tempe', { polygons: [drawn] })]))).toEqual({
      area: {
        type: 'polygon',
        points: [
          [33, -112],
          [33.1, -112],
          [33.1, -111.9],
        ],
        description: 'Tempe',
      },
      locationName: 'Tempe',
      approximated: [],
    });
  });

  it('an area without a name gives a part without a description', async () => {
    expect(await areaOf([area('  ', { circles: [circle(33, -112, 5)] })])).toEqual({ type: 'circle', lat: 33, lng: -112, radiusKm: 5 });
  });
});

describe('toBeaconArea: several parts, kept as drawn (issue #42)', () => {
  const FIXTURE = join(__dirname, 'fixtures', 'frost-advisory-multi-area.xml');
  const frost = () => {
    const xml = readFileSync(FIXTURE, 'utf8').replaceAll('{{SENT}}', '2026-05-18T20:53:59-00:00').replaceAll('{{EXPIRES}}', '2026-05-19T12:00:00-00:00');
    return primaryInfo(readFeedDocument(xml).messages[0].message.infos);
  };

  it('an Environment Canada-style frost advisory of five regions and six polygons is a multi area of those six, each named by its region', async () => {
    const capInfo = frost();
    const found = await toBeaconArea(capInfo);
    expect(found).toMatchObject({
      locationName: 'Annapolis County; Digby County; Kings County; Queens County P.E.I.; Kent County',
      approximated: [],
    });
    const a = found!.area!;
    if (a.type !== 'multi') throw new Error('a multi area was expected');
    expect(a.parts.map((p) => [p.type, p.description])).toEqual([
      ['polygon', 'Annapolis County'],
      ['polygon', 'Digby County'],
      ['polygon', 'Digby County'],
      ['polygon', 'Kings County'],
      ['polygon', 'Queens County P.E.I.'],
      ['polygon', 'Kent County'],
    ]);
    // Each part is its CAP polygon's corners, as drawn (CAP's closing point dropped), and a valid Beacon polygon.
    const drawn = capInfo.areas.flatMap((x) => x.polygons).map((p) => p.slice(0, -1).map(({ lat, lng }) => [lat, lng]));
    expect(a.parts.map((p) => (p.type === 'polygon' ? p.points : null))).toEqual(drawn);
    for (const p of a.parts) expect(p.type === 'polygon' && polygonProblem(p.points)).toBeNull();
  });

  it('circles and polygons mixed: one part each, in the document order (an area’s polygons, then its circles)', async () => {
    const square: [number, number][] = [
      [33, -112],
      [33.1, -112],
      [33.1, -111.9],
      [33, -111.9],
      [33, -112],
    ];
    expect(
      await areaOf([area('Tempe', { polygons: [square], circles: [circle(33.5, -111.5, 5)] }), area('Boston', { circles: [circle(42.36, -71.06, 12.3456)] })]),
    ).toEqual({
      type: 'multi',
      parts: [
        { type: 'polygon', points: square.slice(0, -1), description: 'Tempe' },
        { type: 'circle', lat: 33.5, lng: -111.5, radiusKm: 5, description: 'Tempe' },
        { type: 'circle', lat: 42.36, lng: -71.06, radiusKm: 12.346, description: 'Boston' },
      ],
    });
  });

  it('parts far apart are kept apart: no circle around them all', async () => {
    const a = await areaOf([area('Phoenix', { circles: [circle(33.45, -112.07, 5)] }), area('Boston', { circles: [circle(42.36, -71.06, 5)] })]);
    expect(areaParts(a).map((p) => p.type === 'circle' && p.radiusKm)).toEqual([5, 5]);
  });

  it('gives the event loop its turn between parts', async () => {
    let pauses = 0;
    await toBeaconArea(frost(), async () => void pauses++);
    expect(pauses).toBe(5);
  });
});

describe('toBeaconArea: a polygon Beacon cannot take as drawn becomes its convex hull', () => {
  it('edges crossing (a bow tie): the square around it, and `approximated` says so', async () => {
    const bowtie: [number, number][] = [
      [33, -112],
      [33.1, -111.9],
      [33, -111.9],
      [33.1, -112],
      [33, -112],
    ];
    const found = await toBeaconArea(info([area('Bow tie', { polygons: [bowtie] }), area('Gilbert', { circles: [circle(33.3, -111.8, 4)] })]));
    const parts = areaParts(found!.area!);
    expect(parts[0]).toEqual({ type: 'polygon', points: expect.any(Array), description: 'Bow tie' });
    expect(parts[0].type === 'polygon' && [...parts[0].points].sort()).toEqual(bowtie.slice(0, -1).sort());
    expect(found).toMatchObject({
      approximated: [expect.stringMatching(/^part 1 of 2 \(Bow tie\): the polygon of 4 corners is replaced by its convex hull of 4 \(.*cross/)],
    });
  });

  it('3,000 corners on a spiral: a hull Beacon takes (its outer turns, about a hundred corners) containing every point', async () => {
    const points = spiral(3000);
    const a = await areaOf([{ areaDesc: 'Spiral', polygons: [[...points, points[0]]], circles: [], geocodes: [] }]);
    if (a.type !== 'polygon') throw new Error('a polygon was expected');
    expect(polygonProblem(a.points)).toBeNull();
    expect(a.points.length).toBeLessThanOrEqual(POLYGON_LIMITS.maxPoints);
    for (const p of points) expect(inConvex(a.points, [p.lat, p.lng])).toBe(true);
  });

  it('across the antimeridian: the hull is computed on continuous longitudes and given back in -180..180', async () => {
    const a = await areaOf([
      area('Fiji', {
        polygons: [
          [
            [-16, 179],
            [-19, -179],
            [-19, 179],
            [-16, -179],
            [-16, 179],
          ],
        ],
      }),
    ]);
    if (a.type !== 'polygon') throw new Error('a polygon was expected');
    expect([...a.points].sort()).toEqual(
      [
        [-16, 179],
        [-19, -179],
        [-19, 179],
        [-16, -179],
      ].sort(),
    );
    expect(polygonProblem(a.points)).toBeNull();
  });

  it('convexHull: counter-clockwise, no collinear or repeated corners, every point inside', () => {
    const pts: [number, number][] = [
      [0, 0],
      [0, 1],
      [0, 2],
      [1, 1],
      [2, 2],
      [2, 0],
      [2, 0],
      [1, 0.5],
    ];
    const hull = convexHull(pts);
    // Counter-clockwise on the map: east along the equator first (x is the longitude).
    expect(hull).toEqual([
      [0, 0],
      [0, 2],
      [2, 2],
      [2, 0],
    ]);
    for (const p of pts) expect(inConvex(hull, p)).toBe(true);
  });
});

describe('toBeaconArea: areas Beacon refuses (issues 36, 42)', () => {
  it('a polygon larger than an alert may cover is refused with the reason', async () => {
    const quarter: [number, number][] = [
      [90, 0],
      [-90, 0],
      [-90, 90],
      [90, 90],
      [90, 0],
    ];
    expect(await toBeaconArea(info([area('Half the world', { polygons: [quarter] })]))).toEqual({
      area: null,
      locationName: 'Half the world',
      reason: expect.stringMatching(/^the polygon is too large: The polygon covers more than 3,141,593 km²/),
    });
  });

  it('a circle over 1000 km is refused, and the part named when there are several', async () => {
    expect(await toBeaconArea(info([area('Big', { circles: [circle(33, -112, 1500)] })]))).toMatchObject({
      area: null,
      reason: 'the circle is too large: its radius is 1500 km; an alert reaches at most 1000 km',
    });
    expect(await toBeaconArea(info([area('Small', { circles: [circle(33, -112, 5)] }), area('Big', { circles: [circle(40, -100, 1500)] })]))).toMatchObject({
      area: null,
      reason: expect.stringMatching(/^part 2 of 2 \(Big\): the circle is too large/),
    });
  });

  it('parts each within the limit but together over it are refused', async () => {
    const found = await toBeaconArea(info([area('West', { circles: [circle(40, -110, 800)] }), area('East', { circles: [circle(40, -80, 800)] })]));
    expect(found).toMatchObject({
      area: null,
      locationName: 'West; East',
      reason: 'the areas are too large: together they cover 4,021,239 km²; an alert covers at most 3,141,593 km²',
    });
  });

  it(`more than AREA_PARTS_MAX (${AREA_PARTS_MAX}) parts are refused`, async () => {
    const circles = Array.from({ length: AREA_PARTS_MAX + 1 }, (_, i) => circle(33 + i * 0.01, -112, 1));
    expect(await toBeaconArea(info([area('Many', { circles })]))).toMatchObject({
      area: null,
      reason: `the message has ${AREA_PARTS_MAX + 1} polygons and circles; an alert has at most ${AREA_PARTS_MAX} parts`,
    });
    expect(areaParts(await areaOf([area('Many', { circles: circles.slice(1) })]))).toHaveLength(AREA_PARTS_MAX);
  });

  it('more points than CAP_AREA_LIMITS.maxPoints are refused before any geometry', async () => {
    const points = spiral(CAP_AREA_LIMITS.maxPoints + 1);
    expect(await toBeaconArea(info([{ areaDesc: 'Spiral', polygons: [[...points, points[0]]], circles: [], geocodes: [] }]))).toMatchObject({
      area: null,
      reason: expect.stringContaining(`at most ${CAP_AREA_LIMITS.maxPoints}`),
    });
  });

  it('a polygon that is no area (two distinct corners) is refused, not dropped', async () => {
    const line: [number, number][] = [
      [33, -112],
      [33.1, -112],
      [33.1, -112],
      [33, -112],
    ];
    expect(await toBeaconArea(info([area('Ok', { circles: [circle(33, -112, 5)] }), area('Line', { polygons: [line] })]))).toMatchObject({
      area: null,
      reason: 'part 2 of 2 (Line): the polygon cannot be taken: A polygon needs at least 3 points',
    });
  });

  it('a polygon whose hull still has too many corners is refused with both reasons', async () => {
    const round = Array.from(
      { length: 300 },
      (_, i) => [33 + 0.1 * Math.sin((2 * Math.PI * i) / 300), -112 + 0.1 * Math.cos((2 * Math.PI * i) / 300)] as [number, number],
    );
    expect(await toBeaconArea(info([area('Round', { polygons: [[...round, round[0]]] })]))).toMatchObject({
      area: null,
      reason: 'the polygon cannot be taken (A polygon can have at most 200 points), nor can its convex hull: A polygon can have at most 200 points',
    });
  });
});

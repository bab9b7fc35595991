import { AppError } from '@beacon/common';
import { greatCircleKm, insidePolygon } from '@beacon/geo';
import type { AlertAreaPart } from '@beacon/contracts';
import { AREA_PARTS_MAX, POLYGON_LIMITS } from '@beacon/contracts';
import { partsProbes, partsStripRanges, polygonStripRanges, STRIPS_PER_DEGREE } from '../deliveries/geo-strips';
import { fromPgPolygon, toPgPolygon } from '../deliveries/polygon-column';
import { assertAreaChosen, assertCapDraftHasArea, storedAreaColumns, toAlertArea, toContractArea } from './alert-area';

const TRIANGLE: [number, number][] = [
  [33.5, -112.1],
  [33.4, -112.2],
  [33.4, -112.0],
];

function codeOf(f: () => unknown): string | undefined {
  return errorOf(f)?.code;
}

function errorOf(f: () => unknown): { code: string | undefined; message: string } | undefined {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    expect((e as AppError).getStatus()).toBe(400);
    return { code: (e as AppError).code, message: (e as AppError).message };
  }
  return undefined;
}

/** Whether the point is in the stored part (its circle's own radius: no user radius here). */
const isIn = (part: AlertAreaPart, lat: number, lng: number) =>
  part.type === 'polygon' ? insidePolygon(part.points, lat, lng) : greatCircleKm(part, { lat, lng }) <= part.radiusKm;

const FIJI: [number, number][] = [
  [-16, 179],
  [-19, 179],
  [-17.5, -178.5],
];

describe('toAlertArea: the one reading of where an alert applies', () => {
  it('keeps the old lat/lng/radiusKm, radius 50 km by default, and no area at all', () => {
    expect(toAlertArea({ lat: 33.4, lng: -112 })).toEqual({ lat: 33.4, lng: -112, radiusKm: 50, polygon: null });
    expect(toAlertArea({ lat: 33.4, lng: -112, radiusKm: 5 })).toEqual({ lat: 33.4, lng: -112, radiusKm: 5, polygon: null });
    expect(toAlertArea({})).toEqual({ lat: null, lng: null, radiusKm: null, polygon: null });
    expect(codeOf(() => toAlertArea({ lat: 33.4 }))).toBe('incomplete_location');
  });

  it('reads a circle area like the old fields', () => {
    expect(toAlertArea({ area: { type: 'circle', lat: 33.4, lng: -112, radiusKm: 5 } })).toEqual({ lat: 33.4, lng: -112, radiusKm: 5, polygon: null });
    expect(codeOf(() => toAlertArea({ area: { type: 'circle', lat: 95, lng: 0, radiusKm: 5 } }))).toBe('invalid_area');
    expect(codeOf(() => toAlertArea({ area: { type: 'circle', lat: 30, lng: 0, radiusKm: 5000 } }))).toBe('invalid_area');
  });

  it('closes a polygon automatically and accepts it already closed; lat/lng become its centroid', () => {
    const open = toAlertArea({ area: { type: 'polygon', points: TRIANGLE } });
    const closed = toAlertArea({ area: { type: 'polygon', points: [...TRIANGLE, TRIANGLE[0]] } });
    expect(closed).toEqual(open);
    expect(open.polygon).toEqual(TRIANGLE);
    expect(open.radiusKm).toBeNull();
    expect(open.lat).toBeCloseTo(33.4333, 3);
    expect(open.lng).toBeCloseTo(-112.1, 6);
  });

  it.each([
    ['a wrong type', { type: 'square', points: TRIANGLE }, 'invalid_area'],
    ['points that are not pairs', { type: 'polygon', points: [[1, 2, 3]] }, 'invalid_area'],
    ['not an object', 'polygon', 'invalid_area'],
    ['two points', { type: 'polygon', points: TRIANGLE.slice(0, 2) }, 'area_too_few_points'],
    ['three points, closed, with one repeated', { type: 'polygon', points: [TRIANGLE[0], TRIANGLE[1], TRIANGLE[0]] }, 'area_too_few_points'],
    ['201 points', { type: 'polygon', points: Array.from({ length: 201 }, (_, i) => [Math.sin(i / 32), Math.cos(i / 32)]) }, 'area_too_many_points'],
    ['a repeated corner', { type: 'polygon', points: [TRIANGLE[0], TRIANGLE[1], TRIANGLE[0], TRIANGLE[2]] }, 'area_self_intersecting'],
    ['a point out of range', { type: 'polygon', points: [[91, 0], ...TRIANGLE] }, 'area_point_out_of_range'],
    [
      'a bow tie',
      {
        type: 'polygon',
        points: [
          [0, 0],
          [1, 1],
          [1, 0],
          [0, 1],
        ],
      },
      'area_self_intersecting',
    ],
    [
      'more than a hemisphere',
      {
        type: 'polygon',
        points: [
          [0, -100],
          [10, 0],
          [0, 100],
        ],
      },
      'area_too_large',
    ],
  ])('refuses %s', (_name, area, code) => {
    expect(codeOf(() => toAlertArea({ area }))).toBe(code);
  });

  it('refuses an area together with lat/lng', () => {
    expect(codeOf(() => toAlertArea({ area: { type: 'polygon', points: TRIANGLE }, lat: 1, lng: 2 }))).toBe('area_and_location');
  });

  it('takes the short way across the antimeridian, and gives it back in -180..180', () => {
    const area = toAlertArea({
      area: {
        type: 'polygon',
        points: [
          [-16, 179],
          [-19, 179],
          [-17.5, -178.5],
        ],
      },
    });
    expect(area.polygon).toEqual([
      [-16, 179],
      [-19, 179],
      [-17.5, 181.5],
    ]);
    expect(insidePolygon(area.polygon!, -17.5, -179.9)).toBe(true);
    expect(insidePolygon(area.polygon!, -17.5, 0)).toBe(false);
    const text = toPgPolygon(area.polygon!);
    expect(fromPgPolygon(text)).toEqual(area.polygon);
    expect(toContractArea({ lat: area.lat, lng: area.lng, radius_km: null, area_polygon: text })).toEqual({
      type: 'polygon',
      points: [
        [-16, 179],
        [-19, 179],
        [-17.5, -178.5],
        [-16, 179],
      ],
    });
  });
});

describe('toAlertArea and toContractArea: an area of several parts (issue #42)', () => {
  const circle = { type: 'circle', lat: 33.45, lng: -112.0, radiusKm: 5, description: 'Tempe' } as const;

  it('keeps the parts as drawn (rings open, unwrapped), with a centre between them and no radius or polygon', () => {
    const area = toAlertArea({ area: { type: 'multi', parts: [{ type: 'polygon', points: [...TRIANGLE, TRIANGLE[0]], description: 'West' }, circle] } });
    expect(area.radiusKm).toBeNull();
    expect(area.polygon).toBeNull();
    expect(area.parts).toEqual([{ type: 'polygon', points: TRIANGLE, description: 'West' }, circle]);
    expect(area.lat).toBeGreaterThan(33.4);
    expect(area.lat).toBeLessThan(33.5);
    expect(area.lng).toBeGreaterThan(-112.1);
    expect(area.lng).toBeLessThan(-112.0);
  });

  it('gives them back as multi: rings closed, longitudes in -180..180, descriptions kept, through the columns', () => {
    const area = toAlertArea({ area: { type: 'multi', parts: [{ type: 'polygon', points: FIJI, description: 'Fiji' }, circle] } });
    expect(area.parts![0].type === 'polygon' && area.parts![0].points[2]).toEqual([-17.5, 181.5]);
    // parts cross the antimeridian and the Pacific: the centre is between them, not on the far side of the earth
    const columns = storedAreaColumns(area);
    expect(columns).toMatchObject({ radius_km: null, area_polygon: null, area_description: null });
    // as node-postgres gives the jsonb back: keys in jsonb's own order
    const parts = JSON.parse(columns.area_parts!).map((p: Record<string, unknown>) =>
      Object.fromEntries(Object.entries(p).sort(([a], [b]) => a.length - b.length || a.localeCompare(b))),
    );
    expect(JSON.stringify(toContractArea({ ...columns, area_parts: parts }))).toBe(
      JSON.stringify({
        type: 'multi',
        parts: [{ type: 'polygon', points: [...FIJI, FIJI[0]], description: 'Fiji' }, circle],
      }),
    );
  });

  it("reads a multi of one part as that part, and keeps a single part's description", () => {
    const one = toAlertArea({ area: { type: 'multi', parts: [{ type: 'polygon', points: TRIANGLE, description: ' Downtown ' }] } });
    expect(one).toEqual({ ...toAlertArea({ area: { type: 'polygon', points: TRIANGLE } }), description: 'Downtown' });
    expect(one.parts).toBeUndefined();
    const columns = storedAreaColumns(one);
    expect(columns.area_parts).toBeNull();
    expect(toContractArea({ ...columns, area_parts: null })).toEqual({ type: 'polygon', points: [...TRIANGLE, TRIANGLE[0]], description: 'Downtown' });
    const c = toAlertArea({ area: circle });
    expect(toContractArea({ ...storedAreaColumns(c), area_parts: null })).toEqual(circle);
    // a circle part without a radius has the default one
    expect(toAlertArea({ area: { type: 'multi', parts: [{ type: 'circle', lat: 1, lng: 2 }] } }).radiusKm).toBe(50);
  });

  const tooMany = Array.from({ length: AREA_PARTS_MAX + 1 }, (_, i) => ({ type: 'circle', lat: i, lng: 0, radiusKm: 1 }));
  // Each about 1.9 million km²: one is allowed, two together are over the bound.
  const big = (lng: number) => ({
    type: 'polygon',
    points: [
      [0, lng],
      [0, lng + 12.5],
      [12.5, lng + 12.5],
      [12.5, lng],
    ],
  });

  it.each([
    ['no parts', { type: 'multi', parts: [] }, 'invalid_area', "A 'multi' area needs `parts`"],
    ['parts that are not a list', { type: 'multi', parts: { a: 1 } }, 'invalid_area', "A 'multi' area needs `parts`"],
    ['more than AREA_PARTS_MAX parts', { type: 'multi', parts: tooMany }, 'area_too_many_parts', 'at most 50 parts'],
    ['a part that is not an object', { type: 'multi', parts: [circle, 'x'] }, 'invalid_area', 'Area part 2: '],
    ['a multi in a multi', { type: 'multi', parts: [circle, { type: 'multi', parts: [circle] }] }, 'invalid_area', 'Area part 2: '],
    ['a part of an unknown type', { type: 'multi', parts: [circle, { type: 'square' }] }, 'invalid_area', 'Area part 2: '],
    [
      'a circle part out of range',
      { type: 'multi', parts: [circle, { type: 'circle', lat: 95, lng: 0, radiusKm: 5 }] },
      'invalid_area',
      'Area part 2: Latitude',
    ],
    ['a circle part too large', { type: 'multi', parts: [{ type: 'circle', lat: 1, lng: 0, radiusKm: 5000 }, circle] }, 'invalid_area', 'Area part 1: Radius'],
    [
      'a polygon part of two points',
      { type: 'multi', parts: [circle, { type: 'polygon', points: TRIANGLE.slice(0, 2) }] },
      'area_too_few_points',
      'Area part 2: ',
    ],
    [
      'a polygon part of 201 points',
      { type: 'multi', parts: [circle, { type: 'polygon', points: Array.from({ length: 201 }, (_, i) => [Math.sin(i / 32), Math.cos(i / 32)]) }] },
      'area_too_many_points',
      'Area part 2: ',
    ],
    [
      'a polygon part with a point out of range',
      { type: 'multi', parts: [circle, { type: 'polygon', points: [[91, 0], ...TRIANGLE] }] },
      'area_point_out_of_range',
      'Area part 2: Point 1',
    ],
    [
      'a bow tie part',
      {
        type: 'multi',
        parts: [
          circle,
          {
            type: 'polygon',
            points: [
              [0, 0],
              [1, 1],
              [1, 0],
              [0, 1],
            ],
          },
        ],
      },
      'area_self_intersecting',
      'Area part 2: ',
    ],
    [
      'a polygon part of points that are not pairs',
      { type: 'multi', parts: [circle, { type: 'polygon', points: [[1, 2, 3]] }] },
      'invalid_area',
      'Area part 2: ',
    ],
    [
      'a description too long',
      { type: 'multi', parts: [circle, { type: 'polygon', points: TRIANGLE, description: 'x'.repeat(201) }] },
      'invalid_area',
      'Area part 2: ',
    ],
    ['a description that is not text', { type: 'multi', parts: [{ ...circle, description: 5 }, circle] }, 'invalid_area', 'Area part 1: '],
    ['parts together larger than one alert may cover', { type: 'multi', parts: [big(0), big(20)] }, 'area_too_large', 'together cover'],
  ])('refuses %s', (_name, area, code, message) => {
    const error = errorOf(() => toAlertArea({ area }));
    expect(error?.code).toBe(code);
    expect(error?.message).toContain(message);
  });

  it('accepts what is just within the bounds: AREA_PARTS_MAX parts, a description of 200 characters, one large part', () => {
    expect(toAlertArea({ area: { type: 'multi', parts: tooMany.slice(1) } }).parts).toHaveLength(AREA_PARTS_MAX);
    expect(toAlertArea({ area: { ...circle, description: 'x'.repeat(200) } }).description).toHaveLength(200);
    expect(toAlertArea({ area: { type: 'multi', parts: [big(0), circle] } }).parts).toHaveLength(2);
    expect(POLYGON_LIMITS.maxAreaKm2).toBeGreaterThan(2 * 1e6);
  });

  it('refuses a description on a single part that is too long', () => {
    expect(codeOf(() => toAlertArea({ area: { type: 'polygon', points: TRIANGLE, description: 'x'.repeat(201) } }))).toBe('invalid_area');
  });
});

describe('partsStripRanges', () => {
  // A polygon, a circle overlapping it, and a polygon across the antimeridian.
  const parts = toAlertArea({
    area: {
      type: 'multi',
      parts: [
        {
          type: 'polygon',
          points: [
            [33.5, -112.1],
            [33.2, -112.3],
            [33.35, -112.12],
            [33.1, -111.9],
          ],
        },
        { type: 'circle', lat: 33.3, lng: -112.0, radiusKm: 8 },
        { type: 'polygon', points: FIJI },
      ],
    },
  }).parts!;

  it('puts every point of every part in exactly one range of its strip, testing a part that holds it unless inside', () => {
    const ranges = partsStripRanges(parts);
    const probe = (lat: number, lng: number) => {
      const holders = parts.map((part, k) => (isIn(part, lat, lng) ? k : -1)).filter((k) => k >= 0);
      const strip = Math.floor(lat * STRIPS_PER_DEGREE);
      const found = ranges.filter((r) => r.strip === strip && lng >= r.lngFrom && lng <= r.lngTo);
      if (!holders.length) return 0;
      expect(found).toHaveLength(1);
      const [r] = found;
      if (!r.inside) expect(holders.some((k) => (r.parts! & (1n << BigInt(k))) !== 0n)).toBe(true);
      return 1;
    };
    let checked = 0;
    for (let lat = 33.05; lat <= 33.55; lat += 0.0037) for (let lng = -112.35; lng <= -111.85; lng += 0.0041) checked += probe(lat, lng);
    for (let lat = -19.05; lat <= -15.95; lat += 0.011) for (let lng = 178.9; lng <= 181.6; lng += 0.013) checked += probe(lat, lng > 180 ? lng - 360 : lng);
    expect(checked).toBeGreaterThan(2000);
  });

  it('reads them in fewer probes, each point of a part in exactly one, known inside only where it is', () => {
    const probes = partsProbes(parts);
    expect(probes.length).toBeLessThan(partsStripRanges(parts).length);
    let checked = 0;
    const probe = (lat: number, lng: number) => {
      const holders = parts.map((part, k) => (isIn(part, lat, lng) ? k : -1)).filter((k) => k >= 0);
      const found = probes.filter((r) => r.strip === Math.floor(lat * STRIPS_PER_DEGREE) && lng >= r.lngFrom && lng <= r.lngTo);
      const known = found.some((r) => r.insideFrom !== null && lng >= r.insideFrom && lng <= r.insideTo!);
      if (known) expect(holders.length).toBeGreaterThan(0);
      if (!holders.length) return;
      expect(found).toHaveLength(1);
      if (!known) expect(holders.some((k) => (found[0].parts & (1n << BigInt(k))) !== 0n)).toBe(true);
      checked++;
    };
    for (let lat = 33.05; lat <= 33.55; lat += 0.0037) for (let lng = -112.35; lng <= -111.85; lng += 0.0041) probe(lat, lng);
    for (let lat = -19.05; lat <= -15.95; lat += 0.011) for (let lng = 178.9; lng <= 181.6; lng += 0.013) probe(lat, lng > 180 ? lng - 360 : lng);
    expect(checked).toBeGreaterThan(2000);
  });

  it('never overlaps two ranges of a strip, so a person in two parts is read once', () => {
    const ranges = partsStripRanges(parts);
    const byStrip = new Map<number, typeof ranges>();
    for (const r of ranges) byStrip.set(r.strip, [...(byStrip.get(r.strip) ?? []), r]);
    for (const list of byStrip.values()) {
      list.sort((a, b) => a.lngFrom - b.lngFrom);
      for (let i = 1; i < list.length; i++) expect(list[i].lngFrom).toBeGreaterThan(list[i - 1].lngTo);
    }
    expect(ranges.some((r) => r.inside)).toBe(true);
    expect(ranges.every((r) => r.lngFrom >= -180 && r.lngTo <= 180)).toBe(true);
  });
});

describe('polygonStripRanges', () => {
  it('covers every point inside the polygon with a range of its strip', () => {
    const ring = toAlertArea({
      area: {
        type: 'polygon',
        points: [
          [33.5, -112.1],
          [33.2, -112.3],
          [33.35, -112.12],
          [33.1, -111.9],
        ],
      },
    }).polygon!;
    const ranges = polygonStripRanges(ring);
    let checked = 0;
    for (let lat = 33.05; lat <= 33.55; lat += 0.0037) {
      for (let lng = -112.35; lng <= -111.85; lng += 0.0041) {
        if (!insidePolygon(ring, lat, lng)) continue;
        const strip = Math.floor(lat * STRIPS_PER_DEGREE);
        expect(ranges.some((r) => r.strip === strip && lng >= r.lngFrom && lng <= r.lngTo)).toBe(true);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(500);
    // and no wider than the polygon's own extent
    expect(Math.min(...ranges.map((r) => r.lngFrom))).toBeGreaterThan(-112.31);
  });

  it('splits a range across the antimeridian', () => {
    const ranges = polygonStripRanges([
      [-17.001, 179],
      [-17.009, 179],
      [-17.005, 181],
    ]);
    expect(ranges.some((r) => r.lngTo === 180)).toBe(true);
    expect(ranges.some((r) => r.lngFrom === -180)).toBe(true);
  });
});

describe('an area, or everyone by choice (issue #38)', () => {
  const circle = toAlertArea({ lat: 33.4, lng: -112, radiusKm: 5 });
  const polygon = toAlertArea({ area: { type: 'polygon', points: TRIANGLE } });
  const none = toAlertArea({});

  it('sends with an area, or with none when everyone is chosen', () => {
    expect(() => assertAreaChosen(circle, undefined, true)).not.toThrow();
    expect(() => assertAreaChosen(polygon, false, true)).not.toThrow();
    expect(() => assertAreaChosen(none, true, true)).not.toThrow();
  });

  it('refuses to send with neither (area_required), and both at once, sent or saved (area_and_everyone)', () => {
    expect(codeOf(() => assertAreaChosen(none, undefined, true))).toBe('area_required');
    expect(codeOf(() => assertAreaChosen(none, false, true))).toBe('area_required');
    expect(codeOf(() => assertAreaChosen(circle, true, true))).toBe('area_and_everyone');
    expect(codeOf(() => assertAreaChosen(polygon, true, false))).toBe('area_and_everyone');
  });

  it('saves a draft without either', () => {
    expect(() => assertAreaChosen(none, undefined, false)).not.toThrow();
  });

  it("refuses a CAP source's draft with no area whatever is chosen (409 cap_area_required), and no one else's", () => {
    expect(() => assertCapDraftHasArea({ lat: null, source: 'cap' })).toThrow(expect.objectContaining({ code: 'cap_area_required', status: 409 }));
    expect(() => assertCapDraftHasArea({ lat: 33.4, source: 'cap' })).not.toThrow();
    expect(() => assertCapDraftHasArea({ lat: null, source: 'admin' })).not.toThrow();
  });
});

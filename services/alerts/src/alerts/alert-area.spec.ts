import { AppError } from '@beacon/common';
import { insidePolygon } from '@beacon/geo';
import { polygonStripRanges, STRIPS_PER_DEGREE } from '../deliveries/geo-strips';
import { fromPgPolygon, toPgPolygon } from '../deliveries/polygon-column';
import { assertAreaChosen, assertCapDraftHasArea, toAlertArea, toContractArea } from './alert-area';

const TRIANGLE: [number, number][] = [
  [33.5, -112.1],
  [33.4, -112.2],
  [33.4, -112.0],
];

function codeOf(f: () => unknown): string | undefined {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    expect((e as AppError).getStatus()).toBe(400);
    return (e as AppError).code;
  }
  return undefined;
}

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

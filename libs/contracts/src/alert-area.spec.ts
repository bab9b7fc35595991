import { AREA_PARTS_MAX, areaParts, areaProblem, circleAreaKm2, POLYGON_LIMITS, polygonAreaKm2, polygonProblem, unwrapRing } from './alert-area';

describe('polygon alert areas', () => {
  it('measures a ring on the sphere: one degree square at the equator is about 12,364 km²', () => {
    const square: [number, number][] = [
      [0, 0],
      [0, 1],
      [1, 1],
      [1, 0],
    ];
    expect(polygonAreaKm2(square)).toBeCloseTo(12_364, -2);
    // closed or open, the same polygon
    expect(polygonAreaKm2([...square, square[0]])).toBeCloseTo(polygonAreaKm2(square), 6);
  });

  it('refuses a quarter of the earth (the CAP polygon 90,0 -90,0 -90,90 90,90) as too large', () => {
    const quarter: [number, number][] = [
      [90, 0],
      [-90, 0],
      [-90, 90],
      [90, 90],
      [90, 0],
    ];
    expect(polygonAreaKm2(quarter)).toBeGreaterThan(120_000_000);
    expect(polygonProblem(quarter)).toEqual({ code: 'area_too_large', message: expect.stringContaining('3,141,593 km²') });
  });

  it('bounds a polygon by what the largest circle covers', () => {
    expect(POLYGON_LIMITS.maxAreaKm2).toBe(3_141_593);
    // about 1,970 km a side at 0-18 degrees: 3.9 million km², over the bound; 15 degrees a side (~2.76 million km²) is within it
    const square = (side: number): [number, number][] => [
      [0, 0],
      [0, side],
      [side, side],
      [side, 0],
    ];
    expect(polygonProblem(square(18))?.code).toBe('area_too_large');
    expect(polygonProblem(square(15))).toBeNull();
  });

  it('measures a polygon across the antimeridian in its unwrapped longitudes', () => {
    const acrossDateLine: [number, number][] = [
      [-16, 179],
      [-16, -179],
      [-18, -179],
      [-18, 179],
    ];
    expect(polygonProblem(acrossDateLine)).toBeNull();
    // two degrees by two near Fiji, not the world the other way round
    expect(polygonAreaKm2(unwrapRing(acrossDateLine)!)).toBeCloseTo(47_000, -3);
  });
});

describe('areaProblem: one rule for the API and the wizard (issue #42)', () => {
  const triangle: [number, number][] = [
    [33.5, -112.1],
    [33.4, -112.2],
    [33.4, -112.0],
  ];
  const circle = { type: 'circle', lat: 33.4, lng: -112, radiusKm: 5 };

  it('accepts a circle, a polygon, and several of them with descriptions', () => {
    expect(areaProblem(circle)).toBeNull();
    expect(areaProblem({ type: 'polygon', points: triangle, description: 'Downtown' })).toBeNull();
    expect(areaProblem({ type: 'multi', parts: [circle, { type: 'polygon', points: triangle, description: 'Downtown' }] })).toBeNull();
    expect(areaParts({ type: 'multi', parts: [circle as never] })).toHaveLength(1);
  });

  it('names the part at fault, with the code of its own problem', () => {
    expect(areaProblem({ type: 'multi', parts: [circle, { type: 'polygon', points: triangle.slice(0, 2) }] })).toEqual({
      code: 'area_too_few_points',
      message: 'Area part 2: A polygon needs at least 3 points',
    });
    expect(areaProblem({ type: 'multi', parts: Array(AREA_PARTS_MAX + 1).fill(circle) })?.code).toBe('area_too_many_parts');
    expect(areaProblem({ type: 'multi', parts: [] })?.code).toBe('invalid_area');
    expect(areaProblem(null)?.code).toBe('invalid_area');
  });

  it('bounds the parts together as one polygon is bounded, a circle counting pi r²', () => {
    expect(circleAreaKm2(1000)).toBeCloseTo(POLYGON_LIMITS.maxAreaKm2, -1);
    const wide = { type: 'circle', lat: 0, lng: 0, radiusKm: 800 };
    expect(areaProblem(wide)).toBeNull();
    expect(areaProblem({ type: 'multi', parts: [wide, { ...wide, lng: 40 }] })?.code).toBe('area_too_large');
  });
});

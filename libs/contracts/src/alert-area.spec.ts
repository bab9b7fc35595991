import { POLYGON_LIMITS, polygonAreaKm2, polygonProblem, unwrapRing } from './alert-area';

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

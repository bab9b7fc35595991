import { seededRandom } from '@beacon/common';
import { destination, greatCircleKm } from '@beacon/geo';
import { STRIPS_PER_DEGREE, stripRanges } from './geo-strips';

const covered = (ranges: ReturnType<typeof stripRanges>, p: { lat: number; lng: number }) =>
  ranges.some((r) => r.strip === Math.floor(p.lat * STRIPS_PER_DEGREE) && p.lng >= r.lngFrom && p.lng <= r.lngTo);

describe('stripRanges', () => {
  it('covers every point of the circle, including its rim, wherever the circle is', () => {
    const random = seededRandom(7);
    const centres = [
      { lat: 33.4106, lng: -111.9712 },
      { lat: 0, lng: 0 },
      { lat: -45, lng: 170 },
      { lat: 64.1, lng: -21.9 },
      { lat: 89.5, lng: 10 },
      { lat: -89.9, lng: -120 },
      { lat: 10, lng: 179.95 },
      { lat: -20, lng: -179.99 },
    ];
    for (const centre of centres) {
      for (const km of [1, 7.5, 14.82, 50, 400, 1000]) {
        const ranges = stripRanges(centre, km);
        for (let i = 0; i < 400; i++) {
          // On the rim (the boundary case) and anywhere inside.
          const p = destination(centre, i % 4 === 0 ? km : km * Math.sqrt(random()), random() * 360);
          if (greatCircleKm(centre, p) <= km) expect(covered(ranges, p)).toBe(true);
        }
      }
    }
  });

  it('is tight: a 15 km circle in Phoenix reads about 30 strips, each no wider than the circle', () => {
    const ranges = stripRanges({ lat: 33.4106, lng: -111.9712 }, 15);
    expect(ranges.length).toBeGreaterThanOrEqual(27);
    expect(ranges.length).toBeLessThanOrEqual(29);
    const widestDeg = 15 / (111.2 * Math.cos((33.4106 * Math.PI) / 180));
    for (const r of ranges) expect((r.lngTo - r.lngFrom) / 2).toBeLessThan(widestDeg * 1.01);
    // Far outside: not covered.
    expect(covered(ranges, destination({ lat: 33.4106, lng: -111.9712 }, 16, 90))).toBe(false);
  });

  it('splits ranges at the antimeridian and takes whole strips around a pole', () => {
    const across = stripRanges({ lat: 0, lng: 179.99 }, 10);
    expect(across.some((r) => r.lngFrom === -180)).toBe(true);
    expect(across.some((r) => r.lngTo === 180)).toBe(true);
    const polar = stripRanges({ lat: 89.95, lng: 0 }, 20);
    expect(polar.filter((r) => r.lngFrom === -180 && r.lngTo === 180).length).toBeGreaterThan(0);
  });
});

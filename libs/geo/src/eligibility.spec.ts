import { SEVERITIES, Severity } from '@beacon/contracts';
import { destination, greatCircleKm, hasCoordinates } from './distance';
import { distanceLimitKm, EligibilityAlert, EligibilityUser, isEligible } from './eligibility';
import { insidePolygon } from './polygon';

const PHOENIX = { lat: 33.4484, lng: -112.074 };

const alert = (over: Partial<EligibilityAlert> = {}): EligibilityAlert => ({
  severity: 'high',
  category: 'traffic',
  lat: PHOENIX.lat,
  lng: PHOENIX.lng,
  radiusKm: 10,
  ...over,
});
const user = (over: Partial<EligibilityUser> = {}): EligibilityUser => ({
  severityThreshold: 'low',
  categories: ['traffic', 'weather'],
  lat: PHOENIX.lat,
  lng: PHOENIX.lng,
  radiusKm: 40,
  ...over,
});

describe('greatCircleKm', () => {
  it('is zero for the same point and symmetric', () => {
    expect(greatCircleKm(PHOENIX, PHOENIX)).toBe(0);
    const tucson = { lat: 32.2226, lng: -110.9747 };
    expect(greatCircleKm(PHOENIX, tucson)).toBeCloseTo(greatCircleKm(tucson, PHOENIX), 9);
  });

  it('uses R = 6371 km: a quarter meridian is pi/2 * 6371', () => {
    expect(greatCircleKm({ lat: 0, lng: 0 }, { lat: 90, lng: 0 })).toBeCloseTo((Math.PI / 2) * 6371, 6);
    expect(greatCircleKm({ lat: 0, lng: 0 }, { lat: 0, lng: 180 })).toBeCloseTo(Math.PI * 6371, 6);
  });

  it('matches a known distance (Phoenix to Tucson, about 170 km)', () => {
    expect(greatCircleKm(PHOENIX, { lat: 32.2226, lng: -110.9747 })).toBeGreaterThan(168);
    expect(greatCircleKm(PHOENIX, { lat: 32.2226, lng: -110.9747 })).toBeLessThan(173);
  });

  it('destination() lands at the requested distance', () => {
    for (const km of [0.5, 10, 250]) {
      for (const bearing of [0, 45, 90, 200, 315]) expect(greatCircleKm(PHOENIX, destination(PHOENIX, km, bearing))).toBeCloseTo(km, 6);
    }
  });
});

describe('hasCoordinates', () => {
  it.each([
    [{ lat: 0, lng: 0 }, true],
    [{ lat: null, lng: 1 }, false],
    [{ lat: 1, lng: null }, false],
    [{ lat: Number.NaN, lng: 1 }, false],
    [{ lat: 91, lng: 1 }, false],
    [{}, false],
  ])('%j -> %s', (p, expected) => expect(hasCoordinates(p as never)).toBe(expected));
});

describe('isEligible', () => {
  describe('severity threshold (order low < medium < high < critical)', () => {
    const cases: [Severity, Severity, boolean][] = [];
    for (const a of SEVERITIES) for (const t of SEVERITIES) cases.push([a, t, SEVERITIES.indexOf(a) >= SEVERITIES.indexOf(t)]);
    it.each(cases)('alert %s vs threshold %s -> %s', (severity, threshold, expected) => {
      expect(isEligible(alert({ severity }), user({ severityThreshold: threshold }))).toBe(expected);
    });

    it('equality is enough', () => {
      expect(isEligible(alert({ severity: 'medium' }), user({ severityThreshold: 'medium' }))).toBe(true);
      expect(isEligible(alert({ severity: 'critical' }), user({ severityThreshold: 'critical' }))).toBe(true);
    });

    it('one step below is not', () => {
      expect(isEligible(alert({ severity: 'high' }), user({ severityThreshold: 'critical' }))).toBe(false);
      expect(isEligible(alert({ severity: 'low' }), user({ severityThreshold: 'medium' }))).toBe(false);
    });
  });

  describe('category', () => {
    it('must be one of the user categories', () => {
      expect(isEligible(alert({ category: 'weather' }), user())).toBe(true);
      expect(isEligible(alert({ category: 'health' }), user())).toBe(false);
    });
    it('an empty category list receives nothing', () => {
      expect(isEligible(alert(), user({ categories: [] }))).toBe(false);
    });
    it('matches exactly, not by prefix or case', () => {
      expect(isEligible(alert({ category: 'public_safety' }), user({ categories: ['public'] }))).toBe(false);
      expect(isEligible(alert({ category: 'traffic' }), user({ categories: ['Traffic'] }))).toBe(false);
    });
  });

  describe('missing coordinates', () => {
    const far = destination(PHOENIX, 500, 90);
    it('a user without a home gets no alert with an area (issue #42), circle, polygon or several parts', () => {
      expect(isEligible(alert(), user({ lat: null, lng: null }))).toBe(false);
      expect(isEligible(alert(), user({ lat: far.lat, lng: null }))).toBe(false);
      expect(isEligible(alert({ severity: 'critical' }), user({ lat: null, lng: null }))).toBe(false);
      const ring: [number, number][] = [
        [33.5, -112.1],
        [33.4, -112.2],
        [33.4, -112.0],
      ];
      expect(isEligible(alert({ radiusKm: null, polygon: ring }), user({ lat: null, lng: null }))).toBe(false);
      expect(
        isEligible(
          alert({
            radiusKm: null,
            parts: [
              { type: 'polygon', points: ring },
              { type: 'circle', ...PHOENIX, radiusKm: 5 },
            ],
          }),
          user({ lat: null, lng: null }),
        ),
      ).toBe(false);
    });
    it('but every alert with no area: the alerts for everyone', () => {
      expect(isEligible(alert({ lat: null, lng: null }), user({ lat: null, lng: null }))).toBe(true);
      expect(isEligible(alert({ radiusKm: null }), user({ lat: null, lng: null }))).toBe(true);
    });
    it('alert without coordinates: location does not restrict', () => {
      expect(isEligible(alert({ lat: null, lng: null }), user(far))).toBe(true);
      expect(isEligible(alert({ lat: null }), user(far))).toBe(true);
    });
    it('alert without a radius', () => {
      expect(isEligible(alert({ radiusKm: null }), user(far))).toBe(true);
    });
    it('but the other rules still apply', () => {
      expect(isEligible(alert({ lat: null, lng: null, severity: 'low' }), user({ severityThreshold: 'high' }))).toBe(false);
      expect(isEligible(alert({ radiusKm: null, category: 'health' }), user())).toBe(false);
    });
  });

  describe('distance', () => {
    const at = (km: number) => destination(PHOENIX, km, 37);

    it('exactly at the limit is eligible, just beyond is not', () => {
      const place = at(10);
      const exact = greatCircleKm(PHOENIX, place); // the limit, to the last bit
      expect(isEligible(alert({ radiusKm: exact }), user({ ...place, radiusKm: 100 }))).toBe(true);
      expect(isEligible(alert({ radiusKm: 100 }), user({ ...place, radiusKm: exact }))).toBe(true);
      const below = exact - 1e-9;
      expect(isEligible(alert({ radiusKm: below }), user({ ...place, radiusKm: 100 }))).toBe(false);
      expect(isEligible(alert({ radiusKm: 100 }), user({ ...place, radiusKm: below }))).toBe(false);
    });

    it('uses the smaller of the two radii', () => {
      const place = at(15);
      // alert radius smaller: bound by the alert
      expect(isEligible(alert({ radiusKm: 10 }), user({ ...place, radiusKm: 50 }))).toBe(false);
      expect(isEligible(alert({ radiusKm: 20 }), user({ ...place, radiusKm: 50 }))).toBe(true);
      // user radius smaller: bound by the user, though the alert reaches further
      expect(isEligible(alert({ radiusKm: 50 }), user({ ...place, radiusKm: 10 }))).toBe(false);
      expect(isEligible(alert({ radiusKm: 50 }), user({ ...place, radiusKm: 20 }))).toBe(true);
      expect(distanceLimitKm(alert({ radiusKm: 50 }), user({ radiusKm: 20 }))).toBe(20);
      expect(distanceLimitKm(alert({ radiusKm: 5 }), user({ radiusKm: 20 }))).toBe(5);
    });

    it('a user without a radius is bound by the alert radius', () => {
      expect(distanceLimitKm(alert({ radiusKm: 7 }), user({ radiusKm: null }))).toBe(7);
      expect(isEligible(alert({ radiusKm: 10 }), user({ ...at(9), radiusKm: null }))).toBe(true);
      expect(isEligible(alert({ radiusKm: 10 }), user({ ...at(11), radiusKm: null }))).toBe(false);
    });

    it('same point is always within any radius, even zero', () => {
      expect(isEligible(alert({ radiusKm: 0 }), user({ radiusKm: 0 }))).toBe(true);
    });

    it('works across the antimeridian', () => {
      const a = { lat: 0, lng: 179.95 };
      const u = { lat: 0, lng: -179.95 }; // about 11 km apart
      expect(isEligible(alert({ ...a, radiusKm: 12 }), user({ ...u, radiusKm: 12 }))).toBe(true);
      expect(isEligible(alert({ ...a, radiusKm: 10 }), user({ ...u, radiusKm: 12 }))).toBe(false);
    });
  });

  describe('a drawn polygon (issue #19)', () => {
    // A concave "C" around Phoenix: its notch is outside.
    const C: [number, number][] = [
      [33.6, -112.2],
      [33.6, -111.9],
      [33.5, -111.9],
      [33.5, -112.1],
      [33.4, -112.1],
      [33.4, -111.9],
      [33.3, -111.9],
      [33.3, -112.2],
    ];
    const polygonAlert = alert({ lat: 33.45, lng: -112.05, radiusKm: null, polygon: C });

    it('concerns a located user inside, whatever their own radius, and not one in the notch or outside', () => {
      expect(isEligible(polygonAlert, user({ lat: 33.55, lng: -112.0, radiusKm: 1 }))).toBe(true);
      expect(isEligible(polygonAlert, user({ lat: 33.45, lng: -112.0, radiusKm: 500 }))).toBe(false);
      expect(isEligible(polygonAlert, user({ lat: 33.7, lng: -112.0 }))).toBe(false);
    });

    it('concerns no user without a home, as a circle does not, and still checks severity and category', () => {
      expect(isEligible(polygonAlert, user({ lat: null, lng: null }))).toBe(false);
      expect(isEligible(polygonAlert, user({ lat: 33.55, lng: -112.0, categories: ['weather'] }))).toBe(false);
    });

    it('reads a ring across the antimeridian (longitudes east of 180) at both of a home’s longitudes', () => {
      const ring: [number, number][] = [
        [-16, 179],
        [-19, 179],
        [-17.5, 181.5],
      ];
      expect(insidePolygon(ring, -17.5, -179.5)).toBe(true);
      expect(insidePolygon(ring, -17.5, 179.5)).toBe(true);
      expect(insidePolygon(ring, -17.5, 178.5)).toBe(false);
    });
  });
  describe('several parts (issue #42)', () => {
    // Two polygons, one across the antimeridian, and a circle overlapping the first.
    const west: [number, number][] = [
      [33.6, -112.2],
      [33.6, -112.0],
      [33.4, -112.0],
      [33.4, -112.2],
    ];
    const fiji: [number, number][] = [
      [-16, 179],
      [-19, 179],
      [-17.5, 181.5],
    ];
    const multi = alert({
      lat: 0,
      lng: 0,
      radiusKm: null,
      parts: [
        { type: 'polygon', points: west, description: 'West' },
        { type: 'polygon', points: fiji },
        { type: 'circle', lat: 33.5, lng: -112.0, radiusKm: 10 },
      ],
    });

    it('concerns whoever is in any part: a polygon, the one across the antimeridian, the circle, or two of them', () => {
      expect(isEligible(multi, user({ lat: 33.5, lng: -112.15, radiusKm: 1 }))).toBe(true);
      expect(isEligible(multi, user({ lat: -17.5, lng: -179.5 }))).toBe(true);
      expect(isEligible(multi, user({ lat: -17.5, lng: 179.5 }))).toBe(true);
      expect(isEligible(multi, user({ lat: 33.5, lng: -111.95, radiusKm: 40 }))).toBe(true);
      expect(isEligible(multi, user({ lat: 33.5, lng: -112.01, radiusKm: 40 }))).toBe(true);
    });

    it('and no one outside them all, a circle part bound by the smaller radius as a circle alert is', () => {
      expect(isEligible(multi, user({ lat: 33.5, lng: -111.8, radiusKm: 40 }))).toBe(false);
      expect(isEligible(multi, user({ lat: 33.5, lng: -111.95, radiusKm: 1 }))).toBe(false);
      expect(isEligible(multi, user({ lat: -17.5, lng: 178.5 }))).toBe(false);
      expect(isEligible(multi, user({ lat: 0, lng: 0 }))).toBe(false);
    });

    it('still checks severity and category', () => {
      expect(isEligible(multi, user({ lat: 33.5, lng: -112.15, categories: ['weather'] }))).toBe(false);
      expect(isEligible({ ...multi, severity: 'low' }, user({ lat: 33.5, lng: -112.15, severityThreshold: 'high' }))).toBe(false);
    });
  });
  describe('contact groups (issue #42)', () => {
    const SCHOOL = 'b7d1c2a0-0000-4000-8000-000000000001';
    const ROADS = 'b7d1c2a0-0000-4000-8000-000000000002';
    const far = { lat: 40.7128, lng: -74.006 };
    const picky = { severityThreshold: 'critical' as Severity, categories: ['health'] };

    it('concerns a member of a targeted group wherever they live and whatever their severity and categories', () => {
      const a = alert({ groups: [SCHOOL] });
      expect(isEligible(a, user({ ...far, ...picky, groups: [SCHOOL] }))).toBe(true);
      expect(isEligible(a, user({ lat: null, lng: null, ...picky, groups: [ROADS, SCHOOL] }))).toBe(true);
    });

    it('with an area, adds the members to the area rule: the people in the area still get it, others not', () => {
      const a = alert({ groups: [SCHOOL] });
      expect(isEligible(a, user())).toBe(true);
      expect(isEligible(a, user({ ...far, groups: [ROADS] }))).toBe(false);
      expect(isEligible(a, user({ ...picky, groups: [ROADS] }))).toBe(false);
    });

    it('without an area, is for the members alone: not everyone, and not those without a home', () => {
      const a = alert({ lat: null, lng: null, radiusKm: null, groups: [SCHOOL, ROADS] });
      expect(isEligible(a, user({ groups: [ROADS] }))).toBe(true);
      expect(isEligible(a, user())).toBe(false);
      expect(isEligible(a, user({ lat: null, lng: null }))).toBe(false);
      // no groups at all is everyone, as before
      expect(isEligible({ ...a, groups: [] }, user({ lat: null, lng: null }))).toBe(true);
    });
  });
});

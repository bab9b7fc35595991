import type { AlertAreaPart } from '@beacon/contracts';
import { insideRing } from '@beacon/geo';
/**
 * The longitude ranges, one per 0.01-degree latitude strip, that together contain a circle on the sphere:
 * what the dispatcher reads from alerts.user_preferences_strip_idx (geo_strip, lng) instead of a bounding box.
 * The ranges only have to CONTAIN the circle (the exact haversine check in eligibilityWhere decides), so
 * they are computed generously: each strip's widest point, widened by a relative and an absolute margin.
 */

/** Must match `floor(lat * 100)` in the FastEligibility migration's geo_strip column. */
export const STRIPS_PER_DEGREE = 100;

const EARTH_RADIUS_KM = 6371;
const rad = (deg: number) => (deg * Math.PI) / 180;
const deg = (r: number) => (r * 180) / Math.PI;

export interface StripRange {
  strip: number;
  lngFrom: number;
  lngTo: number;
  /** Every point of the range is inside the area, so the exact test is not needed (polygonStripRanges). */
  inside?: boolean;
  /** An area of several parts (partsStripRanges): bit k set when part k may hold a point of the range, the parts to test. */
  parts?: bigint;
}

/** Half the longitude extent (degrees) of the circle at latitude `lat`: 0 outside it, 180 when it wraps. */
function halfWidthAt(lat0: number, lat: number, d: number): number {
  const c = (Math.cos(d) - Math.sin(rad(lat0)) * Math.sin(rad(lat))) / (Math.cos(rad(lat0)) * Math.cos(rad(lat)));
  if (!Number.isFinite(c) || c <= -1) return 180;
  if (c >= 1) return 0;
  return deg(Math.acos(c));
}

export function stripRanges(centre: { lat: number; lng: number }, radiusKm: number): StripRange[] {
  // 0.1% and ~1 m of slack: floating-point differences between this and PostgreSQL never cut a user.
  const d = (radiusKm * 1.001 + 0.001) / EARTH_RADIUS_KM;
  const latFrom = Math.max(-90, centre.lat - deg(d));
  const latTo = Math.min(90, centre.lat + deg(d));
  const poleward = Math.sin(rad(centre.lat)) / Math.cos(d); // latitude of the circle's widest point, when it has one
  const widest = Math.abs(poleward) <= 1 ? deg(Math.asin(poleward)) : null;
  const ranges: StripRange[] = [];
  for (let strip = Math.floor(latFrom * STRIPS_PER_DEGREE); strip <= Math.floor(latTo * STRIPS_PER_DEGREE); strip++) {
    const from = Math.max(latFrom, strip / STRIPS_PER_DEGREE);
    const to = Math.min(latTo, (strip + 1) / STRIPS_PER_DEGREE);
    const probes = [from, to];
    if (widest !== null && widest > from && widest < to) probes.push(widest);
    // A circle reaching a pole, or crossing the strip's whole width, takes every longitude.
    const half = Math.max(...probes.map((lat) => (Math.abs(lat) >= 89.999 ? 180 : halfWidthAt(centre.lat, lat, d))));
    if (half >= 179.999 || d >= Math.PI / 2) {
      ranges.push({ strip, lngFrom: -180, lngTo: 180 });
      continue;
    }
    const lo = centre.lng - half - 1e-9;
    const hi = centre.lng + half + 1e-9;
    // Across the antimeridian a range splits in two.
    if (lo < -180) ranges.push({ strip, lngFrom: lo + 360, lngTo: 180 }, { strip, lngFrom: -180, lngTo: hi });
    else if (hi > 180) ranges.push({ strip, lngFrom: lo, lngTo: 180 }, { strip, lngFrom: -180, lngTo: hi - 360 });
    else ranges.push({ strip, lngFrom: lo, lngTo: hi });
  }
  return ranges;
}

/** The next double above / below x: bounds that touch without overlapping. */
function nextDouble(x: number, up: boolean): number {
  if (x === 0) return up ? Number.MIN_VALUE : -Number.MIN_VALUE;
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  view.setBigInt64(0, view.getBigInt64(0) + (x > 0 === up ? 1n : -1n));
  return view.getFloat64(0);
}

/**
 * The longitude ranges per 0.01-degree latitude strip that together contain a polygon, each marked whether every
 * point in it is inside. Per strip, the x-extents of the polygon's edges clipped to the strip (widened by a small
 * margin), merged, are ranges the exact test decides (inside false); between two of them no edge passes, so the
 * whole stretch is inside or outside, which one point decides (libs/geo insideRing): an inside stretch is a range
 * with inside true, which needs no test, an outside one is not read at all. Ranges touch without overlapping, so
 * no user is read twice. `ring` is the stored form (unwrapped [lat, lng] corners, alert-area.ts): a range east of
 * 180 is read at its longitude - 360.
 */
export function polygonStripRanges(ring: readonly (readonly [number, number])[]): StripRange[] {
  const margin = 1e-6;
  const extents = new Map<number, [number, number][]>();
  const add = (strip: number, xa: number, xb: number) => {
    const list = extents.get(strip) ?? extents.set(strip, []).get(strip)!;
    list.push([Math.min(xa, xb) - margin, Math.max(xa, xb) + margin]);
  };
  for (let i = 0; i < ring.length; i++) {
    const [y1, x1] = ring[i];
    const [y2, x2] = ring[(i + 1) % ring.length];
    const yLo = Math.max(-90, Math.min(y1, y2) - margin);
    const yHi = Math.min(90, Math.max(y1, y2) + margin);
    for (let strip = Math.floor(yLo * STRIPS_PER_DEGREE); strip <= Math.floor(yHi * STRIPS_PER_DEGREE); strip++) {
      if (y1 === y2) {
        add(strip, x1, x2);
        continue;
      }
      const ta = (strip / STRIPS_PER_DEGREE - margin - y1) / (y2 - y1);
      const tb = ((strip + 1) / STRIPS_PER_DEGREE + margin - y1) / (y2 - y1);
      const t0 = Math.max(0, Math.min(ta, tb));
      const t1 = Math.min(1, Math.max(ta, tb));
      if (t0 <= t1) add(strip, x1 + (x2 - x1) * t0, x1 + (x2 - x1) * t1);
    }
  }
  const ranges: StripRange[] = [];
  const push = (strip: number, from: number, to: number, inside: boolean) => {
    if (from <= 180) ranges.push({ strip, lngFrom: Math.max(-180, from), lngTo: Math.min(180, to), inside });
    if (to > 180) ranges.push({ strip, lngFrom: Math.max(-180, from - 360), lngTo: to - 360, inside });
  };
  for (const [strip, list] of [...extents].sort((a, b) => a[0] - b[0])) {
    list.sort((a, b) => a[0] - b[0]);
    const merged: [number, number][] = [];
    for (const [lo, hi] of list) {
      const last = merged[merged.length - 1];
      if (last && lo <= last[1]) last[1] = Math.max(last[1], hi);
      else merged.push([lo, hi]);
    }
    const yMid = (strip + 0.5) / STRIPS_PER_DEGREE;
    merged.forEach(([lo, hi], k) => {
      push(strip, lo, hi, false);
      const next = merged[k + 1];
      if (next && insideRing(ring, yMid, (hi + next[0]) / 2)) push(strip, nextDouble(hi, true), nextDouble(next[0], false), true);
    });
  }
  return ranges;
}

/** The ranges of one part: stripRanges for a circle, polygonStripRanges for a polygon (its stored, unwrapped ring). */
const partRanges = (part: AlertAreaPart): StripRange[] => (part.type === 'circle' ? stripRanges(part, part.radiusKm) : polygonStripRanges(part.points));

/**
 * The ranges per strip that together contain an area of several parts (alert-area.ts StoredArea.parts): per strip,
 * the union of the parts' ranges, no two overlapping, so a person in two parts is read once. Where some part's range
 * is wholly inside it, the range is `inside` (no exact test); the rest are the other ranges less those, each with
 * `parts`, the bits of the parts whose ranges meet it: the exact test need only try those. In -180..180 like each
 * part's, in order of strip and longitude.
 */
export function partsStripRanges(parts: readonly AlertAreaPart[]): StripRange[] {
  const byStrip = new Map<number, { inside: StripRange[]; test: (StripRange & { parts: bigint })[] }>();
  parts.forEach((part, k) => {
    for (const r of partRanges(part)) {
      const lists = byStrip.get(r.strip) ?? byStrip.set(r.strip, { inside: [], test: [] }).get(r.strip)!;
      if (r.inside) lists.inside.push(r);
      else lists.test.push({ ...r, parts: 1n << BigInt(k) });
    }
  });
  const ranges: StripRange[] = [];
  for (const [strip, { inside, test }] of [...byStrip].sort((a, b) => a[0] - b[0])) {
    const insideMerged = merged(inside);
    const inStrip: StripRange[] = insideMerged.map(([lo, hi]) => ({ strip, lngFrom: lo, lngTo: hi, inside: true }));
    for (const [lo, hi] of merged(test)) {
      for (const [from, to] of without([lo, hi], insideMerged)) {
        let bits = 0n;
        for (const r of test) if (r.lngFrom <= to && r.lngTo >= from) bits |= r.parts;
        inStrip.push({ strip, lngFrom: from, lngTo: to, inside: false, parts: bits });
      }
    }
    ranges.push(...inStrip.sort((a, b) => a.lngFrom - b.lngFrom));
  }
  return ranges;
}

/** One index read of an area of several parts: a range of a strip, what of it is known to be inside, the parts to test for the rest. */
export interface PartsProbe {
  strip: number;
  lngFrom: number;
  lngTo: number;
  /** The stretch of the range wholly inside the area (no exact test), null when none. */
  insideFrom: number | null;
  insideTo: number | null;
  /** Bit k: part k may hold a point of the rest of the range. */
  parts: bigint;
}

/**
 * partsStripRanges read with fewer index reads: ranges of a strip that touch (a part's edge, its inside, its other
 * edge) are read as one, with the inside stretch kept apart (one per read), so an area of several parts costs about one
 * read per part per strip, as one polygon costs three.
 */
export function partsProbes(parts: readonly AlertAreaPart[]): PartsProbe[] {
  const probes: PartsProbe[] = [];
  for (const r of partsStripRanges(parts)) {
    const last = probes[probes.length - 1];
    const touches = last && last.strip === r.strip && r.lngFrom <= nextDouble(last.lngTo, true);
    if (touches && !(r.inside && last.insideFrom !== null)) {
      last.lngTo = r.lngTo;
      if (r.inside) [last.insideFrom, last.insideTo] = [r.lngFrom, r.lngTo];
      else last.parts |= r.parts ?? 0n;
    } else {
      probes.push({
        strip: r.strip,
        lngFrom: r.lngFrom,
        lngTo: r.lngTo,
        insideFrom: r.inside ? r.lngFrom : null,
        insideTo: r.inside ? r.lngTo : null,
        parts: r.inside ? 0n : (r.parts ?? 0n),
      });
    }
  }
  return probes;
}

/** The ranges' union as disjoint closed intervals, in order (ranges that only touch stay apart). */
function merged(list: readonly StripRange[]): [number, number][] {
  const out: [number, number][] = [];
  for (const { lngFrom, lngTo } of [...list].sort((a, b) => a.lngFrom - b.lngFrom)) {
    const last = out[out.length - 1];
    if (last && lngFrom <= last[1]) last[1] = Math.max(last[1], lngTo);
    else out.push([lngFrom, lngTo]);
  }
  return out;
}

/** The closed interval less the (disjoint, ordered) closed intervals `holes`, as closed intervals that touch none. */
function without([lo, hi]: [number, number], holes: readonly [number, number][]): [number, number][] {
  const out: [number, number][] = [];
  let from = lo;
  for (const [a, b] of holes) {
    if (b < from || a > hi) continue;
    if (a > from) out.push([from, nextDouble(a, false)]);
    from = Math.max(from, nextDouble(b, true));
  }
  if (from <= hi) out.push([from, hi]);
  return out;
}

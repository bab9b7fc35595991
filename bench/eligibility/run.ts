import { Client } from 'pg';
import { AlertAreaPart, polygonAreaKm2 } from '@beacon/contracts';
import { seededRandom } from '@beacon/common';
import { destination } from '@beacon/geo';
import { toAlertArea } from '../../services/alerts/src/alerts/alert-area';
import { eligibleUsersSql, SqlParams } from '../../services/alerts/src/deliveries/eligibility.sql';
import { toPgPolygon } from '../../services/alerts/src/deliveries/polygon-column';
import { BENCH_ALERT, Population } from '../dispatch/population';
import { seedDatabase } from '../dispatch/seed';

/**
 * The eligibility statement alone, for drawn areas (issue #19) against the circle the dispatch benchmark sends, in
 * the same run on the same data: the dispatch benchmark's population (bench/dispatch/population.ts, seeded the same
 * way into its own database), then eligibleUsersSql for a 15 km circle at I-10 / Tempe (the baseline), a 12-corner
 * concave polygon and a 200-corner polygon of about the same area there, and a 60 km polygon over most of the metro;
 * then an area of 21 polygons of ~70,000 km² in all tiling a region about the size of Canada's Maritimes with gaps
 * between them (issue #42, like an official frost advisory) over the metro, beside one polygon of the same extent
 * (their convex hull). Each: median of 5 wall times of `SELECT count(*)` over it, warm; the 12-corner polygon's plan
 * and the 21 polygons' are printed. Prints the figures, each one's ratio to the circle, and the 21 polygons' to their
 * hull.
 *
 *   npm run bench:eligibility [-- --subscribers N]     (1,000,000 by default; the database is dropped and recreated)
 */
const arg = (flag: string, fallback: number) => {
  const i = process.argv.indexOf(flag);
  const n = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(n) || n < 100) throw new Error(`${flag} must be an integer of at least 100`);
  return n;
};
const SUBSCRIBERS = arg('--subscribers', 1_000_000);
const ADMIN_URL = process.env.BENCH_DATABASE_ADMIN_URL || process.env.TEST_DATABASE_ADMIN_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const DATABASE = 'beacon_bench_eligibility';
const CENTRE = { lat: BENCH_ALERT.lat, lng: BENCH_ALERT.lng };

/** `n` corners around the centre at `km`, every other one pulled in by `dent` (0: convex). */
function star(km: number, n: number, dent: number): [number, number][] {
  return Array.from({ length: n }, (_, i) => {
    const p = destination(CENTRE, i % 2 ? km * (1 - dent) : km, (360 * i) / n);
    return [p.lat, p.lng] as [number, number];
  });
}

interface Case {
  name: string;
  lat: number;
  lng: number;
  radius_km: number | null;
  area_polygon: string | null;
  area_parts?: AlertAreaPart[] | null;
}

function polygonCase(name: string, ring: [number, number][]): Case {
  const area = toAlertArea({ area: { type: 'polygon', points: ring } });
  return { name, lat: area.lat!, lng: area.lng!, radius_km: null, area_polygon: toPgPolygon(area.polygon!) };
}

function partsCase(name: string, parts: [number, number][][]): Case {
  const area = toAlertArea({ area: { type: 'multi', parts: parts.map((points) => ({ type: 'polygon', points })) } });
  return { name, lat: area.lat!, lng: area.lng!, radius_km: null, area_polygon: null, area_parts: area.parts };
}

/**
 * 21 polygons in 7 columns and 3 rows over a region of 3.2 by 2.6 degrees (about 300 by 290 km) centred on the
 * benchmark's alert, as a warning authority's zones: each a cell's outline walked with 40 corners pushed in by up to
 * 3% of the cell, 4% of the cell left between neighbours, so the gaps run through the metro's population.
 */
function frostAdvisory(): [number, number][][] {
  const random = seededRandom(42);
  const [cols, rows, width, height] = [7, 3, 3.2, 2.6];
  const [w, h] = [width / cols, height / rows];
  const parts: [number, number][][] = [];
  for (let row = 0; row < rows; row++) {
    for (let col = 0; col < cols; col++) {
      const south = CENTRE.lat - height / 2 + row * h + 0.02 * h;
      const west = CENTRE.lng - width / 2 + col * w + 0.02 * w;
      const [cw, ch] = [0.96 * w, 0.96 * h];
      const ring: [number, number][] = [];
      for (let k = 0; k < 40; k++) {
        const t = (4 * k) / 40; // around the outline: south edge, east, north, west
        const side = Math.floor(t);
        const f = t - side;
        const pull = 0.03 * random();
        const [x, y] = [
          [f, pull],
          [1 - pull, f],
          [1 - f, 1 - pull],
          [pull, 1 - f],
        ][side];
        ring.push([south + y * ch, west + x * cw]);
      }
      parts.push(ring);
    }
  }
  return parts;
}

/** The convex hull of the points (Andrew's monotone chain in the lng/lat plane), as [lat, lng] corners. */
function hull(points: [number, number][]): [number, number][] {
  const sorted = [...points].sort((a, b) => a[1] - b[1] || a[0] - b[0]);
  const cross = (o: [number, number], a: [number, number], b: [number, number]) => (a[1] - o[1]) * (b[0] - o[0]) - (a[0] - o[0]) * (b[1] - o[1]);
  const half = (list: [number, number][]) => {
    const out: [number, number][] = [];
    for (const p of list) {
      while (out.length >= 2 && cross(out[out.length - 2], out[out.length - 1], p) <= 0) out.pop();
      out.push(p);
    }
    return out.slice(0, -1);
  };
  return [...half(sorted), ...half([...sorted].reverse())];
}

async function measure(db: Client, c: Case) {
  const params = new SqlParams();
  const sql = eligibleUsersSql({ ...c, severity: 'critical', category: 'traffic', source: 'admin', created_by: null }, params);
  const times: number[] = [];
  let rows = 0;
  for (let i = 0; i < 6; i++) {
    const t = performance.now();
    rows = (await db.query(`SELECT count(*)::int AS n FROM (${sql}) e`, params.values)).rows[0].n;
    if (i > 0) times.push(performance.now() - t); // the first run warms the cache
  }
  times.sort((a, b) => a - b);
  const { rows: plan } = await db.query(`EXPLAIN (ANALYZE, BUFFERS) SELECT count(*) FROM (${sql}) e`, params.values);
  return { ms: times[2], rows, plan: plan.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n') };
}

async function main() {
  const log = (s: string) => console.log(s);
  log(`eligibility benchmark: ${SUBSCRIBERS.toLocaleString('en-US')} subscribers`);
  const seeded = await seedDatabase(ADMIN_URL, DATABASE, new Population(SUBSCRIBERS), 'https://127.0.0.1:9', log);
  log(`seeded in ${seeded.seconds.toFixed(1)} s`);
  const db = new Client({ connectionString: seeded.url });
  await db.connect();
  try {
    const cases: Case[] = [
      { name: 'circle 15 km (baseline)', ...CENTRE, radius_km: 15, area_polygon: null },
      polygonCase('polygon, 12 corners, concave, ~15 km', star(16, 12, 0.3)),
      polygonCase('polygon, 200 corners, ~15 km', star(15.5, 200, 0.05)),
      polygonCase('polygon, 40 corners, ~60 km (the metro)', star(60, 40, 0.2)),
    ];
    const advisory = frostAdvisory();
    const km2 = advisory.reduce((sum, ring) => sum + polygonAreaKm2(ring), 0);
    const outline = hull(advisory.flat());
    cases.push(
      partsCase(`21 polygons, ${Math.round(km2).toLocaleString('en-US')} km² (issue #42)`, advisory),
      polygonCase(`their hull, ${outline.length} corners, ${Math.round(polygonAreaKm2(outline)).toLocaleString('en-US')} km²`, outline),
    );
    const results = [];
    for (const c of cases) results.push({ c, ...(await measure(db, c)) });
    const base = results[0].ms;
    log('\n| alert area | eligible users | eligibility query | ratio to the circle |\n|--|--|--|--|');
    for (const r of results) log(`| ${r.c.name} | ${r.rows.toLocaleString('en-US')} | ${r.ms.toFixed(1)} ms | ${(r.ms / base).toFixed(2)}x |`);
    const [parts, whole] = results.slice(-2);
    log(`\n21 polygons / one polygon of the same extent: ${parts.ms.toFixed(1)} ms / ${whole.ms.toFixed(1)} ms = ${(parts.ms / whole.ms).toFixed(2)}x`);
    log(`\nplan of "${results[1].c.name}":\n${results[1].plan}`);
    log(`\nplan of "${parts.c.name}":\n${parts.plan}`);
  } finally {
    await db.end();
  }
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});

import { Client } from 'pg';
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
 * concave polygon and a 200-corner polygon of about the same area there, and a 60 km polygon over most of the metro.
 * Each: median of 5 wall times of `SELECT count(*)` over it, warm; the polygon's plan is printed. Prints the
 * figures and each one's ratio to the circle.
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
}

function polygonCase(name: string, ring: [number, number][]): Case {
  const area = toAlertArea({ area: { type: 'polygon', points: ring } });
  return { name, lat: area.lat!, lng: area.lng!, radius_km: null, area_polygon: toPgPolygon(area.polygon!) };
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
    const results = [];
    for (const c of cases) results.push({ c, ...(await measure(db, c)) });
    const base = results[0].ms;
    log('\n| alert area | eligible users | eligibility query | ratio to the circle |\n|--|--|--|--|');
    for (const r of results) log(`| ${r.c.name} | ${r.rows.toLocaleString('en-US')} | ${r.ms.toFixed(1)} ms | ${(r.ms / base).toFixed(2)}x |`);
    log(`\nplan of "${results[1].c.name}":\n${results[1].plan}`);
  } finally {
    await db.end();
  }
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});

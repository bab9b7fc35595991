import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Client } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { migrateUp } from '@beacon/common';
import { alertsDatabase } from '../../services/alerts/src/database';
import { Population } from './population';

const ROWS_PER_CHUNK = 5000;

export async function withClient<T>(url: string, fn: (c: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export function databaseUrl(adminUrl: string, name: string) {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

const copyText = (v: string | number | boolean | null) => (v === null ? '\\N' : typeof v === 'boolean' ? (v ? 't' : 'f') : String(v));

/** COPY rows produced `ROWS_PER_CHUNK` at a time, so memory stays flat whatever N is. */
async function copyRows(url: string, sql: string, size: number, row: (i: number) => string | null) {
  await withClient(url, async (client) => {
    function* chunks() {
      for (let start = 0; start < size; start += ROWS_PER_CHUNK) {
        let text = '';
        for (let i = start; i < Math.min(size, start + ROWS_PER_CHUNK); i++) {
          const line = row(i);
          if (line !== null) text += line;
        }
        yield text;
      }
    }
    await pipeline(Readable.from(chunks()), client.query(copyFrom(sql)));
  });
}

export interface SeedResult {
  url: string;
  seconds: number;
  preferences: number;
  subscriptions: number;
}

/**
 * (Re)creates the benchmark database from scratch: DROP, CREATE, the alerts schema's real migrations, then
 * COPY of the population. Secondary indexes are dropped for the load and rebuilt from their own definitions
 * afterwards (faster than maintaining them row by row), then VACUUM ANALYZE, as after a bulk load in production.
 */
export async function seedDatabase(adminUrl: string, name: string, population: Population, pushOrigin: string, log: (s: string) => void): Promise<SeedResult> {
  const started = performance.now();
  await withClient(adminUrl, async (c) => {
    await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await c.query(`CREATE DATABASE "${name}"`);
  });
  const url = databaseUrl(adminUrl, name);
  await migrateUp(url, alertsDatabase);

  const indexes = await withClient(url, async (c) => {
    const { rows } = await c.query<{ name: string; def: string }>(
      `SELECT i.indexname AS name, i.indexdef AS def FROM pg_indexes i
       WHERE i.schemaname = 'alerts' AND i.tablename IN ('user_preferences', 'push_subscriptions')
         AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conname = i.indexname)`,
    );
    for (const r of rows) await c.query(`DROP INDEX alerts."${r.name}"`);
    return rows;
  });

  const p = population;
  const origin = pushOrigin.replace(/\/$/, '');
  const [, subscriptions] = await Promise.all([
    copyRows(
      url,
      `COPY alerts.user_preferences (user_id, email, severity_threshold, alert_types, categories, push_enabled, sms_enabled, email_enabled,
         voice_enabled, phone_number, lat, lng, radius_km, quiet_enabled, quiet_start, quiet_end, time_zone, weekend_enabled, frequency) FROM STDIN`,
      p.size,
      (i) => {
        const quiet = p.quietHours(i);
        return (
          [
            p.userId(i),
            `subscriber${i}@bench.beacon.test`,
            p.thresholdOf(i),
            `{${p.alertTypes(i).join(',')}}`,
            `{${p.categories(i).join(',')}}`,
            p.pushEnabled(i),
            p.smsEnabled(i),
            p.emailEnabled(i),
            p.voiceEnabled(i),
            p.phone(i),
            p.located(i) ? p.lat[i] : null,
            p.located(i) ? p.lng[i] : null,
            p.radiusKm[i],
            quiet !== null,
            quiet?.[0] ?? '22:00',
            quiet?.[1] ?? '07:00',
            'America/Phoenix',
            i % 7 === 0,
            p.frequencyOf(i),
          ]
            .map(copyText)
            .join('\t') + '\n'
        );
      },
    ),
    (async () => {
      let n = 0;
      await copyRows(url, `COPY alerts.push_subscriptions (user_id, endpoint, p256dh, auth, user_agent) FROM STDIN`, p.size, (i) => {
        if (!p.subscribed(i)) return null;
        n++;
        const k = p.pushKeys(i);
        return `${p.userId(i)}\t${origin}/push/${i}\t${k.p256dh}\t${k.auth}\t${p.userAgent(i)}\n`;
      });
      return n;
    })(),
  ]);
  log(
    `  copied ${p.size} preferences and ${subscriptions} push subscriptions in ${((performance.now() - started) / 1000).toFixed(1)} s; rebuilding ${indexes.length} indexes`,
  );

  // Two connections rebuild the indexes side by side (one per core here).
  const queue = [...indexes];
  await Promise.all(
    [0, 1].map(() =>
      withClient(url, async (c) => {
        await c.query(`SET maintenance_work_mem = '256MB'`);
        for (let next = queue.shift(); next; next = queue.shift()) await c.query(next.def);
      }),
    ),
  );
  await withClient(url, (c) => c.query(`VACUUM ANALYZE alerts.user_preferences, alerts.push_subscriptions`));
  return { url, seconds: (performance.now() - started) / 1000, preferences: p.size, subscriptions };
}

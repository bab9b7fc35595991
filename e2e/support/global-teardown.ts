import { existsSync, readFileSync, rmSync } from 'node:fs';
import { Client } from 'pg';
import Redis from 'ioredis';
import { E2eState, STATE_FILE } from './state';

export default async function globalTeardown() {
  if (!existsSync(STATE_FILE)) return;
  const state = JSON.parse(readFileSync(STATE_FILE, 'utf8')) as E2eState;
  try {
    process.kill(-state.pid, 'SIGTERM');
  } catch {
    // already gone
  }
  for (let i = 0; i < 100; i++) {
    try {
      process.kill(state.pid, 0);
      await new Promise((r) => setTimeout(r, 100));
    } catch {
      break;
    }
  }
  try {
    process.kill(-state.pid, 'SIGKILL');
  } catch {
    // stopped cleanly
  }
  const pg = new Client({ connectionString: state.adminUrl });
  await pg.connect();
  await pg.query(`DROP DATABASE IF EXISTS "${state.dbName}" WITH (FORCE)`);
  await pg.end();
  const redis = new Redis(process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379');
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${state.redisPrefix}*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length) await redis.del(...keys);
  } while (cursor !== '0');
  redis.disconnect();
  rmSync(STATE_FILE, { force: true });
}

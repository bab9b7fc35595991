import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { AlertProgress, progressCacheKey } from '@beacon/contracts';
import { InjectRedis, LiveEvents } from '@beacon/common';
import { COUNTS_SQL, RESPONSES_SQL, toDeliverySummary, toResponses } from '../deliveries/delivery-counts';

/** At most one progress event per alert per interval from each worker process. */
export const PROGRESS_INTERVAL_MS = 250;

/**
 * Keeps the cached snapshot only if it is newer (by the database clock) than the one stored, and says whether it
 * was: a worker whose emit is delayed must not overwrite, or follow, another worker's later `done: true`.
 */
const STORE_IF_NEWER = `
local current = redis.call('GET', KEYS[1])
if current then
  local ok, stored = pcall(cjson.decode, current)
  if ok and stored.at and stored.at >= ARGV[2] then return 0 end
end
redis.call('SET', KEYS[1], ARGV[1], 'EX', 86400)
return 1`;

/**
 * Aggregated delivery progress for the admins room: every batch "touches" its alert, and a trailing timer
 * per alert reads the summary (maintained by the database) and emits it, so admins get a few updates a
 * second per alert however many deliveries complete. The last snapshot is kept in Redis for late watchers.
 * Answers (I'm Safe, help requests and their resolution) touch it too, from the alerts service, so admins see them arrive.
 */
@Injectable()
export class ProgressPublisher implements OnApplicationShutdown {
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly live: LiveEvents,
    @InjectRedis() private readonly redis: Redis,
  ) {}

  touch(alertId: string) {
    if (this.timers.has(alertId)) return;
    this.timers.set(
      alertId,
      setTimeout(() => {
        this.timers.delete(alertId);
        void this.publish(alertId).catch(() => undefined); // progress is advisory; the next touch retries
      }, PROGRESS_INTERVAL_MS),
    );
  }

  async snapshot(alertId: string): Promise<AlertProgress | null> {
    const [row] = await this.ds.query(
      `SELECT a.recipients, a.dispatched_at, to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at,
              ${COUNTS_SQL}, ${RESPONSES_SQL}
       FROM alerts.alerts a WHERE a.id = $1`,
      [alertId],
    );
    if (!row) return null;
    const channels = toDeliverySummary(row.counts);
    const pending = Object.values(channels).reduce((n, c) => n + (c?.pending ?? 0), 0);
    // `at` is the database's clock (microseconds, fixed width): comparable across worker processes
    return { alertId, recipients: row.recipients, channels, done: row.dispatched_at !== null && pending === 0, responses: toResponses(row), at: row.at };
  }

  async publish(alertId: string) {
    const progress = await this.snapshot(alertId);
    if (!progress) return;
    const newer = await this.redis.eval(STORE_IF_NEWER, 1, progressCacheKey(alertId), JSON.stringify(progress), progress.at);
    if (newer === 1) this.live.toAdmins('alert:progress', progress);
  }

  async onApplicationShutdown() {
    // Flush what is pending so the last state of this process's work is not lost on a clean stop.
    const ids = [...this.timers.keys()];
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    await Promise.all(ids.map((id) => this.publish(id).catch(() => undefined)));
  }
}

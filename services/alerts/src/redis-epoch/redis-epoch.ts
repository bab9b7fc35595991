import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { InjectRedis, JobQueue } from '@beacon/common';
import { AlertsRepository } from '../alerts/alerts.repository';
import { AlertsService } from '../alerts/alerts.service';
import { RevisionsRepository } from '../alerts/revisions.repository';
import { AlertRevisionsService } from '../alerts/revisions.service';
import { channelJobBoundSeconds, DispatcherEnv, REDRIVE_MARGIN_SECONDS } from '../config/dispatcher-env.dto';
import { StrandedDeliveries } from '../maintenance/stranded-deliveries';

/**
 * Set by the first dispatcher on a Redis and recorded in the database (alerts.redis_epoch): recorded there but gone
 * from Redis means Redis lost its data; recorded nowhere is a first start.
 */
export const EPOCH_KEY = 'alerts:redis-epoch';
/** Besides every reconnect: a failover to an empty replica may not drop this process's connections. */
const CHECK_INTERVAL_MS = 5000;
const CATCH_UP_PASS_MS = 2000;
/**
 * After a loss, a batch no worker is sending (no row in 'sending') whose pending rows have not changed for this long
 * is queued again at once: its job was in the lost Redis. Not 0, so that the catch-up passes do not plan every batch
 * of a large alert again every CATCH_UP_PASS_MS while its re-queued jobs wait their turn.
 */
const LOSS_IDLE_SECONDS = 5;

/**
 * After a loss no job of the old Redis exists, so a delivery is stranded once no live worker can still be sending
 * it: the longest channel job and the margin, instead of REDRIVE_AFTER_SECONDS (which must also outlast jobs
 * waiting in a long queue, and those are gone). That bound is for batches a worker may still be sending; a batch with
 * no row sending goes at once (LOSS_IDLE_SECONDS), since a claim takes a whole batch.
 */
export const lossRedriveAfterSeconds = (env: DispatcherEnv) => Math.min(env.REDRIVE_AFTER_SECONDS, channelJobBoundSeconds(env) + REDRIVE_MARGIN_SECONDS);

/**
 * Notices a Redis that lost its data (restarted without persistence, flushed, failed over to an empty replica) on
 * every reconnect, and re-drives what was in flight at once rather than at the sweep's REDRIVE_AFTER_SECONDS: the
 * dispatches of active alerts not dispatched yet, the version fan-outs, and the stranded deliveries (the sweep's own
 * StrandedDeliveries.redrive with the loss's threshold), in passes until every delivery that changed just before the
 * loss has had its chance. Of several dispatchers only the one whose SET NX put the new epoch in does it. A first start
 * (no epoch recorded in the database either) re-drives nothing: the idle-batch rule would otherwise take batches
 * whose jobs are only waiting their turn for lost ones (their re-add is a no-op, but not the claim of an early one).
 */
@Injectable()
export class RedisEpoch implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('RedisEpoch');
  private timer?: NodeJS.Timeout;
  private stopReady?: () => void;
  private checking?: Promise<void>;
  private stopped = false;

  constructor(
    @InjectRedis() private readonly redis: Redis,
    @InjectDataSource() private readonly ds: DataSource,
    private readonly queue: JobQueue,
    private readonly alerts: AlertsRepository,
    private readonly service: AlertsService,
    private readonly revisionRows: RevisionsRepository,
    private readonly revisions: AlertRevisionsService,
    private readonly stranded: StrandedDeliveries,
    private readonly env: DispatcherEnv,
  ) {}

  onApplicationBootstrap() {
    this.stopReady = this.queue.onReady(() => void this.check());
    this.timer = setInterval(() => void this.check(), CHECK_INTERVAL_MS);
    this.timer.unref();
    void this.check();
  }

  /** One check at a time: a check held by an outage finishes when Redis answers, which is the check wanted then. */
  check(): Promise<void> {
    this.checking ??= this.checkOnce().finally(() => (this.checking = undefined));
    return this.checking;
  }

  private async checkOnce() {
    if (this.stopped) return;
    try {
      const seen = await this.recordedEpoch();
      const current = await this.redis.get(EPOCH_KEY);
      if (current) {
        if (current !== seen) await this.recordEpoch(current);
        return;
      }
      const fresh = randomUUID();
      // Of several dispatchers, the one whose SET NX puts the new epoch in recovers; the others see it next time.
      if ((await this.redis.set(EPOCH_KEY, fresh, 'NX')) !== 'OK') return;
      await this.recordEpoch(fresh);
      // Nothing recorded: a first start (a new database), so nothing can be in flight.
      if (seen === null) return;
      this.logger.warn('Redis no longer holds the epoch the database recorded: it lost its data; re-driving the alerts in flight now');
      await this.recover();
    } catch (e) {
      this.logger.warn(`could not check Redis for data loss, will retry: ${(e as Error).message}`);
    }
  }

  private async recordedEpoch(): Promise<string | null> {
    const [row] = await this.ds.query(`SELECT epoch FROM alerts.redis_epoch`);
    return row?.epoch ?? null;
  }

  private async recordEpoch(epoch: string) {
    await this.ds.query(`INSERT INTO alerts.redis_epoch (epoch) VALUES ($1) ON CONFLICT (only_row) DO UPDATE SET epoch = EXCLUDED.epoch, seen_at = now()`, [
      epoch,
    ]);
  }

  private async recover() {
    const lost = await this.alerts.undispatched(0);
    for (const id of lost) await this.service.enqueueDispatch(id);
    const versions = await this.revisionRows.undispatched(0);
    for (const v of versions) await this.revisions.enqueue(v.alert_id, v.version);
    const after = lossRedriveAfterSeconds(this.env);
    const until = Date.now() + (after * 1000 + 2 * CATCH_UP_PASS_MS);
    let batches = 0;
    while (!this.stopped) {
      batches += (await this.stranded.redrive(after, LOSS_IDLE_SECONDS)).batches;
      if (Date.now() >= until) break;
      await sleep(CATCH_UP_PASS_MS);
    }
    this.logger.warn(`after the Redis loss: re-queued ${lost.length} dispatches, ${versions.length} version fan-outs and ${batches} batches of deliveries`);
  }

  async beforeApplicationShutdown() {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.stopReady?.();
  }
}

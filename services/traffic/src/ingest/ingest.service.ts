import { Injectable, Logger } from '@nestjs/common';
import { TrafficEnv } from '../config/env.dto';
import { IngestRunsRepository } from './ingest-runs.repository';
import type { IngestReport, KindReport } from './ingest-report';
import { parseCameras, parseEvents, SourcePayloadError } from './source-format';
import { SourceSyncRepository } from './source-sync.repository';
import { SourceKind, SourceRateLimitedError, SourceUnavailableError, TrafficSourceClient } from './traffic-source.client';

/**
 * One pull from the 511 source: cameras, then events. Each list is fetched, validated and written on its own, so
 * a failure of one never touches the other, and a failed, rate-limited or malformed response writes nothing at all:
 * only a successful, well-formed answer may update rows or mark them vanished.
 */
@Injectable()
export class IngestService {
  private readonly logger = new Logger(IngestService.name);

  constructor(
    private readonly env: TrafficEnv,
    private readonly client: TrafficSourceClient,
    private readonly sync: SourceSyncRepository,
    private readonly runs: IngestRunsRepository,
  ) {}

  get enabled(): boolean {
    return this.client.configured;
  }

  async run(reason: IngestReport['reason'], now = () => new Date()): Promise<IngestReport> {
    const startedAt = now();
    const cameras = await this.pull('cameras', now);
    // once the source has said "wait", calling it again in the same run would only earn another 429
    const events: KindReport =
      cameras.status === 'rate_limited' ? { status: 'skipped', error: 'not fetched: the source is rate limited' } : await this.pull('events', now);
    const report: IngestReport = {
      source: this.client.sourceName,
      reason,
      status: overall(cameras, events),
      startedAt: startedAt.toISOString(),
      finishedAt: now().toISOString(),
      cameras,
      events,
    };
    await this.runs.record(report);
    const line = `traffic ingest ${report.status}: cameras ${summary(cameras)}; events ${summary(events)}`;
    if (report.status === 'ok') this.logger.log(line);
    else this.logger.warn(line);
    return report;
  }

  private async pull(kind: SourceKind, now: () => Date): Promise<KindReport> {
    try {
      const payload = await this.client.fetchList(kind);
      const options = { now: now(), maxVanishPercent: this.env.TRAFFIC_INGEST_MAX_VANISH_PERCENT };
      const source = this.client.sourceName;
      if (kind === 'cameras') {
        const parsed = parseCameras(payload);
        return { status: 'ok', rejected: parsed.rejected, rejectedReasons: parsed.reasons, ...(await this.sync.syncCameras(source, parsed.items, options)) };
      }
      const parsed = parseEvents(payload);
      return { status: 'ok', rejected: parsed.rejected, rejectedReasons: parsed.reasons, ...(await this.sync.syncEvents(source, parsed.items, options)) };
    } catch (e) {
      if (e instanceof SourceRateLimitedError) return { status: 'rate_limited', retryAt: e.retryAt.toISOString(), error: e.message };
      if (e instanceof SourceUnavailableError) return { status: 'failed', error: e.message, retryable: true };
      if (e instanceof SourcePayloadError) return { status: 'failed', error: e.message, retryable: false };
      throw e; // our own database or Redis failed: the job fails and BullMQ retries it
    }
  }
}

function overall(cameras: KindReport, events: KindReport): IngestReport['status'] {
  const statuses = [cameras.status, events.status];
  if (statuses.every((s) => s === 'ok')) return 'ok';
  if (statuses.includes('ok')) return 'partial';
  return statuses.includes('rate_limited') ? 'rate_limited' : 'failed';
}

function summary(r: KindReport): string {
  if (r.status === 'ok') {
    return `${r.received} received, ${r.inserted} new, ${r.updated} changed, ${r.vanished} vanished${r.vanishSkipped ? ' (vanishing skipped: too many at once)' : ''}${r.rejected ? `, ${r.rejected} rejected` : ''}`;
  }
  return `${r.status} (${r.error})`;
}

import type { JobQueue, QueuedFrom, TypedJob } from '@beacon/common';

/** Jobs per addBulk round trip (the first group goes out sooner, so sending starts while the rest is planned). */
const ENQUEUE_CHUNK = 100;

/**
 * Channel jobs queued as they are planned, a chunk per addBulk round trip, so nothing holds more than a chunk in
 * memory whatever the alert's size. `onFirst` runs once the first chunk is queued; `requestId` names the request they
 * are for (see JobQueue.addBulk).
 */
export class BulkEnqueue {
  private pending: TypedJob[] = [];
  queued = 0;

  constructor(
    private readonly queue: JobQueue,
    private readonly options: QueuedFrom & { onFirst?: () => void } = {},
  ) {}

  async add(job: TypedJob) {
    this.pending.push(job);
    if (this.pending.length >= (this.queued ? ENQUEUE_CHUNK : ENQUEUE_CHUNK / 10)) await this.flush();
  }

  async flush() {
    if (!this.pending.length) return;
    const jobs = this.pending;
    this.pending = [];
    await this.queue.addBulk(jobs, { requestId: this.options.requestId });
    if (!this.queued) this.options.onFirst?.();
    this.queued += jobs.length;
  }
}

import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { JOB_QUEUE, JobName } from '@beacon/contracts';
import { DispatcherEnv } from '../config/dispatcher-env.dto';
import { JobQueue } from '@beacon/common';

/** One scheduler entry in Redis, whatever the number of dispatcher processes (upsert by id). */
@Injectable()
export class SweepScheduler implements OnApplicationBootstrap {
  constructor(private readonly queue: JobQueue, private readonly env: DispatcherEnv) {}

  async onApplicationBootstrap() {
    await this.queue.queue(JOB_QUEUE[JobName.AlertExpire]).upsertJobScheduler(
      'alert-sweep',
      { every: this.env.SWEEP_INTERVAL_SECONDS * 1000 },
      { name: JobName.AlertExpire, data: {} },
    );
  }
}

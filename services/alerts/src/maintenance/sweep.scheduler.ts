import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { JobName } from '@beacon/contracts';
import { JobSchedules } from '@beacon/common';
import { DispatcherEnv } from '../config/dispatcher-env.dto';

/**
 * One scheduler entry in Redis, whatever the number of dispatcher processes (upsert by id). Kept by JobSchedules:
 * checked on every reconnect and every SWEEP_INTERVAL_SECONDS, and re-created when Redis lost it, since the sweep is
 * what recovers everything else Redis lost.
 */
@Injectable()
export class SweepScheduler implements OnApplicationBootstrap {
  constructor(
    private readonly schedules: JobSchedules,
    private readonly env: DispatcherEnv,
  ) {}

  async onApplicationBootstrap() {
    await this.schedules.keep({ id: 'alert-sweep', name: JobName.AlertExpire, data: {}, everyMs: this.env.SWEEP_INTERVAL_SECONDS * 1000 });
  }
}

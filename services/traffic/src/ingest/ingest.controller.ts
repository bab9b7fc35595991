import { Controller, Get, HttpCode, Post } from '@nestjs/common';
import { Roles } from '@beacon/auth';
import { ApiReturns, AppError } from '@beacon/common';
import { IngestRunsRepository } from './ingest-runs.repository';
import { IngestSchedule } from './ingest.schedule';

/** Operators' view of the 511 ingest: recent pulls and a "pull now" button. Admins only. */
@Controller('ingest')
@Roles('admin')
export class IngestController {
  constructor(
    private readonly schedule: IngestSchedule,
    private readonly runs: IngestRunsRepository,
  ) {}

  @Get('runs')
  @ApiReturns('IngestRuns')
  async recent() {
    return { items: await this.runs.recent(20) };
  }

  @Post('runs')
  @HttpCode(202)
  @ApiReturns('IngestQueued')
  async pullNow() {
    if (!(await this.schedule.requestNow())) {
      throw new AppError(409, 'ingest_disabled', 'Traffic ingest is off: no TRAFFIC_SOURCE_URL is configured');
    }
    return { queued: true };
  }
}

import { Controller, Get, HttpCode, Post } from '@nestjs/common';
import { Roles } from '@beacon/auth';
import { ApiErrors, ApiOperation, ApiReturns, AppError } from '@beacon/common';
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
  @ApiOperation('ingestRuns.list', 'Recent 511 pulls', 'The last pulls from the 511 source, with what each took in.')
  async recent() {
    return { items: await this.runs.recent(20) };
  }

  @Post('runs')
  @HttpCode(202)
  @ApiReturns('IngestQueued')
  @ApiOperation('ingestRuns.create', 'Pull the 511 source now', 'Queues a pull of the 511 source at once, whatever its schedule.')
  @ApiErrors({ 409: ['ingest_disabled'] })
  async pullNow() {
    if (!(await this.schedule.requestNow())) {
      throw new AppError(409, 'ingest_disabled', 'Traffic ingest is off: no TRAFFIC_SOURCE_URL is configured');
    }
    return { queued: true };
  }
}

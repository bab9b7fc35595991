import { Module } from '@nestjs/common';
import { IngestRunsRepository } from './ingest-runs.repository';
import { IngestController } from './ingest.controller';
import { IngestService } from './ingest.service';
import { IngestSchedule } from './ingest.schedule';
import { SourceSyncRepository } from './source-sync.repository';
import { TrafficSourceClient } from './traffic-source.client';

@Module({
  controllers: [IngestController],
  providers: [TrafficSourceClient, SourceSyncRepository, IngestRunsRepository, IngestService, IngestSchedule],
  exports: [IngestService],
})
export class IngestModule {}

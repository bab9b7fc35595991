import { Module } from '@nestjs/common';
import { UploadsModule } from '../uploads/uploads.module';
import { IncidentsController } from './incidents.controller';
import { IncidentsRepository } from './incidents.repository';
import { IncidentsService } from './incidents.service';

@Module({
  imports: [UploadsModule],
  controllers: [IncidentsController],
  providers: [IncidentsRepository, IncidentsService],
  // the inbox worker reads a new report's status for the moderation notice
  exports: [IncidentsRepository],
})
export class IncidentsModule {}

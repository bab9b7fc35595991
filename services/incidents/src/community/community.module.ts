import { Module } from '@nestjs/common';
import { IncidentsInboxHandlers } from '../events/inbox.handlers';
import { IncidentsModule } from '../incidents/incidents.module';
import { UploadsModule } from '../uploads/uploads.module';
import { CommunityController } from './community.controller';
import { CommunityRepository } from './community.repository';
import { CommunityService } from './community.service';
import { PointsRepository } from './points.repository';

@Module({
  imports: [UploadsModule, IncidentsModule],
  controllers: [CommunityController],
  providers: [CommunityRepository, CommunityService, PointsRepository, IncidentsInboxHandlers],
})
export class CommunityModule {}

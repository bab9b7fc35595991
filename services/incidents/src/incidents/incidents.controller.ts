import { Body, Controller, Get, Param, ParseUUIDPipe, Patch, Post, Query } from '@nestjs/common';
import { AuthUser, CurrentUser, Public, Roles } from '@beacon/auth';
import { ApiReturns, AppError } from '@beacon/common';
import { CreateIncidentDto } from './dto/create-incident.dto';
import {
  DuplicateCheckQuery,
  ListIncidentsQuery,
  NearbyIncidentsQuery,
  PageQuery,
  UpdateIncidentStatusDto,
  VerifiedIncidentsQuery,
} from './dto/incident-queries';
import { RateLimited } from '../common/rate-limits';
import { IncidentsService } from './incidents.service';

/** An id that is not a UUID is simply a report that does not exist. */
export const IncidentId = new ParseUUIDPipe({ exceptionFactory: () => new AppError(404, 'incident_not_found', 'Incident not found') });

@Controller('incidents')
export class IncidentsController {
  constructor(private readonly incidents: IncidentsService) {}

  @Post()
  @RateLimited('reports')
  @ApiReturns('Incident')
  create(@CurrentUser() user: AuthUser, @Body() dto: CreateIncidentDto) {
    return this.incidents.create(user, dto);
  }

  @Get()
  @ApiReturns('IncidentPage')
  list(@CurrentUser() user: AuthUser, @Query() q: ListIncidentsQuery) {
    return this.incidents.list(user, q);
  }

  @Get('mine')
  @ApiReturns('IncidentPage')
  mine(@CurrentUser() user: AuthUser, @Query() q: PageQuery) {
    return this.incidents.mine(user, q.limit, q.offset);
  }

  @Get('nearby')
  @ApiReturns('Incidents')
  nearby(@CurrentUser() user: AuthUser, @Query() q: NearbyIncidentsQuery) {
    return this.incidents.nearby(user, q);
  }

  /** Asked by the wizard's review step, before submitting. */
  @Get('possible-duplicates')
  @ApiReturns('PossibleDuplicates')
  possibleDuplicates(@CurrentUser() user: AuthUser, @Query() q: DuplicateCheckQuery) {
    return this.incidents.possibleDuplicates(user, q);
  }

  /** The public safety map: verified reports only, without reporter or photo. */
  @Get('verified')
  @Public()
  @ApiReturns('PublicIncidents')
  verified(@Query() q: VerifiedIncidentsQuery) {
    return this.incidents.verifiedForMap(q.hours);
  }

  @Get('moderation-queue')
  @Roles('admin')
  @ApiReturns('ModerationQueuePage')
  moderationQueue(@CurrentUser() user: AuthUser, @Query() q: PageQuery) {
    return this.incidents.moderationQueue(user, q.limit, q.offset);
  }

  /** The admin menu's badge: how many reports wait. */
  @Get('moderation-queue/count')
  @Roles('admin')
  @ApiReturns('ModerationQueueCount')
  moderationQueueCount() {
    return this.incidents.moderationQueueCount();
  }

  @Get(':id')
  @ApiReturns('Incident')
  get(@CurrentUser() user: AuthUser, @Param('id', IncidentId) id: string) {
    return this.incidents.get(user, id);
  }

  @Patch(':id/status')
  @Roles('admin')
  @ApiReturns('Incident')
  changeStatus(@CurrentUser() user: AuthUser, @Param('id', IncidentId) id: string, @Body() dto: UpdateIncidentStatusDto) {
    return this.incidents.changeStatus(user, id, dto);
  }
}

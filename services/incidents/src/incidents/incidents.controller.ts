import { Body, Controller, Get, Param, ParseUUIDPipe, Patch, Post, Query } from '@nestjs/common';
import { AuthUser, CurrentUser, Public, Roles } from '@beacon/auth';
import { ApiErrors, ApiOperation, ApiReturns, AppError } from '@beacon/common';
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
  @ApiOperation(
    'incidents.create',
    'Report an incident',
    "Files a report at a place, with a photo uploaded before. It waits for a moderator, unless the reporter's record lets it be verified at once.",
  )
  @ApiErrors({ 400: ['upload_not_found'] })
  create(@CurrentUser() user: AuthUser, @Body() dto: CreateIncidentDto) {
    return this.incidents.create(user, dto);
  }

  @Get()
  @ApiReturns('IncidentPage')
  @ApiOperation('incidents.list', 'List incidents', 'The reports the caller may see, filtered and paged.')
  list(@CurrentUser() user: AuthUser, @Query() q: ListIncidentsQuery) {
    return this.incidents.list(user, q);
  }

  @Get('mine')
  @ApiReturns('IncidentPage')
  @ApiOperation('incidents.listMine', 'My reports', "The caller's own reports, paged.")
  mine(@CurrentUser() user: AuthUser, @Query() q: PageQuery) {
    return this.incidents.mine(user, q.limit, q.offset);
  }

  @Get('nearby')
  @ApiReturns('Incidents')
  @ApiOperation('incidents.listNearby', 'Incidents near a place', 'The reports the caller may see around a point.')
  nearby(@CurrentUser() user: AuthUser, @Query() q: NearbyIncidentsQuery) {
    return this.incidents.nearby(user, q);
  }

  /** Asked by the wizard's review step, before submitting. */
  @Get('possible-duplicates')
  @ApiReturns('PossibleDuplicates')
  @ApiOperation(
    'incidents.possibleDuplicates',
    'Possible duplicates of a report',
    "Reports close in place and time to one about to be filed, asked by the report wizard's review step.",
  )
  possibleDuplicates(@CurrentUser() user: AuthUser, @Query() q: DuplicateCheckQuery) {
    return this.incidents.possibleDuplicates(user, q);
  }

  /** The public safety map: verified reports only, without reporter or photo. */
  @Get('verified')
  @Public()
  @ApiReturns('PublicIncidents')
  @ApiOperation(
    'incidents.listVerified',
    'Verified incidents for the map',
    'The public safety map: the verified reports of the last hours, without reporter or photo.',
  )
  verified(@Query() q: VerifiedIncidentsQuery) {
    return this.incidents.verifiedForMap(q.hours);
  }

  @Get('moderation-queue')
  @Roles('admin')
  @ApiReturns('ModerationQueuePage')
  @ApiOperation('incidents.moderationQueue', 'Moderation queue', 'The reports waiting for a moderator, paged.')
  moderationQueue(@CurrentUser() user: AuthUser, @Query() q: PageQuery) {
    return this.incidents.moderationQueue(user, q.limit, q.offset);
  }

  /** The admin menu's badge: how many reports wait. */
  @Get('moderation-queue/count')
  @Roles('admin')
  @ApiReturns('ModerationQueueCount')
  @ApiOperation('incidents.moderationQueueCount', 'Moderation queue size', "How many reports wait for a moderator: the admin menu's badge.")
  moderationQueueCount() {
    return this.incidents.moderationQueueCount();
  }

  @Get(':id')
  @ApiReturns('Incident')
  @ApiOperation('incidents.get', 'One incident', 'A report the caller may see, by its id.')
  @ApiErrors({ 404: ['incident_not_found'] })
  get(@CurrentUser() user: AuthUser, @Param('id', IncidentId) id: string) {
    return this.incidents.get(user, id);
  }

  @Patch(':id/status')
  @Roles('admin')
  @ApiReturns('Incident')
  @ApiOperation(
    'incidents.changeStatus',
    'Moderate an incident',
    'Moves a report to a new status. Refused when the status cannot follow the current one, or when the report changed since the moderator read it.',
  )
  @ApiErrors({ 404: ['incident_not_found'], 409: ['invalid_transition', 'status_changed'] })
  changeStatus(@CurrentUser() user: AuthUser, @Param('id', IncidentId) id: string, @Body() dto: UpdateIncidentStatusDto) {
    return this.incidents.changeStatus(user, id, dto);
  }
}

import { Controller, Get, HttpCode, Param, ParseUUIDPipe, Post, Query } from '@nestjs/common';
import { Roles } from '@beacon/auth';
import { AlertsService } from './alerts.service';
import { HelpRequestsQuery } from './dto/list-alerts.query';
import { ApiErrors, ApiOperation, ApiReturns } from '@beacon/common';

/** Admin: the help requests users sent from an alert, and resolving them. */
@Controller('admin/help-requests')
@Roles('admin')
export class HelpRequestsController {
  constructor(private readonly alerts: AlertsService) {}

  @Get()
  @ApiReturns('HelpRequestPage')
  @ApiOperation('helpRequests.list', 'Help requests', 'The help requests people sent from alerts, paged.')
  list(@Query() q: HelpRequestsQuery) {
    return this.alerts.listHelpRequests(q);
  }

  @Post(':id/resolve')
  @HttpCode(200)
  @ApiReturns('HelpRequest')
  @ApiOperation('helpRequests.resolve', 'Resolve a help request', 'Marks a help request resolved.')
  @ApiErrors({ 400: ['bad_request'], 404: ['help_request_not_found'] })
  resolve(@Param('id', new ParseUUIDPipe()) id: string) {
    return this.alerts.resolveHelpRequest(id);
  }
}

import { Controller, Get, HttpCode, Param, ParseUUIDPipe, Post, Query } from '@nestjs/common';
import { Roles } from '@beacon/auth';
import { AlertsService } from './alerts.service';
import { HelpRequestsQuery } from './dto/list-alerts.query';
import { ApiReturns } from '@beacon/common';

/** Admin: the help requests users sent from an alert, and resolving them. */
@Controller('admin/help-requests')
@Roles('admin')
export class HelpRequestsController {
  constructor(private readonly alerts: AlertsService) {}

  @Get()
  @ApiReturns('HelpRequestPage')
  list(@Query() q: HelpRequestsQuery) {
    return this.alerts.listHelpRequests(q);
  }

  @Post(':id/resolve')
  @HttpCode(200)
  @ApiReturns('HelpRequest')
  resolve(@Param('id', new ParseUUIDPipe()) id: string) {
    return this.alerts.resolveHelpRequest(id);
  }
}

import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { AuthUser, CurrentUser } from '@beacon/auth';
import { RateLimited } from '../config/rate-limits';
import { alertIdPipe as uuid } from './alert-id.pipe';
import { AlertsService } from './alerts.service';
import { HelpRequestDto } from './dto/help-request.dto';
import { MyAlertsQuery } from './dto/list-alerts.query';
import { ApiReturns } from '@beacon/common';

/** The signed-in user's alerts. Declared before AdminAlertsController so /me/... never reaches /:id. */
@Controller('me')
export class MyAlertsController {
  constructor(private readonly alerts: AlertsService) {}

  /** Alerts with a delivery to me, newest first, with my read flag; paged with an exact total. */
  @Get('alerts')
  @ApiReturns('UserAlertPage')
  list(@CurrentUser() user: AuthUser, @Query() q: MyAlertsQuery) {
    return this.alerts.myAlerts(user, q);
  }

  /** Active alerts that concern me by my preferences (whether or not a channel reached me). */
  @Get('alerts/active')
  @ApiReturns('UserAlerts')
  active(@CurrentUser() user: AuthUser) {
    return this.alerts.activeForMe(user);
  }

  @Get('alerts/:id')
  @ApiReturns('UserAlert')
  one(@CurrentUser() user: AuthUser, @Param('id', uuid) id: string) {
    return this.alerts.oneForMe(user, id);
  }

  /** "I'm Safe": marks my deliveries of the alert read, with read_at. */
  @Post('alerts/:id/read')
  @HttpCode(200)
  @ApiReturns('AlertReadReceipt')
  read(@CurrentUser() user: AuthUser, @Param('id', uuid) id: string) {
    return this.alerts.markRead(user, id);
  }

  /** A help request, stored for admins. */
  @Post('alerts/:id/help')
  @RateLimited('helpRequests')
  @ApiReturns('HelpRequest')
  help(@CurrentUser() user: AuthUser, @Param('id', uuid) id: string, @Body() dto: HelpRequestDto) {
    return this.alerts.requestHelp(user, id, dto);
  }
}

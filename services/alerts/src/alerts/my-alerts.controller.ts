import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { AuthUser, CurrentUser } from '@beacon/auth';
import { RateLimited } from '../config/rate-limits';
import { alertIdPipe as uuid } from './alert-id.pipe';
import { AlertsService } from './alerts.service';
import { HelpRequestDto } from './dto/help-request.dto';
import { MyAlertsQuery } from './dto/list-alerts.query';
import { ApiErrors, ApiOperation, ApiReturns } from '@beacon/common';

/** The signed-in user's alerts. Declared before AdminAlertsController so /me/... never reaches /:id. */
@Controller('me')
export class MyAlertsController {
  constructor(private readonly alerts: AlertsService) {}

  /** Alerts with a delivery to me, newest first, with my read flag; paged with an exact total. */
  @Get('alerts')
  @ApiReturns('UserAlertPage')
  @ApiOperation('myAlerts.list', 'My alerts', "The alerts delivered to the caller, newest first, with the caller's read flag; paged with an exact total.")
  list(@CurrentUser() user: AuthUser, @Query() q: MyAlertsQuery) {
    return this.alerts.myAlerts(user, q);
  }

  /** Active alerts that concern me by my preferences (whether or not a channel reached me). */
  @Get('alerts/active')
  @ApiReturns('UserAlerts')
  @ApiOperation(
    'myAlerts.listActive',
    'Alerts in effect for me',
    'The active alerts that concern the caller by their preferences, whether or not a channel reached them.',
  )
  active(@CurrentUser() user: AuthUser) {
    return this.alerts.activeForMe(user);
  }

  @Get('alerts/:id')
  @ApiReturns('UserAlert')
  @ApiOperation('myAlerts.get', 'One of my alerts', 'An alert delivered to the caller, by its id.')
  @ApiErrors({ 404: ['alert_not_found'] })
  one(@CurrentUser() user: AuthUser, @Param('id', uuid) id: string) {
    return this.alerts.oneForMe(user, id);
  }

  /** "I'm Safe": marks my deliveries of the alert read, with read_at. */
  @Post('alerts/:id/read')
  @HttpCode(200)
  @ApiReturns('AlertReadReceipt')
  @ApiOperation('myAlerts.markRead', 'Mark an alert read ("I\'m safe")', "Marks the caller's deliveries of the alert read, with the time.")
  @ApiErrors({ 404: ['alert_not_found'] })
  read(@CurrentUser() user: AuthUser, @Param('id', uuid) id: string) {
    return this.alerts.markRead(user, id);
  }

  /** A help request, stored for admins. */
  @Post('alerts/:id/help')
  @RateLimited('helpRequests')
  @ApiReturns('HelpRequest')
  @ApiOperation('myAlerts.requestHelp', 'Ask for help', 'Sends the administrators a help request about the alert, with where the caller is if given.')
  @ApiErrors({ 400: ['incomplete_location'], 404: ['alert_not_found'] })
  help(@CurrentUser() user: AuthUser, @Param('id', uuid) id: string, @Body() dto: HelpRequestDto) {
    return this.alerts.requestHelp(user, id, dto);
  }
}

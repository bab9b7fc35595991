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

  /** The header's count (issue #40). Before alerts/:id, which would take "unread-count" for an id. */
  @Get('alerts/unread-count')
  @ApiReturns('UnreadCount')
  @ApiOperation(
    'myAlerts.unreadCount',
    'How many of my alerts are unread',
    "The alerts in the caller's feed that are in effect (active, not expired) and that the caller has not read; an ended alert never counts.",
  )
  unreadCount(@CurrentUser() user: AuthUser) {
    return this.alerts.unreadCount(user);
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

  /** An ended alert put away (issue #40): read, and gone from my feed. */
  @Post('alerts/:id/dismiss')
  @HttpCode(200)
  @ApiReturns('AlertDismissal')
  @ApiOperation(
    'myAlerts.dismiss',
    'Dismiss an ended alert',
    "Leaves an alert of the caller's feed that has ended (all-clear, expired or cancelled) out of the caller's feed from then on; it is not marked read (that is the caller's I'm safe). An alert still in effect cannot be dismissed. Dismissing it again changes nothing.",
  )
  @ApiErrors({ 404: ['alert_not_found'], 409: ['alert_in_effect'] })
  dismiss(@CurrentUser() user: AuthUser, @Param('id', uuid) id: string) {
    return this.alerts.dismiss(user, id);
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

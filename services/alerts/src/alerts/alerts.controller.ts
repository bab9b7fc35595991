import { Body, Controller, Get, Headers, HttpCode, Param, ParseUUIDPipe, Post, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { AuthUser, CurrentUser, Public, Roles } from '@beacon/auth';
import { notFound } from '@beacon/common';
import { RateLimited } from '../config/rate-limits';
import { AlertsService } from './alerts.service';
import { CreateAlertDto } from './dto/create-alert.dto';
import { HelpRequestDto, ReceiptDto } from './dto/help-request.dto';
import { DeliveriesQuery, ListAlertsQuery, MyAlertsQuery, PageQuery, RecentQuery, StatsQuery } from './dto/list-alerts.query';

/** A malformed id names no alert: 404, like an unknown one. */
const uuid = new ParseUUIDPipe({ exceptionFactory: () => notFound('Alert', 'alert_not_found') });

/** The signed-in user's alerts. Declared before AdminAlertsController so /me/... never reaches /:id. */
@Controller('me')
export class MyAlertsController {
  constructor(private readonly alerts: AlertsService) {}

  /** Alerts with a delivery to me, newest first, with my read flag; paged with an exact total. */
  @Get('alerts')
  list(@CurrentUser() user: AuthUser, @Query() q: MyAlertsQuery) {
    return this.alerts.myAlerts(user, q);
  }

  /** Active alerts that concern me by my preferences (whether or not a channel reached me). */
  @Get('alerts/active')
  active(@CurrentUser() user: AuthUser) {
    return this.alerts.activeForMe(user);
  }

  @Get('alerts/:id')
  one(@CurrentUser() user: AuthUser, @Param('id', uuid) id: string) {
    return this.alerts.oneForMe(user, id);
  }

  /** "I'm Safe": marks my deliveries of the alert read, with read_at. */
  @Post('alerts/:id/read')
  @HttpCode(200)
  read(@CurrentUser() user: AuthUser, @Param('id', uuid) id: string) {
    return this.alerts.markRead(user, id);
  }

  /** A help request, stored for admins. */
  @Post('alerts/:id/help')
  @RateLimited('helpRequests')
  help(@CurrentUser() user: AuthUser, @Param('id', uuid) id: string, @Body() dto: HelpRequestDto) {
    return this.alerts.requestHelp(user, id, dto);
  }
}

/** Receipts from the push service worker: no session, a per-delivery token instead. */
@Controller('deliveries')
export class DeliveryReceiptsController {
  constructor(private readonly alerts: AlertsService) {}

  @Public()
  @Post(':id/receipt')
  @HttpCode(200)
  receipt(@Param('id', new ParseUUIDPipe()) id: string, @Body() dto: ReceiptDto) {
    return this.alerts.receipt(id, dto.event, dto.token);
  }
}

@Controller('admin/help-requests')
@Roles('admin')
export class HelpRequestsController {
  constructor(private readonly alerts: AlertsService) {}

  @Get()
  list(@Query() q: PageQuery, @Query('status') status?: 'open' | 'resolved') {
    return this.alerts.listHelpRequests({ ...q, status: status === 'open' || status === 'resolved' ? status : undefined });
  }

  @Post(':id/resolve')
  @HttpCode(200)
  resolve(@Param('id', new ParseUUIDPipe()) id: string) {
    return this.alerts.resolveHelpRequest(id);
  }
}

/** Admin: create and send, list, stats, one alert with its deliveries, send a draft, cancel. */
@Controller()
@Roles('admin')
export class AdminAlertsController {
  constructor(private readonly alerts: AlertsService) {}

  @Post()
  async create(
    @CurrentUser() user: AuthUser,
    @Body() dto: CreateAlertDto,
    @Res({ passthrough: true }) res: Response,
    @Headers('idempotency-key') idempotencyKey?: string,
  ) {
    const { alert, created } = await this.alerts.create(user, dto, idempotencyKey);
    if (!created) res.setHeader('Idempotent-Replayed', 'true');
    res.status(created ? 201 : 200);
    return alert;
  }

  @Get()
  list(@Query() q: ListAlertsQuery) {
    return this.alerts.list(q);
  }

  @Get('stats')
  stats(@Query() q: StatsQuery) {
    return this.alerts.stats(q.tz, q.days);
  }

  @Get('recent')
  recent(@Query() q: RecentQuery) {
    return this.alerts.recent(q.limit);
  }

  @Get(':id')
  one(@Param('id', uuid) id: string) {
    return this.alerts.get(id);
  }

  @Get(':id/deliveries')
  deliveries(@Param('id', uuid) id: string, @Query() q: DeliveriesQuery) {
    return this.alerts.deliveries(id, q);
  }

  @Post(':id/send')
  @HttpCode(200)
  send(@Param('id', uuid) id: string) {
    return this.alerts.send(id);
  }

  @Post(':id/cancel')
  @HttpCode(200)
  cancel(@Param('id', uuid) id: string) {
    return this.alerts.cancel(id);
  }
}

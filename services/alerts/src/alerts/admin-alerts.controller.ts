import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { AuthUser, CurrentUser, Roles } from '@beacon/auth';
import { ALERT_CONTENT_ERRORS, ALERT_LOCATION_ERRORS } from './alert-content.errors';
import { alertIdPipe as uuid } from './alert-id.pipe';
import { AlertsService, listFilter } from './alerts.service';
import { AudiencePreviewService } from './audience-preview.service';
import { CreateAlertDto, DeliveryActionDto } from './dto/create-alert.dto';
import { DeliveryActionsService } from './delivery-actions.service';
import { DeliveryReportService } from './delivery-report.service';
import { OperationsService } from './operations.service';
import { AlertRevisionsService } from './revisions.service';
import { TranslationKeysChecked } from './translation-keys.interceptor';
import { AllClearDto, UpdateAlertDto } from './dto/update-alert.dto';
import { DeliveriesQuery, ExportAlertsQuery, ListAlertsQuery, RecentQuery, StatsQuery } from './dto/list-alerts.query';
import { ApiErrors, ApiFile, ApiOperation, ApiReturns } from '@beacon/common';
import { RateLimited } from '../config/rate-limits';

/** Admin: whom an alert would reach, create and send, list, stats, one alert with its deliveries, send a draft, cancel. */
@Controller()
@Roles('admin')
export class AdminAlertsController {
  constructor(
    private readonly alerts: AlertsService,
    private readonly audience: AudiencePreviewService,
    private readonly actions: DeliveryActionsService,
    private readonly report: DeliveryReportService,
    private readonly operations: OperationsService,
    private readonly revisions: AlertRevisionsService,
  ) {}

  /** Whom this alert would reach if sent now; nothing is stored or sent. */
  @Post('audience')
  @TranslationKeysChecked()
  @RateLimited('audiencePreview')
  @HttpCode(200)
  @ApiReturns('AlertAudience')
  @ApiOperation(
    'alerts.previewAudience',
    'Whom an alert would reach',
    'Counts the people this alert would reach if it were sent now, by channel; nothing is stored or sent.',
  )
  @ApiErrors(ALERT_CONTENT_ERRORS)
  @ApiErrors(ALERT_LOCATION_ERRORS)
  @ApiErrors({
    400: ['severity_priority_mismatch', 'type_required'],
  })
  preview(@CurrentUser() user: AuthUser, @Body() dto: CreateAlertDto) {
    return this.audience.preview(user, dto);
  }

  @Post()
  @TranslationKeysChecked()
  @ApiReturns('AdminAlert')
  @ApiOperation(
    'alerts.create',
    'Create an alert',
    'Stores the alert and, unless it is a draft, sends it to everyone concerned. With an Idempotency-Key, the same request again answers the alert it made (200, with Idempotent-Replayed: true) instead of a second one.',
  )
  @ApiErrors(ALERT_CONTENT_ERRORS)
  @ApiErrors(ALERT_LOCATION_ERRORS)
  @ApiErrors({
    400: ['invalid_idempotency_key', 'severity_priority_mismatch', 'type_required'],
    422: ['idempotency_key_reused'],
  })
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
  @ApiReturns('AdminAlertPage')
  @ApiOperation('alerts.list', 'List alerts', 'The alert history, filtered and paged.')
  list(@Query() q: ListAlertsQuery) {
    return this.alerts.list(q);
  }

  /** The history matching these filters, all of it, as CSV (streamed). */
  @Get('export.csv')
  @RateLimited('csvExports')
  @ApiFile('text/csv')
  @ApiOperation('alerts.export', 'Export the alert history', 'The history matching the filters, all of it, as CSV (streamed).')
  exportCsv(@Query() q: ExportAlertsQuery, @Res() res: Response) {
    return streamCsv(res, `alert-history-${new Date().toISOString().slice(0, 10)}.csv`, (out) => this.report.writeHistory(listFilter(q), out));
  }

  @Get('stats')
  @ApiReturns('AlertStats')
  @ApiOperation(
    'alerts.stats',
    'Alert figures',
    "The dashboard's figures: alerts sent and in effect, deliveries by channel, success rate, per day in the time zone given.",
  )
  @ApiErrors({ 400: ['invalid_time_zone'] })
  stats(@Query() q: StatsQuery) {
    return this.alerts.stats(q.tz, q.days);
  }

  @Get('recent')
  @ApiReturns('AdminAlerts')
  @ApiOperation('alerts.listRecent', 'Recent alerts', 'The latest alerts, for the dashboard.')
  recent(@Query() q: RecentQuery) {
    return this.alerts.recent(q.limit);
  }

  @Get(':id')
  @ApiReturns('AdminAlert')
  @ApiOperation('alerts.get', 'One alert', 'An alert with its delivery figures.')
  @ApiErrors({ 404: ['alert_not_found'] })
  one(@Param('id', uuid) id: string) {
    return this.alerts.get(id);
  }

  @Get(':id/deliveries')
  @ApiReturns('AlertDeliveryPage')
  @ApiOperation('alertDeliveries.list', "An alert's deliveries", 'The deliveries of an alert, one per person and channel, filtered and paged.')
  @ApiErrors({ 404: ['alert_not_found'] })
  deliveries(@Param('id', uuid) id: string, @Query() q: DeliveriesQuery) {
    return this.alerts.deliveries(id, q);
  }

  /** The per-recipient report: every delivery of the alert as CSV, streamed. */
  @Get(':id/deliveries.csv')
  @RateLimited('csvExports')
  @ApiFile('text/csv')
  @ApiOperation('alertDeliveries.export', "Export an alert's deliveries", 'The per-recipient report: every delivery of the alert as CSV (streamed).')
  @ApiErrors({ 404: ['alert_not_found'] })
  deliveriesCsv(@Param('id', uuid) id: string, @Res() res: Response) {
    return streamCsv(res, `alert-${id}-recipients.csv`, (out) => this.report.write(id, out));
  }

  /** The delivery as it happens: pace and ETA per channel, retries and when, failures by reason, the first minutes' outcomes. */
  @Get(':id/operations')
  @ApiReturns('AlertOperations')
  @ApiOperation(
    'alerts.operations',
    "An alert's delivery, live",
    "The delivery as it happens: pace and ETA per channel, retries and when, failures by reason, the first minutes' outcomes.",
  )
  @ApiErrors({ 404: ['alert_not_found'] })
  operationsView(@Param('id', uuid) id: string) {
    return this.operations.get(id);
  }

  /** Every version of the alert as it was sent: the original, each update, the all-clear. */
  @Get(':id/versions')
  @ApiReturns('AlertVersions')
  @ApiOperation('alerts.versions', "An alert's versions", 'Every version of the alert as it was sent: the original, each update, the all-clear.')
  @ApiErrors({ 404: ['alert_not_found'] })
  versions(@Param('id', uuid) id: string) {
    return this.revisions.versions(id);
  }

  /** A new version of the alert in effect: those it reached are told what changed, those newly concerned get it. */
  @Post(':id/update')
  @TranslationKeysChecked()
  @HttpCode(200)
  @ApiReturns('AdminAlert')
  @ApiOperation(
    'alerts.update',
    'Update an alert in effect',
    'Sends a new version of the alert: those it reached are told what changed, those newly concerned get it.',
  )
  @ApiErrors(ALERT_CONTENT_ERRORS)
  @ApiErrors(ALERT_LOCATION_ERRORS)
  @ApiErrors({
    400: ['nothing_to_update', 'revision_required'],
    404: ['alert_not_found'],
    409: ['alert_edited_elsewhere', 'alert_not_dispatched', 'alert_update_conflict', 'invalid_alert_status'],
  })
  update(@CurrentUser() user: AuthUser, @Param('id', uuid) id: string, @Body() dto: UpdateAlertDto) {
    return this.revisions.update(id, dto, { id: user.id, email: user.email });
  }

  /** The danger is over: the alert ends and everyone it reached is told. */
  @Post(':id/all-clear')
  @HttpCode(200)
  @ApiReturns('AdminAlert')
  @ApiOperation('alerts.allClear', 'Give the all-clear', 'The danger is over: the alert ends and everyone it reached is told.')
  @ApiErrors({ 404: ['alert_not_found'], 409: ['invalid_alert_status'] })
  allClear(@CurrentUser() user: AuthUser, @Param('id', uuid) id: string, @Body() dto: AllClearDto) {
    return this.revisions.allClear(id, dto, { id: user.id, email: user.email });
  }

  @Get(':id/audit')
  @ApiReturns('AlertAuditTrail')
  @ApiOperation('alerts.audit', "An alert's audit trail", 'Who did what to the alert, and when.')
  @ApiErrors({ 404: ['alert_not_found'] })
  audit(@Param('id', uuid) id: string) {
    return this.alerts.auditTrail(id);
  }

  @Post(':id/send')
  @HttpCode(200)
  @ApiReturns('AdminAlert')
  @ApiOperation('alerts.send', 'Send a draft', 'Sends a draft alert to everyone concerned.')
  @ApiErrors({ 404: ['alert_not_found'], 409: ['cap_area_required', 'invalid_alert_status'] })
  send(@CurrentUser() user: AuthUser, @Param('id', uuid) id: string) {
    return this.alerts.send(id, { id: user.id, email: user.email });
  }

  /** The channel's failed deliveries sent again. */
  @Post(':id/retry')
  @HttpCode(200)
  @ApiReturns('RetryResult')
  @ApiOperation('alertDeliveries.retry', 'Retry failed deliveries', "Sends the channel's failed deliveries of the alert again.")
  @ApiErrors({ 400: ['channel_not_configured'], 404: ['alert_not_found'], 409: ['alert_not_dispatched', 'invalid_alert_status'] })
  retry(@CurrentUser() user: AuthUser, @Param('id', uuid) id: string, @Body() dto: DeliveryActionDto) {
    return this.actions.retryFailed(id, dto.channel, { id: user.id, email: user.email });
  }

  /** The people nothing reached, sent the alert on another channel. */
  @Post(':id/fallback')
  @HttpCode(200)
  @ApiReturns('FallbackResult')
  @ApiOperation('alertDeliveries.fallback', 'Reach the unreached on another channel', 'Sends the alert on the channel given to the people no delivery reached.')
  @ApiErrors({ 400: ['channel_not_configured'], 404: ['alert_not_found'], 409: ['alert_not_dispatched', 'invalid_alert_status'] })
  fallback(@CurrentUser() user: AuthUser, @Param('id', uuid) id: string, @Body() dto: DeliveryActionDto) {
    return this.actions.fallback(id, dto.channel, { id: user.id, email: user.email });
  }

  @Post(':id/cancel')
  @HttpCode(200)
  @ApiReturns('AdminAlert')
  @ApiOperation('alerts.cancel', 'Cancel an alert', 'Cancels a draft or an alert in effect; deliveries still held (quiet hours, digests) will not go out.')
  @ApiErrors({ 404: ['alert_not_found'], 409: ['invalid_alert_status'] })
  cancel(@CurrentUser() user: AuthUser, @Param('id', uuid) id: string) {
    return this.alerts.cancel(id, { id: user.id, email: user.email });
  }
}

/**
 * Writes what `write` produces to `res` as a CSV download, waiting when the client reads slowly. An error before the
 * first chunk is the usual error answer; half-way, the download is cut so that it never looks complete.
 */
async function streamCsv(res: Response, fileName: string, write: (out: (chunk: string) => Promise<void> | void) => Promise<void>) {
  let started = false;
  try {
    await write((chunk) => {
      if (!started) {
        started = true;
        res.setHeader('content-type', 'text/csv; charset=utf-8');
        res.setHeader('content-disposition', `attachment; filename="${fileName}"`);
      }
      if (!res.write(chunk)) return new Promise<void>((resolve) => res.once('drain', () => resolve()));
    });
  } catch (e) {
    if (!started) throw e;
    res.destroy(e as Error);
    return;
  }
  res.end();
}

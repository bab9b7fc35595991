import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { AuthUser, CurrentUser, MinRole } from '@beacon/auth';
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
import { ApiErrors, ApiFile, ApiOperation, ApiReturns, ErrorMap } from '@beacon/common';
import { RateLimited } from '../config/rate-limits';
import { SendDraftDto } from './dto/send-draft.dto';
import { AUDIENCE_TOKEN_HEADER } from '@beacon/contracts';
import { AudienceGuard } from './audience-guard.service';
import { SendPreviewQuery } from './dto/audience-preview.query';
import type { AdminAlert } from '@beacon/contracts';

/** The first send's errors of its time (sendAt) and of the approval policy (issue #38). */
const SEND_AT_ERRORS = ['send_at_after_expiry', 'send_at_in_past', 'send_at_too_far'] as const;

/** What a sending call carrying an audience preview's token may be refused for (AudienceGuard, issue #38). */
const AUDIENCE_GUARD_ERRORS = {
  400: ['invalid_audience_token'],
  409: ['audience_changed', 'audience_preview_expired', 'audience_preview_mismatch'],
} as const satisfies ErrorMap;

/** A first send's area: one, contact groups, or everyone by choice (issue #38, #42). */
const AREA_CHOICE_ERRORS = { 400: ['area_and_everyone', 'area_required', 'groups_and_everyone'] } as const satisfies ErrorMap;

/** The contact groups a body names (issue #42): more than ALERT_GROUPS_MAX, or one that does not exist. */
const GROUP_ERRORS = { 400: ['alert_group_not_found', 'alert_too_many_groups'] } as const satisfies ErrorMap;

/** 202 when the approval policy holds the alert for a second person: accepted, not sent. */
const sendStatus = (alert: AdminAlert, otherwise: number) => (alert.status === 'pending_approval' ? 202 : otherwise);

/** Admin: whom an alert would reach, create and send, list, stats, one alert with its deliveries, send a draft, cancel. */
@Controller()
// each route names the least role it needs (issue #38); one that does not is for admins only
@MinRole('admin')
export class AdminAlertsController {
  constructor(
    private readonly alerts: AlertsService,
    private readonly audience: AudiencePreviewService,
    private readonly actions: DeliveryActionsService,
    private readonly report: DeliveryReportService,
    private readonly operations: OperationsService,
    private readonly revisions: AlertRevisionsService,
    private readonly guard: AudienceGuard,
  ) {}

  /** Whom this alert would reach if sent now; nothing is stored or sent. */
  @Post('audience')
  @MinRole('publisher')
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
  @ApiErrors(AREA_CHOICE_ERRORS)
  @ApiErrors(GROUP_ERRORS)
  preview(@CurrentUser() user: AuthUser, @Body() dto: CreateAlertDto) {
    return this.audience.preview(user, dto);
  }

  /** Whom sending this draft now would reach; nothing is sent. */
  @Get(':id/audience')
  @MinRole('publisher')
  @RateLimited('audiencePreview')
  @ApiReturns('AlertAudience')
  @ApiOperation(
    'alerts.previewSend',
    'Whom sending a draft would reach',
    'Counts the people the draft, as stored, would reach if sent now, by channel, with the token POST /:id/send takes in the Audience-Token header. A draft with no area and no contact groups needs everyone=true.',
  )
  @ApiErrors({ 404: ['alert_not_found'], 409: ['cap_area_required', 'invalid_alert_status'] })
  @ApiErrors(AREA_CHOICE_ERRORS)
  async previewSend(@Param('id', uuid) id: string, @Query() q: SendPreviewQuery) {
    return (await this.audience.forSend(id, { everyone: q.everyone === 'true' })).audience;
  }

  /** Whom this update would tell; nothing is changed or sent. */
  @Post(':id/update/audience')
  @MinRole('publisher')
  @TranslationKeysChecked()
  @RateLimited('audiencePreview')
  @HttpCode(200)
  @ApiReturns('AlertAudience')
  @ApiOperation(
    'alerts.previewUpdate',
    'Whom an update would tell',
    'Counts the people this update would tell: those it reached who are still concerned, those the new area leaves out, those newly concerned (`told`), by channel.',
  )
  @ApiErrors(ALERT_CONTENT_ERRORS)
  @ApiErrors(ALERT_LOCATION_ERRORS)
  @ApiErrors({ 400: ['area_required'], 404: ['alert_not_found'], 409: ['invalid_alert_status'] })
  @ApiErrors(GROUP_ERRORS)
  async previewUpdate(@Param('id', uuid) id: string, @Body() dto: UpdateAlertDto) {
    return (await this.audience.forUpdate(id, dto)).audience;
  }

  /** Whom the all-clear would tell; nothing is changed or sent. */
  @Post(':id/all-clear/audience')
  @MinRole('publisher')
  @TranslationKeysChecked()
  @RateLimited('audiencePreview')
  @HttpCode(200)
  @ApiReturns('AlertAudience')
  @ApiOperation(
    'alerts.previewAllClear',
    'Whom the all-clear would tell',
    'Counts the people the all-clear would tell (everyone the alert reached), by channel.',
  )
  @ApiErrors({ 404: ['alert_not_found'], 409: ['invalid_alert_status'] })
  async previewAllClear(@Param('id', uuid) id: string, @Body() dto: AllClearDto) {
    return (await this.audience.forAllClear(id, dto)).audience;
  }

  /** Whom "Retry failed" on the channel would send to again; nothing is sent. */
  @Post(':id/retry/audience')
  @MinRole('publisher')
  @RateLimited('audiencePreview')
  @HttpCode(200)
  @ApiReturns('AlertAudience')
  @ApiOperation('alertDeliveries.previewRetry', 'Whom a retry would reach', 'Counts the people whose deliveries of the alert failed on the channel.')
  @ApiErrors({ 404: ['alert_not_found'], 409: ['alert_not_dispatched', 'invalid_alert_status'] })
  async previewRetry(@Param('id', uuid) id: string, @Body() dto: DeliveryActionDto) {
    return (await this.audience.forRetry(id, dto.channel)).audience;
  }

  /** Whom sending to the unreached on the channel would reach; nothing is sent. */
  @Post(':id/fallback/audience')
  @MinRole('publisher')
  @RateLimited('audiencePreview')
  @HttpCode(200)
  @ApiReturns('AlertAudience')
  @ApiOperation(
    'alertDeliveries.previewFallback',
    'Whom a fallback would reach',
    'Counts the people the alert concerns whom nothing reached and the channel can reach.',
  )
  @ApiErrors({ 404: ['alert_not_found'], 409: ['alert_not_dispatched', 'invalid_alert_status'] })
  async previewFallback(@Param('id', uuid) id: string, @Body() dto: DeliveryActionDto) {
    return (await this.audience.forFallback(id, dto.channel)).audience;
  }

  @Post()
  @MinRole('publisher')
  @TranslationKeysChecked()
  @ApiReturns('AdminAlert')
  @ApiOperation(
    'alerts.create',
    'Create an alert',
    'Stores the alert and, unless it is a draft, sends it to everyone concerned, or at `sendAt` (status scheduled). When the approval policy asks for a second person, it is stored awaiting approval (status pending_approval) and the answer is 202. With an Idempotency-Key, the same request again answers the alert it made (200, with Idempotent-Replayed: true) instead of a second one.',
  )
  @ApiErrors(ALERT_CONTENT_ERRORS)
  @ApiErrors(ALERT_LOCATION_ERRORS)
  @ApiErrors({
    400: ['invalid_idempotency_key', 'severity_priority_mismatch', 'type_required', 'send_at_with_draft', ...SEND_AT_ERRORS],
    422: ['idempotency_key_reused'],
  })
  @ApiErrors(AREA_CHOICE_ERRORS)
  @ApiErrors(GROUP_ERRORS)
  @ApiErrors(AUDIENCE_GUARD_ERRORS)
  async create(
    @CurrentUser() user: AuthUser,
    @Body() dto: CreateAlertDto,
    @Res({ passthrough: true }) res: Response,
    @Headers('idempotency-key') idempotencyKey?: string,
    @Headers(AUDIENCE_TOKEN_HEADER) audienceToken?: string,
  ) {
    await this.guard.check(audienceToken, () => this.audience.forCreate(user, dto));
    const { alert, created } = await this.alerts.create(user, dto, idempotencyKey);
    if (!created) res.setHeader('Idempotent-Replayed', 'true');
    res.status(sendStatus(alert, created ? 201 : 200));
    return alert;
  }

  @Get()
  @MinRole('viewer')
  @ApiReturns('AdminAlertPage')
  @ApiOperation('alerts.list', 'List alerts', 'The alert history, filtered and paged.')
  list(@Query() q: ListAlertsQuery) {
    return this.alerts.list(q);
  }

  /** The history matching these filters, all of it, as CSV (streamed). */
  @Get('export.csv')
  @MinRole('viewer')
  @RateLimited('csvExports')
  @ApiFile('text/csv')
  @ApiOperation('alerts.export', 'Export the alert history', 'The history matching the filters, all of it, as CSV (streamed).')
  exportCsv(@Query() q: ExportAlertsQuery, @Res() res: Response) {
    // Not the history page's own export (alert-history-<date>.csv, the page shown, fewer columns): one name per export.
    return streamCsv(res, `alert-history-all-${new Date().toISOString().slice(0, 10)}.csv`, (out) => this.report.writeHistory(listFilter(q), out));
  }

  @Get('stats')
  @MinRole('viewer')
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
  @MinRole('viewer')
  @ApiReturns('AdminAlerts')
  @ApiOperation('alerts.listRecent', 'Recent alerts', 'The latest alerts, for the dashboard.')
  recent(@Query() q: RecentQuery) {
    return this.alerts.recent(q.limit);
  }

  @Get(':id')
  @MinRole('viewer')
  @ApiReturns('AdminAlert')
  @ApiOperation('alerts.get', 'One alert', 'An alert with its delivery figures.')
  @ApiErrors({ 404: ['alert_not_found'] })
  one(@Param('id', uuid) id: string) {
    return this.alerts.get(id);
  }

  @Get(':id/deliveries')
  @MinRole('viewer')
  @ApiReturns('AlertDeliveryPage')
  @ApiOperation('alertDeliveries.list', "An alert's deliveries", 'The deliveries of an alert, one per person and channel, filtered and paged.')
  @ApiErrors({ 404: ['alert_not_found'] })
  deliveries(@Param('id', uuid) id: string, @Query() q: DeliveriesQuery) {
    return this.report.page(id, q);
  }

  /** The per-recipient report: every delivery of the alert as CSV, streamed. */
  @Get(':id/deliveries.csv')
  @MinRole('viewer')
  @RateLimited('csvExports')
  @ApiFile('text/csv')
  @ApiOperation('alertDeliveries.export', "Export an alert's deliveries", 'The per-recipient report: every delivery of the alert as CSV (streamed).')
  @ApiErrors({ 404: ['alert_not_found'] })
  deliveriesCsv(@Param('id', uuid) id: string, @Res() res: Response) {
    return streamCsv(res, `alert-${id}-recipients.csv`, (out) => this.report.write(id, out));
  }

  /** The delivery as it happens: pace and ETA per channel, retries and when, failures by reason, the first minutes' outcomes. */
  @Get(':id/operations')
  @MinRole('viewer')
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
  @MinRole('viewer')
  @ApiReturns('AlertVersions')
  @ApiOperation('alerts.versions', "An alert's versions", 'Every version of the alert as it was sent: the original, each update, the all-clear.')
  @ApiErrors({ 404: ['alert_not_found'] })
  versions(@Param('id', uuid) id: string) {
    return this.revisions.versions(id);
  }

  /** A new version of the alert in effect: those it reached are told what changed, those newly concerned get it. */
  @Post(':id/update')
  @MinRole('publisher')
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
  @ApiErrors({ 400: ['area_required'] })
  @ApiErrors(GROUP_ERRORS)
  @ApiErrors(AUDIENCE_GUARD_ERRORS)
  async update(
    @CurrentUser() user: AuthUser,
    @Param('id', uuid) id: string,
    @Body() dto: UpdateAlertDto,
    @Headers(AUDIENCE_TOKEN_HEADER) audienceToken?: string,
  ) {
    await this.guard.check(audienceToken, () => this.audience.forUpdate(id, dto));
    return this.revisions.update(id, dto, { id: user.id, email: user.email });
  }

  /** The danger is over: the alert ends and everyone it reached is told. */
  @Post(':id/all-clear')
  @MinRole('publisher')
  @TranslationKeysChecked()
  @HttpCode(200)
  @ApiReturns('AdminAlert')
  @ApiOperation(
    'alerts.allClear',
    'Give the all-clear',
    'The danger is over: the alert ends and everyone it reached is told, each in their language when `translations` has it.',
  )
  @ApiErrors({ 404: ['alert_not_found'], 409: ['invalid_alert_status'] })
  @ApiErrors(AUDIENCE_GUARD_ERRORS)
  async allClear(
    @CurrentUser() user: AuthUser,
    @Param('id', uuid) id: string,
    @Body() dto: AllClearDto,
    @Headers(AUDIENCE_TOKEN_HEADER) audienceToken?: string,
  ) {
    await this.guard.check(audienceToken, () => this.audience.forAllClear(id, dto));
    return this.revisions.allClear(id, dto, { id: user.id, email: user.email });
  }

  @Get(':id/audit')
  @MinRole('viewer')
  @ApiReturns('AlertAuditTrail')
  @ApiOperation('alerts.audit', "An alert's audit trail", 'Who did what to the alert, and when.')
  @ApiErrors({ 404: ['alert_not_found'] })
  audit(@Param('id', uuid) id: string) {
    return this.alerts.auditTrail(id);
  }

  @Post(':id/send')
  @MinRole('publisher')
  @HttpCode(200)
  @ApiReturns('AdminAlert')
  @ApiOperation(
    'alerts.send',
    'Send a draft',
    'Sends a draft alert to everyone concerned, or at `sendAt` (status scheduled). When the approval policy asks for a second person, it waits for approval (status pending_approval) and the answer is 202.',
  )
  @ApiErrors({ 400: [...SEND_AT_ERRORS], 404: ['alert_not_found'], 409: ['cap_area_required', 'invalid_alert_status'] })
  @ApiErrors(AREA_CHOICE_ERRORS)
  @ApiErrors(AUDIENCE_GUARD_ERRORS)
  async send(
    @CurrentUser() user: AuthUser,
    @Param('id', uuid) id: string,
    @Body() dto: SendDraftDto,
    @Res({ passthrough: true }) res: Response,
    @Headers(AUDIENCE_TOKEN_HEADER) audienceToken?: string,
  ) {
    await this.guard.check(audienceToken, () => this.audience.forSend(id, dto));
    const alert = await this.alerts.send(id, { id: user.id, email: user.email }, dto);
    res.status(sendStatus(alert, 200));
    return alert;
  }

  /** The channel's failed deliveries sent again. */
  @Post(':id/retry')
  @MinRole('publisher')
  @HttpCode(200)
  @ApiReturns('RetryResult')
  @ApiOperation('alertDeliveries.retry', 'Retry failed deliveries', "Sends the channel's failed deliveries of the alert again.")
  @ApiErrors({ 400: ['channel_not_configured'], 404: ['alert_not_found'], 409: ['alert_not_dispatched', 'invalid_alert_status'] })
  @ApiErrors(AUDIENCE_GUARD_ERRORS)
  async retry(
    @CurrentUser() user: AuthUser,
    @Param('id', uuid) id: string,
    @Body() dto: DeliveryActionDto,
    @Headers(AUDIENCE_TOKEN_HEADER) audienceToken?: string,
  ) {
    await this.guard.check(audienceToken, () => this.audience.forRetry(id, dto.channel));
    return this.actions.retryFailed(id, dto.channel, { id: user.id, email: user.email });
  }

  /** The people nothing reached, sent the alert on another channel. */
  @Post(':id/fallback')
  @MinRole('publisher')
  @HttpCode(200)
  @ApiReturns('FallbackResult')
  @ApiOperation('alertDeliveries.fallback', 'Reach the unreached on another channel', 'Sends the alert on the channel given to the people no delivery reached.')
  @ApiErrors({ 400: ['channel_not_configured'], 404: ['alert_not_found'], 409: ['alert_not_dispatched', 'invalid_alert_status'] })
  @ApiErrors(AUDIENCE_GUARD_ERRORS)
  async fallback(
    @CurrentUser() user: AuthUser,
    @Param('id', uuid) id: string,
    @Body() dto: DeliveryActionDto,
    @Headers(AUDIENCE_TOKEN_HEADER) audienceToken?: string,
  ) {
    await this.guard.check(audienceToken, () => this.audience.forFallback(id, dto.channel));
    return this.actions.fallback(id, dto.channel, { id: user.id, email: user.email });
  }

  @Post(':id/cancel')
  @MinRole('publisher')
  @HttpCode(200)
  @ApiReturns('AdminAlert')
  @ApiOperation(
    'alerts.cancel',
    'Cancel an alert',
    'Cancels a draft, an alert scheduled or awaiting approval (it never goes out), or an alert in effect; deliveries still held (quiet hours, digests) will not go out.',
  )
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

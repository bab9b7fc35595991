import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  AdminAlert,
  AlertCategory,
  categoryOfType,
  CATEGORY_DEFAULT_TYPE,
  Page,
  priorityOfSeverity,
  Severity,
  severityFromPriority,
  successRate,
  UserAlert,
  emptyCounts,
  DeliveryStatus,
  DELIVERY_STATUSES,
  AlertStatus,
  UnreadCount,
  type AlertDismissal,
} from '@beacon/contracts';
import { AppError, badRequest, conflict, LiveEvents, notFound } from '@beacon/common';
import type { AuthUser } from '@beacon/auth';
import { DeliveriesRepository } from '../deliveries/deliveries.repository';
import { ServerKeys } from '../keys/server-keys';
import { isTimeZone } from '../preferences/time-zone';
import { assertAreaChosen, toAlertArea } from './alert-area';
import { assertGroupsFound, toGroupIds } from './alert-groups';
import { AlertRow, readerEvents, toAdminAlert, toSummary, toUserAlert } from './alert.rows';
import { AlertListFilter, AlertsRepository, NewAlert } from './alerts.repository';
import { Actor, AuditRepository } from './audit.repository';
import { AudienceRepository } from './audience.repository';
import { CreateAlertDto } from './dto/create-alert.dto';
import { assertSmsFits, toTranslations } from './alert-texts';
import { ListAlertsQuery, MyAlertsQuery } from './dto/list-alerts.query';
import { HelpRequestDto } from './dto/help-request.dto';
import { HelpRequestsRepository } from './help-requests.repository';
import { ProgressPublisher } from '../live/progress.publisher';
import { DispatchOutbox } from '../outbox/dispatch-outbox';
import { ApprovalPolicyRepository } from './approval-policy.repository';
import { approvalReason, approvalRequest, Sender, sendTime } from './send-review';
import { SendDraftDto } from './dto/send-draft.dto';
import { toPage } from './page';

/** An alert that has ended, which its readers may dismiss. */
const ENDED_STATUSES: AlertStatus[] = ['all_clear', 'expired', 'cancelled'];

@Injectable()
export class AlertsService {
  constructor(
    private readonly alerts: AlertsRepository,
    private readonly deliveryRows: DeliveriesRepository,
    private readonly audience: AudienceRepository,
    private readonly help: HelpRequestsRepository,
    private readonly live: LiveEvents,
    private readonly keys: ServerKeys,
    private readonly progress: ProgressPublisher,
    private readonly audit: AuditRepository,
    private readonly outbox: DispatchOutbox,
    private readonly approvalPolicy: ApprovalPolicyRepository,
  ) {}

  /** Who did what to the alert, and when (404 for an unknown alert). */
  async auditTrail(id: string) {
    if (!(await this.alerts.findById(id))) throw notFound('Alert', 'alert_not_found');
    return this.audit.forAlert(id);
  }

  /**
   * Creates an alert and, unless it is a draft, sends it: stored active, then one dispatch job with a
   * deterministic id; or, with `sendAt`, stored scheduled; or, when the approval policy asks for it, stored awaiting
   * approval (sendReview). Idempotent on the Idempotency-Key header or the body's clientId: a double submit returns
   * the first alert (created=false) and at most re-queues the same dispatch job, which is then a no-op. The same
   * key with a different request is refused with 422 (IETF draft "The Idempotency-Key HTTP Header Field"): answering
   * with the first alert would tell the sender that the second one went out.
   */
  async create(user: AuthUser, dto: CreateAlertDto, idempotencyKey?: string): Promise<{ alert: AdminAlert; created: boolean }> {
    const key = idempotencyKey ?? dto.clientId ?? null;
    if (key !== null && (key.length < 8 || key.length > 200)) throw badRequest('Idempotency-Key must be 8 to 200 characters', 'invalid_idempotency_key');
    const input = this.toNewAlert(dto, user.id, key);
    const actor: Actor = { id: user.id, email: user.email };
    input.createdByEmail = user.email ?? null;
    if (dto.sendAt !== undefined && input.status === 'draft')
      throw badRequest('A draft is only saved: give the send time when you send it', 'send_at_with_draft');
    input.sendAt = sendTime(dto.sendAt, input.expiresAt);
    await this.assertGroupsExist(input.groupIds);
    // What was asked, before the policy decides how it goes out: a replay after a policy change is the same request.
    if (key !== null) input.idempotencyFingerprint = requestFingerprint(input);
    await this.sendReview(input, 'person', actor);
    const { id, created, fingerprint } = await this.alerts.insert(input, actor);
    if (!created && fingerprint && fingerprint !== input.idempotencyFingerprint) {
      throw new AppError(
        422,
        'idempotency_key_reused',
        'This request was already used to send a different alert (same Idempotency-Key). Check the alerts list before sending it as a new alert.',
      );
    }
    return { alert: await this.stored(id, created), created };
  }

  /**
   * An alert another system asked for (a CAP source, issue 23), made by toNewAlert like the form's: stored, then
   * dispatched unless a draft (or held for approval when the policy holds automatic sends), and told to the admins'
   * screens. One per `source`/`sourceRef`: created=false when it exists.
   */
  async createFrom(input: NewAlert, actor: Actor): Promise<{ alert: AdminAlert; created: boolean }> {
    await this.sendReview(input, 'automatic', actor);
    const { id, created } = await this.alerts.insert(input, actor);
    return { alert: await this.stored(id, created), created };
  }

  /** 400 alert_group_not_found when a contact group asked for (issue #42) does not exist. */
  async assertGroupsExist(groupIds: readonly string[] | undefined) {
    if (groupIds?.length) assertGroupsFound(await this.alerts.missingGroups(groupIds));
  }

  private async stored(id: string, created: boolean): Promise<AdminAlert> {
    const row = (await this.alerts.findById(id))!;
    if (row.status === 'active') await this.enqueueDispatch(id);
    if (created) this.live.toAdmins('alert:new', toSummary(row));
    return toAdminAlert(row);
  }

  toNewAlert(dto: CreateAlertDto, createdBy: string | null, idempotencyKey: string | null): NewAlert {
    if (!dto.type && !dto.category) throw badRequest('Alert type is required', 'type_required');
    const severity: Severity = dto.severity ?? (dto.priority ? severityFromPriority(dto.priority) : 'medium');
    if (dto.severity && dto.priority && priorityOfSeverity(dto.severity) !== dto.priority) {
      throw badRequest('Priority and severity disagree: send one of them', 'severity_priority_mismatch');
    }
    const category: AlertCategory = dto.category ?? categoryOfType(dto.type!);
    const type = dto.type ?? CATEGORY_DEFAULT_TYPE[category];
    const expiresAt = dto.expiresAt ? new Date(dto.expiresAt) : null;
    if (expiresAt && expiresAt.getTime() <= Date.now()) throw badRequest('Expiry must be in the future', 'expiry_in_past');
    const area = toAlertArea(dto);
    const groupIds = toGroupIds(dto.groupIds) ?? [];
    assertAreaChosen(area, dto.everyone, !dto.draft, groupIds);
    const translations = toTranslations(dto.translations);
    if (dto.channels.includes('sms')) assertSmsFits({ title: dto.title, message: dto.message, translations });
    return {
      title: dto.title,
      message: dto.message,
      translations,
      type,
      severity,
      category,
      locationName: dto.locationName?.trim() || null,
      // Spec: radius defaults to 50 km; a radius only means something around a point (toAlertArea).
      lat: area.lat,
      lng: area.lng,
      radiusKm: area.radiusKm,
      polygon: area.polygon,
      parts: area.parts ?? null,
      areaDescription: area.description ?? null,
      groupIds,
      expiresAt,
      channels: dto.channels,
      status: dto.draft ? 'draft' : 'active',
      source: 'admin',
      createdBy,
      idempotencyKey,
      remindAfterMinutes: dto.remindAfterMinutes ?? null,
    };
  }

  /**
   * How a new alert asked to go out (`active`, with its `sendAt`) goes out: held for approval when the policy asks it
   * of this sender (issue 38), else scheduled when it has a time, else now. Applies to the first send only.
   */
  private async sendReview(input: NewAlert, sender: Sender, requester: Actor) {
    if (input.status !== 'active') return;
    const reason = approvalReason(await this.approvalPolicy.get(), input, sender);
    if (reason) {
      input.status = 'pending_approval';
      input.approval = approvalRequest(reason, requester);
    } else if (input.sendAt) input.status = 'scheduled';
  }

  /** Through the outbox: a Redis that does not answer delays the dispatch until it does, without failing the caller. */
  enqueueDispatch(alertId: string) {
    return this.outbox.enqueue(alertId);
  }

  /**
   * Sends a draft (e.g. one a verified incident created): now, or at `dto.sendAt` (scheduled), or, when the approval
   * policy asks for it, once a second person approved it (status pending_approval; the caller answers 202).
   */
  async send(id: string, actor: Actor, dto: SendDraftDto = {}): Promise<AdminAlert> {
    const draft = await this.alerts.findById(id);
    if (draft?.status !== 'draft') throw await this.transitionError(id, 'Only a draft alert can be sent');
    // A CAP message that only named places (geocodes) has no area yet: sent as it is, it would reach everyone.
    if (draft.source === 'cap' && draft.lat === null) {
      throw conflict('This official warning names no area Beacon can draw: give it an area before sending it', 'cap_area_required');
    }
    assertAreaChosen(draft, dto.everyone, true, draft.group_ids);
    const sendAt = sendTime(dto.sendAt, draft.expires_at);
    const reason = approvalReason(await this.approvalPolicy.get(), draft, 'person');
    const row = await this.alerts.send(id, actor, { sendAt, approval: reason ? approvalRequest(reason, actor) : null });
    if (!row) throw await this.transitionError(id, 'Only a draft alert can be sent');
    if (row.status === 'active') await this.enqueueDispatch(id);
    this.live.toAdmins('alert:updated', toSummary(row));
    return this.get(id);
  }

  /**
   * Cancels a draft, an alert waiting for its time or its approval (it never goes out), or one in effect; deliveries
   * still held (quiet hours, digests) will not go out.
   */
  async cancel(id: string, actor: Actor): Promise<AdminAlert> {
    const row = await this.alerts.cancel(id, actor);
    if (!row) throw await this.transitionError(id, 'Only a draft, scheduled, awaiting approval or active alert can be cancelled');
    await this.announceChange(row);
    return this.get(id);
  }

  /**
   * An alert's change (a new version, the all-clear, a draft's edit) or end (cancelled, expired) to admins and, once it
   * went out, to every user it concerns (AudienceRepository), so a screen that was told of it, channel or not, shows it
   * as it is now. One that never went out (a draft, edited, replaced by its feed or cancelled) is the admins' alone:
   * its unsent text must not reach anyone's screen.
   */
  async announceChange(row: AlertRow) {
    const summary = toSummary(row);
    this.live.toAdmins('alert:updated', summary);
    if (!row.sent_at) return;
    const told = readerEvents(row);
    await this.audience.stream(row, (userIds, _held, language) => this.live.toUsers(userIds, 'alert:updated', told(language)));
  }

  private async transitionError(id: string, message: string) {
    const existing = await this.alerts.findById(id);
    if (!existing) return notFound('Alert', 'alert_not_found');
    return conflict(`${message}; this one is ${existing.status}`, 'invalid_alert_status');
  }

  async get(id: string): Promise<AdminAlert> {
    const row = await this.alerts.findById(id);
    if (!row) throw notFound('Alert', 'alert_not_found');
    return toAdminAlert(row);
  }

  async list(q: ListAlertsQuery): Promise<Page<AdminAlert>> {
    const { rows, total } = await this.alerts.list({ ...listFilter(q), offset: (q.page - 1) * q.pageSize, limit: q.pageSize });
    return toPage(rows.map(toAdminAlert), total, q);
  }

  async recent(limit: number): Promise<AdminAlert[]> {
    return (await this.alerts.list({ offset: 0, limit })).rows.map(toAdminAlert);
  }

  async stats(tz = 'UTC', days = 7) {
    if (!isTimeZone(tz)) throw badRequest('tz must be an IANA time zone, e.g. America/Phoenix', 'invalid_time_zone');
    const { alerts, counts, perDay } = await this.alerts.stats(tz, days);
    const totals = emptyCounts();
    for (const { status, n } of counts) {
      const key = (status === 'sending' ? 'pending' : status) as DeliveryStatus;
      if ((DELIVERY_STATUSES as readonly string[]).includes(key)) totals[key] += n;
    }
    const totalDeliveries = Object.values(totals).reduce((a, b) => a + b, 0);
    return {
      totalSent: alerts.total_sent as number,
      activeAlerts: alerts.active as number,
      drafts: alerts.drafts as number,
      totalDeliveries,
      deliveries: totals,
      successRate: successRate(totals),
      perDay,
      timeZone: tz,
    };
  }

  // ------------------------------------------------------------------ user side

  async myAlerts(user: AuthUser, q: MyAlertsQuery): Promise<Page<UserAlert>> {
    const [{ rows, total }, language] = await Promise.all([
      this.alerts.forUser(user.id, {
        severity: q.severity,
        search: q.search,
        unreadOnly: q.unread,
        offset: (q.page - 1) * q.pageSize,
        limit: q.pageSize,
      }),
      this.alerts.languageOf(user.id),
    ]);
    return toPage(
      rows.map((r) => toUserAlert(r, language)),
      total,
      q,
    );
  }

  async activeForMe(user: AuthUser): Promise<UserAlert[]> {
    const [rows, language] = await Promise.all([this.alerts.activeForUser(user.id, 100), this.alerts.languageOf(user.id)]);
    return rows.map((r) => toUserAlert(r, language));
  }

  async oneForMe(user: AuthUser, alertId: string): Promise<UserAlert> {
    const [row, language] = await Promise.all([this.alerts.findForUser(alertId, user.id), this.alerts.languageOf(user.id)]);
    if (!row) throw notFound('Alert', 'alert_not_found');
    return toUserAlert(row, language);
  }

  /** "I'm Safe". */
  async markRead(user: AuthUser, alertId: string): Promise<{ alertId: string; read: true; readAt: string }> {
    await this.oneForMe(user, alertId);
    const readAt = await this.alerts.markRead(alertId, user.id);
    this.progress.touch(alertId);
    return { alertId, read: true, readAt: new Date(readAt).toISOString() };
  }

  /** Alerts in effect in my feed that I have not read (issue #40); ended ones never count. */
  async unreadCount(user: AuthUser): Promise<UnreadCount> {
    return { count: await this.alerts.unreadCount(user.id) };
  }

  /**
   * An ended alert (all-clear, expired, cancelled) of my feed put away: read, and left out of my feed from now on.
   * One in effect stays until it ends (409 alert_in_effect): its warning still holds. Idempotent.
   */
  async dismiss(user: AuthUser, alertId: string): Promise<AlertDismissal> {
    const status = await this.alerts.statusInFeed(alertId, user.id);
    if (!status) throw notFound('Alert', 'alert_not_found');
    if (!ENDED_STATUSES.includes(status)) {
      throw new AppError(409, 'alert_in_effect', 'This alert is still in effect: it can be dismissed once it has ended or the all-clear is given');
    }
    const dismissedAt = await this.alerts.dismiss(alertId, user.id);
    this.progress.touch(alertId);
    return { alertId, dismissedAt: new Date(dismissedAt).toISOString() };
  }

  async requestHelp(user: AuthUser, alertId: string, dto: HelpRequestDto) {
    await this.oneForMe(user, alertId);
    if ((dto.lat === undefined) !== (dto.lng === undefined))
      throw badRequest('Latitude and longitude go together: send both or neither', 'incomplete_location');
    const created = await this.help.insert({
      alertId,
      userId: user.id,
      userEmail: user.email,
      message: dto.message?.trim() ?? '',
      lat: dto.lat ?? null,
      lng: dto.lng ?? null,
    });
    this.progress.touch(alertId);
    return created;
  }

  /**
   * The service worker's reports, authorised by the per-delivery token only the recipient's browser could
   * decrypt from the push payload: 'delivered' (the notification was shown), 'ack' (Acknowledge pressed).
   */
  async receipt(deliveryId: string, event: string, token: string) {
    if (event !== 'delivered' && event !== 'ack') throw badRequest("event must be 'delivered' or 'ack'", 'invalid_receipt_event');
    const owner = await this.deliveryRows.findOwner(deliveryId);
    if (!owner || !(await this.keys.verifyReceipt(deliveryId, event, token))) throw new AppError(403, 'invalid_receipt', 'This receipt is not valid');
    // A digest's receipt speaks for every alert it listed.
    const alertIds = await this.deliveryRows.carriedAlertIds(deliveryId);
    if (event === 'delivered') await this.deliveryRows.markDeliveredByReceipt(deliveryId);
    else for (const alertId of alertIds) await this.alerts.markRead(alertId, owner.user_id);
    for (const alertId of alertIds) this.progress.touch(alertId);
    return { ok: true };
  }
}

/** What a create request asked for (not who or when), as a digest: equal for a retry of the same request. */
export function requestFingerprint(a: NewAlert): string {
  const asked = [
    a.title,
    a.message,
    a.type,
    a.severity,
    a.category,
    a.locationName,
    a.lat,
    a.lng,
    a.radiusKm,
    a.expiresAt?.toISOString() ?? null,
    [...a.channels].sort(),
    a.status,
    // Appended only when asked, so the fingerprints stored before reminders existed still match their replays.
    ...(a.remindAfterMinutes ? [a.remindAfterMinutes] : []),
    ...(a.translations && Object.keys(a.translations).length ? [a.translations] : []),
    ...(a.sendAt ? [{ sendAt: a.sendAt.toISOString() }] : []),
    ...(a.parts?.length ? [{ parts: a.parts }] : []),
    ...(a.groupIds?.length ? [{ groups: [...a.groupIds].sort() }] : []),
  ];
  return createHash('sha256').update(JSON.stringify(asked)).digest('base64url');
}

/** The history's filters as the repository reads them. The screens' priority filter: 'high' covers critical too. */
export function listFilter(q: Omit<ListAlertsQuery, 'page' | 'pageSize'>): Omit<AlertListFilter, 'offset' | 'limit'> {
  const severities: Severity[] | undefined = q.severity ? [q.severity] : q.priority === 'high' ? ['high', 'critical'] : q.priority ? [q.priority] : undefined;
  return { type: q.type, severities, category: q.category, status: q.status, search: q.search, incident: q.incident };
}

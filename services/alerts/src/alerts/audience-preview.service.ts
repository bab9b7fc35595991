import { Injectable } from '@nestjs/common';
import { AlertAudience, ChannelAudience, DELIVERY_CHANNELS, DeliveryChannel } from '@beacon/contracts';
import type { AuthUser } from '@beacon/auth';
import { conflict, notFound } from '@beacon/common';
import { channelProblem } from '../settings/channel-readiness';
import { SettingsRepository } from '../settings/settings.repository';
import { toPgPolygon } from '../deliveries/polygon-column';
import type { EligibilityAlert } from '../deliveries/eligibility.sql';
import { ServerKeys } from '../keys/server-keys';
import { assertAreaChosen, assertCapDraftHasArea } from './alert-area';
import type { AlertRow } from './alert.rows';
import { toAllClearTranslations } from './alert-texts';
import { AlertsRepository, NewAlert } from './alerts.repository';
import { AlertsService } from './alerts.service';
import { AudienceCounts, AudienceRepository } from './audience.repository';
import { AudienceRequest, bodyDigest, signAudienceToken } from './audience-token';
import { DeliveryActionsService } from './delivery-actions.service';
import { CreateAlertDto } from './dto/create-alert.dto';
import { SendDraftDto } from './dto/send-draft.dto';
import { AllClearDto, UpdateAlertDto } from './dto/update-alert.dto';
import { afterChanges, assertInEffect, assertUpdateFits } from './revisions.repository';
import { toChanges } from './revisions.service';

/** What the composer warns will happen on a channel that cannot deliver. */
const NOT_SENT: Record<DeliveryChannel, string> = {
  push: 'push notifications will not be sent.',
  sms: 'SMS will not be sent.',
  email: 'e-mails will not be sent.',
  voice: 'voice calls will not be made.',
};

/** A sending call's audience as it would be now (with its token), and what the call is, for AudienceGuard. */
export interface AudiencePreview {
  audience: AlertAudience;
  request: AudienceRequest;
}

/** An audience as counted, before each channel's readiness and the token are added. */
type Counted = Omit<AlertAudience, 'token' | 'channels'> & { channels: Partial<Record<DeliveryChannel, { recipients: number; held: number }>> };

/** What GET /api/alerts/:id/audience counts: an alert whose first send is still to come. */
const NOT_SENT_YET: AlertRow['status'][] = ['draft', 'pending_approval', 'scheduled'];

const NOBODY = { concerned: 0, recipients: 0, held: 0, unreachable: { noChannel: 0, noDevice: 0 } };

/**
 * Whom a sending call would reach or tell before it is made (issue #38): one preview per sending path, each counted by
 * the rule that path's deliveries are written with, with each channel's readiness, so an operator sees an unconfigured
 * channel or an empty audience before pressing Send, and a token (audience-token.ts) that binds the call to what was
 * shown: AudienceGuard recomputes the same preview when the call comes and refuses it if the audience moved since.
 */
@Injectable()
export class AudiencePreviewService {
  constructor(
    private readonly alerts: AlertsService,
    private readonly alertRows: AlertsRepository,
    private readonly audience: AudienceRepository,
    private readonly actions: DeliveryActionsService,
    private readonly settings: SettingsRepository,
    private readonly keys: ServerKeys,
  ) {}

  /** POST /api/alerts/audience: the create body, read and validated as POST /api/alerts reads it, counted by the dispatcher's rule. */
  async preview(user: AuthUser, dto: CreateAlertDto): Promise<AlertAudience> {
    return (await this.forCreate(user, dto)).audience;
  }

  /** A new alert: bound to what it says, where, how and to whom, as toNewAlert reads the body (not who or when). */
  async forCreate(user: AuthUser, dto: CreateAlertDto): Promise<AudiencePreview> {
    const alert = this.alerts.toNewAlert(dto, user.id, null);
    await this.alerts.assertGroupsExist(alert.groupIds);
    const asked: Partial<NewAlert> = { ...alert, createdBy: undefined, idempotencyKey: undefined, idempotencyFingerprint: undefined };
    return this.finish(
      { action: 'create', alertId: null, digest: bodyDigest(asked) },
      alert.channels,
      await this.firstSend(toEligibility(alert, user.id), alert.channels),
    );
  }

  /**
   * An alert not sent yet, as stored (GET /api/alerts/:id/audience): a draft, or one awaiting approval (what approving
   * it or sending it without approval sends now) or its time (what it would reach if it went out now), each counted as
   * a draft's send is, with the same choice of everyone for one with no area. Bound to its revision: an edit after the
   * preview, or a change of status (sent for approval, rejected), makes it another alert.
   */
  async forSend(id: string, dto: SendDraftDto): Promise<AudiencePreview> {
    const alert = await this.alertRows.findById(id);
    if (!alert) throw notFound('Alert', 'alert_not_found');
    if (!NOT_SENT_YET.includes(alert.status)) {
      throw conflict(
        `Only an alert not sent yet (a draft, scheduled or awaiting approval) is counted for its send; this one is ${alert.status}`,
        'invalid_alert_status',
      );
    }
    assertCapDraftHasArea(alert);
    assertAreaChosen(alert, dto.everyone, true, alert.group_ids);
    return this.firstSendOf(alert, !!dto.everyone);
  }

  /**
   * Approving an alert awaiting approval (or sending it without approval), for AudienceGuard: its first send, as forSend
   * counts it. Whether it goes to everyone was chosen when it was sent for approval (it has no area and no contact
   * groups only then), so the call does not say it again; `alert` is read by the caller, who checked it waits for approval.
   */
  forApproval(alert: AlertRow): Promise<AudiencePreview> {
    return this.firstSendOf(alert, alert.lat === null && !alert.group_ids?.length);
  }

  /** An alert's first send, bound to its revision and the choice of everyone. */
  private async firstSendOf(alert: AlertRow, everyone: boolean): Promise<AudiencePreview> {
    const digest = bodyDigest({ revision: alert.revision ?? 1, everyone });
    return this.finish({ action: 'send', alertId: alert.id, digest }, alert.channels, await this.firstSend(alert, alert.channels));
  }

  /**
   * An update: whom it tells (AudienceRepository.updatePreview), with whom the new version concerns and cannot reach
   * beside. A draft's edit goes to nobody.
   */
  async forUpdate(id: string, dto: UpdateAlertDto): Promise<AudiencePreview> {
    const row = await this.alertRows.findById(id);
    assertInEffect(row, 'updated', ['active', 'draft']);
    const changes = toChanges(dto);
    const next = afterChanges(row, changes);
    assertUpdateFits(row, changes);
    await this.alerts.assertGroupsExist(changes.groupIds);
    const request: AudienceRequest = {
      action: 'update',
      alertId: id,
      digest: bodyDigest({ changes, version: dto.version ?? null, revision: dto.revision ?? null }),
    };
    if (row.status === 'draft') return this.finish(request, row.channels, { ...NOBODY, channels: noneOn(row.channels) });
    const at = new Date();
    const [concerned, told, byTarget] = await Promise.all([
      this.audience.preview(next, row.channels, at),
      this.audience.updatePreview(id, next, row.channels, at),
      this.byTarget(next),
    ]);
    return this.finish(request, row.channels, {
      concerned: concerned.concerned,
      recipients: told.recipients,
      held: told.held,
      channels: told.channels,
      unreachable: unreachableOf(concerned),
      told: told.told,
      ...byTarget,
    });
  }

  /** The all-clear: everyone the alert reached, on the channels that reached them (a fallback's included). */
  async forAllClear(id: string, dto: AllClearDto): Promise<AudiencePreview> {
    const row = await this.alertRows.findById(id);
    assertInEffect(row, 'given the all-clear');
    const digest = bodyDigest({ message: dto.message || null, translations: toAllClearTranslations(dto.translations) });
    const told = await this.audience.allClearPreview({ ...row, channels: DELIVERY_CHANNELS }, new Date());
    const channels = DELIVERY_CHANNELS.filter((c) => row.channels.includes(c) || told.channels[c]!.recipients > 0);
    return this.finish({ action: 'all_clear', alertId: id, digest }, channels, {
      ...NOBODY,
      concerned: told.recipients,
      recipients: told.recipients,
      held: told.held,
      channels: told.channels,
    });
  }

  /** Retry failed: the people whose deliveries failed on the channel, sent again at once. */
  async forRetry(id: string, channel: DeliveryChannel): Promise<AudiencePreview> {
    await this.actions.inEffect(id);
    return this.atOnce('retry', id, channel, await this.audience.failedPeople(id, channel));
  }

  /** The fallback: the people nothing reached whom the channel can reach, sent the alert at once. */
  async forFallback(id: string, channel: DeliveryChannel): Promise<AudiencePreview> {
    const alert = await this.actions.inEffect(id);
    return this.atOnce('fallback', id, channel, await this.audience.unreachedPeople(alert, channel));
  }

  private atOnce(action: 'retry' | 'fallback', id: string, channel: DeliveryChannel, people: number) {
    const counted = { ...NOBODY, concerned: people, recipients: people, channels: { [channel]: { recipients: people, held: 0 } } };
    return this.finish({ action, alertId: id, digest: bodyDigest({ channel }) }, [channel], counted);
  }

  /** Whom an alert's first send reaches, by the dispatcher's rule (AudienceRepository.preview). */
  private async firstSend(alert: EligibilityAlert, channels: readonly DeliveryChannel[]): Promise<Counted> {
    const [counts, byTarget] = await Promise.all([this.audience.preview(alert, channels, new Date()), this.byTarget(alert)]);
    return {
      concerned: counts.concerned,
      recipients: counts.recipients,
      held: counts.held,
      channels: counts.channels,
      unreachable: unreachableOf(counts),
      ...byTarget,
    };
  }

  /**
   * How many people each part of what the alert targets concerns (issue #42), when it targets a contact group or an
   * area of several parts; nothing otherwise, where it would only repeat `concerned`.
   */
  private async byTarget(alert: EligibilityAlert): Promise<Pick<AlertAudience, 'byTarget'>> {
    if (alert.source === 'test' || (!alert.group_ids?.length && (alert.area_parts?.length ?? 0) < 2)) return {};
    return { byTarget: await this.audience.byTarget(alert) };
  }

  /** Each channel's readiness beside its counts, and the token of this request and these counts. */
  private async finish(request: AudienceRequest, channels: readonly DeliveryChannel[], counted: Counted): Promise<AudiencePreview> {
    const [settings, key] = await Promise.all([this.settings.get(), this.keys.audienceTokenKey()]);
    const ready: Partial<Record<DeliveryChannel, ChannelAudience>> = {};
    for (const c of channels) {
      const problem = channelProblem(settings, c);
      ready[c] = { ...counted.channels[c]!, ...(problem ? { configured: false, reason: `${problem}: ${NOT_SENT[c]}` } : { configured: true }) };
    }
    const token = signAudienceToken(key, {
      ...request,
      recipients: counted.recipients,
      channels: Object.fromEntries(channels.map((c) => [c, counted.channels[c]!.recipients])),
      issuedAt: Date.now(),
    });
    return { request, audience: { token, ...counted, channels: ready } };
  }
}

/** Whom an alert concerns and nothing of it reaches: in all, and those of them for a reason of their own. */
const unreachableOf = (c: AudienceCounts): AlertAudience['unreachable'] => ({
  noChannel: c.noChannel,
  noDevice: c.noDevice,
  ...(c.smsStopped !== undefined ? { smsStopped: c.smsStopped } : {}),
});

const noneOn = (channels: readonly DeliveryChannel[]) => Object.fromEntries(channels.map((c) => [c, { recipients: 0, held: 0 }]));

/** A new alert as eligibility reads it. */
const toEligibility = (alert: NewAlert, createdBy: string): EligibilityAlert => ({
  severity: alert.severity,
  category: alert.category,
  lat: alert.lat,
  lng: alert.lng,
  radius_km: alert.radiusKm,
  area_polygon: alert.polygon ? toPgPolygon(alert.polygon) : null,
  area_parts: alert.parts ?? null,
  group_ids: alert.groupIds ?? [],
  source: 'admin',
  created_by: createdBy,
});

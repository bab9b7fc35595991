import { Injectable } from '@nestjs/common';
import type { AlertAudience, ChannelAudience, DeliveryChannel } from '@beacon/contracts';
import type { AuthUser } from '@beacon/auth';
import { SettingsRepository } from '../settings/settings.repository';
import { AlertsService } from './alerts.service';
import { AudienceRepository } from './audience.repository';
import { CreateAlertDto } from './dto/create-alert.dto';

/**
 * Whom an alert would reach before it is sent (the composer's preview and its "Send to N people" confirmation):
 * the body of POST /api/alerts, read and validated the same way, counted by the dispatcher's rule, and each
 * channel's readiness, so an operator sees an unconfigured channel or an empty audience before pressing Send.
 */
@Injectable()
export class AudiencePreviewService {
  constructor(
    private readonly alerts: AlertsService,
    private readonly audience: AudienceRepository,
    private readonly settings: SettingsRepository,
  ) {}

  async preview(user: AuthUser, dto: CreateAlertDto): Promise<AlertAudience> {
    const alert = this.alerts.toNewAlert(dto, user.id, null);
    const [counts, readiness] = await Promise.all([
      this.audience.preview(
        { severity: alert.severity, category: alert.category, lat: alert.lat, lng: alert.lng, radius_km: alert.radiusKm, source: 'admin', created_by: user.id },
        alert.channels,
        new Date(),
      ),
      this.readiness(),
    ]);
    const channels: Partial<Record<DeliveryChannel, ChannelAudience>> = {};
    for (const c of alert.channels) channels[c] = { ...counts.channels[c]!, ...readiness[c] };
    return {
      concerned: counts.concerned,
      recipients: counts.recipients,
      held: counts.held,
      channels,
      unreachable: { noChannel: counts.noChannel, noDevice: counts.noDevice },
    };
  }

  /** Whether each channel can deliver now, and if not, what the operator should do. */
  private async readiness(): Promise<Record<DeliveryChannel, Pick<ChannelAudience, 'configured' | 'reason'>>> {
    const { webhook, email } = await this.settings.get();
    const sms = !webhook.enabled
      ? { configured: false, reason: 'The SMS webhook is turned off in Admin Settings: SMS will not be sent.' }
      : !webhook.url
        ? { configured: false, reason: 'No SMS webhook URL is set in Admin Settings: SMS will not be sent.' }
        : { configured: true };
    // Web push needs no account (Beacon signs with its own VAPID keys); whether the relay answers, Test Connection says.
    const mail = email.enabled ? { configured: true } : { configured: false, reason: 'E-mail is turned off in Admin Settings: e-mails will not be sent.' };
    return { push: { configured: true }, sms, email: mail };
  }
}

import { Injectable } from '@nestjs/common';
import type { AlertAudience, ChannelAudience, DeliveryChannel } from '@beacon/contracts';
import type { AuthUser } from '@beacon/auth';
import { channelProblem } from '../settings/channel-readiness';
import { SettingsRepository } from '../settings/settings.repository';
import { toPgPolygon } from '../deliveries/polygon-column';
import { AlertsService } from './alerts.service';
import { AudienceRepository } from './audience.repository';
import { CreateAlertDto } from './dto/create-alert.dto';

/** What the composer warns will happen on a channel that cannot deliver. */
const NOT_SENT: Record<DeliveryChannel, string> = {
  push: 'push notifications will not be sent.',
  sms: 'SMS will not be sent.',
  email: 'e-mails will not be sent.',
};

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
    const [counts, settings] = await Promise.all([
      this.audience.preview(
        {
          severity: alert.severity,
          category: alert.category,
          lat: alert.lat,
          lng: alert.lng,
          radius_km: alert.radiusKm,
          area_polygon: alert.polygon ? toPgPolygon(alert.polygon) : null,
          source: 'admin',
          created_by: user.id,
        },
        alert.channels,
        new Date(),
      ),
      this.settings.get(),
    ]);
    const channels: Partial<Record<DeliveryChannel, ChannelAudience>> = {};
    for (const c of alert.channels) {
      const problem = channelProblem(settings, c);
      channels[c] = { ...counts.channels[c]!, ...(problem ? { configured: false, reason: `${problem}: ${NOT_SENT[c]}` } : { configured: true }) };
    }
    return {
      concerned: counts.concerned,
      recipients: counts.recipients,
      held: counts.held,
      channels,
      unreachable: { noChannel: counts.noChannel, noDevice: counts.noDevice },
    };
  }
}

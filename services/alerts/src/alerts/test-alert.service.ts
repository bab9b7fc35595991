import { Injectable } from '@nestjs/common';
import { AppError, badRequest } from '@beacon/common';
import type { AuthUser } from '@beacon/auth';
import { DeliveryChannel } from '@beacon/contracts';
import { PreferencesRepository } from '../preferences/preferences.repository';
import { PushSubscriptionsRepository } from '../push/push-subscriptions.repository';
import { SettingsRepository } from '../settings/settings.repository';
import { toAdminAlert } from './alert.rows';
import { AlertsRepository } from './alerts.repository';
import { AlertsService } from './alerts.service';

@Injectable()
export class TestAlertService {
  constructor(
    private readonly settings: SettingsRepository,
    private readonly subscriptions: PushSubscriptionsRepository,
    private readonly preferences: PreferencesRepository,
    private readonly alertsRepo: AlertsRepository,
    private readonly alerts: AlertsService,
  ) {}

  /**
   * Send Test Alert: a real alert through the real pipeline (queue, dispatcher, providers), addressed only to
   * the admin who asked, on the channels enabled in settings. Kept out of history and stats.
   */
  async testAlert(user: AuthUser) {
    const settings = await this.settings.get();
    const channels: DeliveryChannel[] = [];
    if (settings.push.enabled && (await this.subscriptions.countForUser(user.id)) > 0) channels.push('push');
    const prefs = await this.preferences.find(user.id);
    if (settings.webhook.enabled && prefs?.phone_number) channels.push('sms');
    if (!settings.push.enabled && !settings.webhook.enabled) throw badRequest('Both channels are disabled', 'channels_disabled');
    if (!channels.length) {
      throw new AppError(
        400,
        'no_test_target',
        'No device to receive a test alert: allow notifications in this browser, or add a phone number in your alert preferences',
      );
    }
    const { id } = await this.alertsRepo.insert({
      title: 'Test alert',
      message: 'This is a test alert from Beacon. No action is needed.',
      type: 'Test',
      severity: 'low',
      category: 'public_safety',
      locationName: null,
      lat: null,
      lng: null,
      radiusKm: null,
      expiresAt: new Date(Date.now() + 3600_000),
      channels,
      status: 'active',
      source: 'test',
      createdBy: user.id,
    });
    await this.alerts.enqueueDispatch(id);
    return { ok: true, channels, alert: toAdminAlert((await this.alertsRepo.findById(id))!) };
  }
}

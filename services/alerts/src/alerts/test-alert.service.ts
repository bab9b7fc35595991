import { Injectable } from '@nestjs/common';
import { AppError, badRequest } from '@beacon/common';
import type { AuthUser } from '@beacon/auth';
import { DeliveryChannel, TEST_ALERT_MESSAGE } from '@beacon/contracts';
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
   * the admin who asked, on the channels enabled in settings that reach them. Kept out of history and stats; every
   * channel marks it TEST (asDelivered) and its CAP says status Test.
   */
  async testAlert(user: AuthUser) {
    const settings = await this.settings.get();
    const channels: DeliveryChannel[] = [];
    if (settings.push.enabled && (await this.subscriptions.countForUser(user.id)) > 0) channels.push('push');
    const prefs = await this.preferences.find(user.id);
    if (settings.webhook.enabled && prefs?.phone_number) channels.push('sms');
    if (settings.email.enabled && prefs?.email_enabled && prefs.email) channels.push('email');
    if (!settings.push.enabled && !settings.webhook.enabled && !settings.email.enabled) throw badRequest('Every channel is turned off', 'channels_disabled');
    if (!channels.length) {
      throw new AppError(
        400,
        'no_test_target',
        'No device to receive a test alert: allow notifications in this browser, or add a phone number or an e-mail address in your alert preferences',
      );
    }
    const { id } = await this.alertsRepo.insert({
      title: 'Test alert',
      message: TEST_ALERT_MESSAGE,
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

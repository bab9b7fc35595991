import type { DeliveryChannel } from '@beacon/contracts';
import type { AdminSettings } from '../settings/settings.repository';

/** Whether the settings have `channel` turned on (push: its provider; SMS: the webhook; e-mail: the relay). */
export const channelEnabled = (settings: AdminSettings, channel: DeliveryChannel): boolean =>
  channel === 'push' ? settings.push.enabled : channel === 'sms' ? settings.webhook.enabled : settings.email.enabled;

/** Those of `channels` the settings have turned on, in their order. */
export const enabledChannels = (settings: AdminSettings, channels: readonly DeliveryChannel[]): DeliveryChannel[] =>
  channels.filter((c) => channelEnabled(settings, c));

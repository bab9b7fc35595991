import type { DeliveryChannel } from '@beacon/contracts';
import type { AdminSettings } from '../settings/settings.repository';

/**
 * Whether the settings have `channel` turned on (push: its provider; SMS: the webhook, or the Twilio account when it
 * sends SMS, which has no switch of its own; e-mail: the relay; voice: its switch).
 */
const ENABLED: Record<DeliveryChannel, (s: AdminSettings) => boolean> = {
  push: (s) => s.push.enabled,
  sms: (s) => (s.sms.provider === 'twilio' ? true : s.webhook.enabled),
  email: (s) => s.email.enabled,
  voice: (s) => s.voice.enabled,
};

export const channelEnabled = (settings: AdminSettings, channel: DeliveryChannel): boolean => ENABLED[channel](settings);

/** Those of `channels` the settings have turned on, in their order. */
export const enabledChannels = (settings: AdminSettings, channels: readonly DeliveryChannel[]): DeliveryChannel[] =>
  channels.filter((c) => channelEnabled(settings, c));

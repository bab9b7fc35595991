import type { DeliveryChannel } from '@beacon/contracts';
import { maskNumbers } from '../providers/twilio.client';
import type { ChannelHealthRepository } from '../settings/channel-health.repository';
import { channelProblem } from '../settings/channel-readiness';
import type { AdminSettings, SettingsRepository } from '../settings/settings.repository';
import { BatchRefused } from './channel-batch.runner';

/** An e-mail address as a relay's refusal may quote it ("550 5.1.1 <bob@example.com>: Recipient address rejected"). */
const EMAIL_LIKE = /[^\s<>()[\]"',;:]+@[^\s<>()[\]"',;:]+/g;

/** A provider's words with any phone number or e-mail address in them masked: provider health shows no contact. */
export const maskContacts = (text: string) => maskNumbers(text.replace(EMAIL_LIKE, '[address]'));

/**
 * Records a channel's failure for provider health (channel_health.last_error): a refused batch or a provider's final
 * refusal, in the provider's words, contacts masked. Advisory: the outcomes are what count, so a failed write is
 * dropped rather than failing the batch.
 */
export async function recordChannelError(health: ChannelHealthRepository, channel: DeliveryChannel, message: string): Promise<void> {
  try {
    await health.recordError(channel, maskContacts(message));
  } catch {
    // provider health is a hint; the deliveries' own errors are written with their outcomes
  }
}

/**
 * The settings a batch of `channel` sends with; when the channel cannot send as saved (channelProblem), the batch is
 * refused as a whole and provider health records why.
 */
export async function settingsToSend(settings: SettingsRepository, health: ChannelHealthRepository, channel: DeliveryChannel): Promise<AdminSettings> {
  const saved = await settings.get();
  const problem = channelProblem(saved, channel);
  if (problem) {
    await recordChannelError(health, channel, problem);
    throw new BatchRefused(problem);
  }
  return saved;
}

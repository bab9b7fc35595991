import type { DeliveryChannel } from '@beacon/contracts';
import { maskNumbers } from '../providers/twilio.client';
import type { ChannelHealthRepository } from '../settings/channel-health.repository';

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

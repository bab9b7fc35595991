import { observeProvider } from '@beacon/common';
import type { Outcome } from '../deliveries/deliveries.repository';
import { ProviderError } from '../providers/provider-error';
import type { ChannelHealthRepository } from '../settings/channel-health.repository';
import { sendEach, SendWindow, Settle, withinWindow } from './channel-batch.runner';
import { recordChannelError } from './channel-errors';
import type { ChannelMessage } from './send-targets.repository';

/**
 * Twilio requests in flight per SMS or voice batch. Twilio queues what an account sends beyond its rate (messages and
 * calls per second) rather than refusing it, so more lanes would only hold more requests open.
 */
export const TWILIO_LANES = 8;

/** A failed Twilio request as the delivery's outcome: transient ones retried (Retry-After honoured), the others final. */
export function providerFailure(id: string, e: unknown): Extract<Outcome, { failure: 'transient' | 'permanent' | 'gone' }> {
  if (e instanceof ProviderError) {
    return { id, ok: false, failure: e.failure === 'transient' ? 'transient' : 'permanent', error: e.message, retryAfterMs: e.retryAfterMs };
  }
  return { id, ok: false, failure: 'transient', error: `Twilio call failed: ${(e as Error)?.message ?? 'unknown error'}` };
}

/**
 * One Twilio request per message (a Messages or a Calls request, `request`), in TWILIO_LANES lanes, each outcome settled
 * before its lane sends again; none started past the window's deadline, one still unanswered at its stop left unknown
 * (transient). What Twilio queued is `sent` under its sid; the batch's last refusal is what provider health shows.
 * `request` may settle a message without a request (an Outcome: the person turned the channel off, no number).
 */
export async function sendThroughTwilio(
  channel: 'sms' | 'voice',
  messages: ChannelMessage[],
  window: SendWindow,
  settle: Settle,
  health: ChannelHealthRepository,
  request: (m: ChannelMessage) => Outcome | (() => Promise<{ sid: string }>),
): Promise<void> {
  const refusals: string[] = [];
  await sendEach(messages, TWILIO_LANES, settle, async (m): Promise<Outcome> => {
    const call = request(m);
    if (typeof call !== 'function') return call;
    if (Date.now() >= window.deadline) return { id: m.id, ok: false, failure: 'deferred', error: 'batch deadline passed before this request' };
    try {
      const answered = await withinWindow(window, () => observeProvider(channel, call));
      if (!answered.done) return { id: m.id, ok: false, failure: 'transient', error: 'Twilio: no answer by the end of the batch; outcome unknown' };
      return { id: m.id, ok: true, messageId: answered.value.sid };
    } catch (e) {
      const outcome = providerFailure(m.id, e);
      if (outcome.failure === 'permanent') refusals.push(outcome.error);
      return outcome;
    }
  });
  if (refusals.length) await recordChannelError(health, channel, refusals[refusals.length - 1]);
}

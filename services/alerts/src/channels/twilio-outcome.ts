import type { Outcome } from '../deliveries/deliveries.repository';
import { ProviderError } from '../providers/provider-error';

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

import { parseRetryAfter } from '@beacon/common';
import { RETRY_AFTER_MAX_MS } from '@beacon/contracts';

/**
 * How a provider call failed, which decides what the dispatcher does: transient failures (time-outs,
 * connection errors, 429, 5xx) are retried with backoff; permanent ones (400, 401, 413 and other 4xx) fail
 * the delivery at once; 'gone' (404/410 from a push endpoint) means the subscription no longer exists.
 */
export type ProviderFailure = 'transient' | 'permanent' | 'gone';

export class ProviderError extends Error {
  /**
   * `retryAfterMs`: how long the provider asked us to wait (Retry-After on a 429 or 503); the job's backoff
   * strategy (retryDelayMs in libs/contracts) uses it instead of the exponential delay.
   */
  constructor(
    readonly failure: ProviderFailure,
    message: string,
    readonly status?: number,
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

/** Retry-After as ms from `now`, capped at RETRY_AFTER_MAX_MS; null when absent or unreadable. */
export const providerRetryAfter = (value: string | null | undefined, now = Date.now()) => parseRetryAfter(value, RETRY_AFTER_MAX_MS, now);

/** The Retry-After of a 429 or 503 answer (others do not ask for a delay), in ms; undefined when none. */
export function retryAfterOf(status: number, header: string | null | undefined): number | undefined {
  if (status !== 429 && status !== 503) return undefined;
  return providerRetryAfter(header) ?? undefined;
}

export function classifyStatus(status: number, goneMeansDeleted = false): ProviderFailure | null {
  if (status >= 200 && status < 300) return null;
  if (goneMeansDeleted && (status === 404 || status === 410)) return 'gone';
  if (status === 408 || status === 425 || status === 429 || status >= 500) return 'transient';
  return 'permanent';
}

/** Network-level errors (refused, reset, DNS, time-out) are worth retrying. */
export function networkFailure(e: unknown, what: string): ProviderError {
  if (e instanceof ProviderError) return e;
  // fetch puts the system error's code on `cause`, node:http(s) on the error itself.
  const err = e as Error & { code?: string; cause?: { code?: string } };
  const timedOut = err?.name === 'TimeoutError' || err?.name === 'AbortError';
  return new ProviderError('transient', `${what}: ${timedOut ? 'timed out' : (err?.cause?.code ?? err?.code ?? err?.message ?? 'network error')}`);
}

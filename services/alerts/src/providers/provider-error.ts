/**
 * How a provider call failed, which decides what the dispatcher does: transient failures (time-outs,
 * connection errors, 429, 5xx) are retried with backoff; permanent ones (400, 401, 413 and other 4xx) fail
 * the delivery at once; 'gone' (404/410 from a push endpoint) means the subscription no longer exists.
 */
export type ProviderFailure = 'transient' | 'permanent' | 'gone';

export class ProviderError extends Error {
  constructor(readonly failure: ProviderFailure, message: string, readonly status?: number) {
    super(message);
    this.name = 'ProviderError';
  }
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
  const err = e as Error & { cause?: { code?: string } };
  const timedOut = err?.name === 'TimeoutError' || err?.name === 'AbortError';
  return new ProviderError('transient', `${what}: ${timedOut ? 'timed out' : err?.cause?.code ?? err?.message ?? 'network error'}`);
}

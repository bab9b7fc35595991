import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { recordProviderCall } from './metrics';
import { inSpan } from './tracing';

/** A failed call's kind for the error counter: the answer's status class, a time-out, or another network failure. */
export function providerErrorKind(e: unknown): string {
  const err = e as { status?: unknown; responseCode?: unknown; name?: unknown; message?: unknown } | null;
  const status = typeof err?.status === 'number' ? err.status : typeof err?.responseCode === 'number' ? err.responseCode : undefined;
  if (status !== undefined) return statusKind(status);
  return /time(d)?[ -]?out/i.test(`${err?.name ?? ''} ${err?.message ?? ''}`) ? 'timeout' : 'network';
}

const statusKind = (status: number) => `status_${Math.floor(status / 100)}xx`;

/**
 * One call to an outside provider (a push service, the SMS webhook, the mail relay): timed into
 * beacon_provider_request_duration_seconds, counted in beacon_provider_errors_total when it fails (a thrown error, or
 * an answer whose `statusOf` is 400 or more), and traced as a client span under the job that makes it.
 */
export function observeProvider<T>(provider: string, call: () => Promise<T>, statusOf?: (value: T) => number): Promise<T> {
  const started = process.hrtime.bigint();
  const seconds = () => Number(process.hrtime.bigint() - started) / 1e9;
  return inSpan(`provider ${provider}`, { kind: SpanKind.CLIENT, attributes: { 'beacon.provider': provider } }, async (span) => {
    let value: T;
    try {
      value = await call();
    } catch (e) {
      recordProviderCall(provider, seconds(), providerErrorKind(e));
      throw e;
    }
    const status = statusOf?.(value);
    const failed = status !== undefined && status >= 400;
    if (status !== undefined) span.setAttribute('http.response.status_code', status);
    if (failed) span.setStatus({ code: SpanStatusCode.ERROR, message: `status ${status}` });
    recordProviderCall(provider, seconds(), failed ? statusKind(status) : null);
    return value;
  });
}

import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/** The header that carries a request's id from the edge to the services (and back to the client). */
export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * What an incoming request id may look like: 8 to 128 characters of letters, digits and `._:-`, beginning with a
 * letter or digit. A UUID fits, and so do the ids load balancers and tracing proxies make; anything else (log
 * injection, a megabyte of header) is replaced by a fresh id, never copied into logs or job data.
 */
const REQUEST_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{7,127}$/;

export function isValidRequestId(value: unknown): value is string {
  return typeof value === 'string' && REQUEST_ID.test(value);
}

/** The incoming header's id when it is valid, otherwise a new one. */
export function requestIdFrom(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  return isValidRequestId(value) ? value : randomUUID();
}

interface RequestContext {
  requestId: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

/**
 * Whether a request's id follows its work through every await (AsyncLocalStorage), as it does by default. On Node 20
 * that has a price: once any storage has run, every promise the process makes pays its hooks. The dispatcher makes
 * thousands per channel batch (a tenth of its CPU at full load went to them, measured with bench/dispatch), so it runs
 * without (ServiceDefinition.requestContext 'explicit'): its jobs carry the id in their data, and the few lines that
 * need it name it (jobRequestId, logLine); elsewhere in that process currentRequestId() is undefined.
 */
let propagated = true;

/** Switches propagation for this process (set once, at its start, before any request or job runs). */
export function propagateRequestContext(on: boolean) {
  propagated = on;
}

/** The id of the request (or of the request that queued the job) this code runs for, if any. */
export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}

/** Runs `fn` (and everything it starts) as part of the request `requestId`; without propagation, just runs it. */
export function withRequestId<T>(requestId: string, fn: () => T): T {
  return propagated ? storage.run({ requestId }, fn) : fn();
}

/**
 * A log line that names the request it belongs to, for a process that does not propagate the context (the pino
 * mixin adds the id by itself otherwise; with both, the two agree).
 */
export function logLine(msg: string, requestId: string | undefined): string | { msg: string; requestId: string } {
  return requestId ? { msg, requestId } : msg;
}

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

/** The id of the request (or of the request that queued the job) this code runs for, if any. */
export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}

/** Runs `fn` (and everything it starts) as part of the request `requestId`. */
export function withRequestId<T>(requestId: string, fn: () => T): T {
  return storage.run({ requestId }, fn);
}

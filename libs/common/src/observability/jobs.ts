import { ROOT_CONTEXT, SpanKind } from '@opentelemetry/api';
import { currentRequestId, isValidRequestId, withRequestId } from './request-context';
import { contextFromHeaders, inSpan, traceHeaders } from './tracing';

/**
 * The field of a job's data that carries where the job came from across Redis: the id of the request that queued
 * it (directly, or through the jobs before it) and the W3C trace context of the span that queued it. The kernel adds
 * it when a job is queued and takes it off before the handler sees the data.
 */
export const JOB_CONTEXT_FIELD = '_context';

interface JobContext {
  requestId?: string;
  trace?: Record<string, string>;
}

/** `data` with the request id (by default the current one) and trace context, when there is any. */
export function withJobContext<T>(data: T, requestId: string | undefined = currentRequestId()): T {
  const trace = traceHeaders();
  if (!requestId && !Object.keys(trace).length) return data;
  if (!data || typeof data !== 'object' || Array.isArray(data)) return data;
  const context: JobContext = { ...(requestId ? { requestId } : {}), ...(Object.keys(trace).length ? { trace } : {}) };
  return { ...data, [JOB_CONTEXT_FIELD]: context };
}

/** Splits a job's data into what its handler reads and the context it carried (checked: it came through Redis). */
export function takeJobContext<T>(raw: T): { data: T; context: JobContext } {
  if (!raw || typeof raw !== 'object' || !(JOB_CONTEXT_FIELD in raw)) return { data: raw, context: {} };
  const { [JOB_CONTEXT_FIELD]: carried, ...data } = raw as Record<string, unknown>;
  const c = (carried ?? {}) as Record<string, unknown>;
  const trace: Record<string, string> = {};
  if (c.trace && typeof c.trace === 'object') {
    for (const key of ['traceparent', 'tracestate']) {
      const value = (c.trace as Record<string, unknown>)[key];
      if (typeof value === 'string' && value.length <= 512) trace[key] = value;
    }
  }
  return { data: data as T, context: { ...(isValidRequestId(c.requestId) ? { requestId: c.requestId } : {}), trace } };
}

/** The id of the request that queued this job (from its data as it came through Redis), if any (and if a job). */
export function jobRequestId(job: { data: unknown } | undefined): string | undefined {
  return job && takeJobContext(job.data).context.requestId;
}

/**
 * Runs a job's handler as part of the request that queued it: its log lines carry that request's id, and its span
 * (a consumer span named after the job) is a child of the span that queued it, so one alert is one trace from the
 * API to every provider call.
 */
export function runJob<T>(job: { queue: string; name: string; id?: string; attempt: number }, context: JobContext, handler: () => Promise<T>): Promise<T> {
  const parent = context.trace && Object.keys(context.trace).length ? contextFromHeaders(context.trace) : ROOT_CONTEXT;
  const run = () =>
    inSpan(
      `job ${job.name}`,
      {
        kind: SpanKind.CONSUMER,
        parent,
        attributes: {
          'messaging.system': 'bullmq',
          'messaging.destination.name': job.queue,
          'messaging.message.id': job.id ?? '',
          'beacon.job.attempt': job.attempt,
        },
      },
      handler,
    );
  return context.requestId ? withRequestId(context.requestId, run) : run();
}

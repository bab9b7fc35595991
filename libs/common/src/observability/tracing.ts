import { Context, context, propagation, ROOT_CONTEXT, Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';

let provider: NodeTracerProvider | undefined;

/**
 * Traces are off unless an OTLP/HTTP endpoint is configured (OTEL_EXPORTER_OTLP_ENDPOINT, validated in BaseEnv):
 * then this process's spans go to `<endpoint>/v1/traces` in batches, and the W3C trace context propagator and an
 * AsyncLocalStorage context manager are registered. Off, the API's no-op tracer costs nothing and nothing leaves.
 */
export function startTracing(service: string, endpoint: string | undefined) {
  if (!endpoint || provider) return;
  provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: service }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: `${endpoint.replace(/\/+$/, '')}/v1/traces` }))],
  });
  provider.register();
}

/** Sends the spans still buffered (at shutdown). */
export async function flushTracing() {
  await provider?.forceFlush();
}

const tracer = () => trace.getTracer('beacon');

/**
 * Runs `fn` in a new span, the active one while it runs (its children and the jobs it queues hang under it). A
 * thrown error marks the span failed and is rethrown.
 */
export async function inSpan<T>(
  name: string,
  options: { kind?: SpanKind; attributes?: Record<string, string | number | boolean>; parent?: Context },
  fn: (span: Span) => Promise<T>,
): Promise<T> {
  const parent = options.parent ?? context.active();
  return tracer().startActiveSpan(name, { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes }, parent, async (span) => {
    try {
      return await fn(span);
    } catch (e) {
      span.recordException(e as Error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: (e as Error)?.message });
      throw e;
    } finally {
      span.end();
    }
  });
}

/** A span started now and ended by the caller (an HTTP request ends when its answer is sent). */
export function startSpan(name: string, kind: SpanKind, parent: Context): { span: Span; context: Context } {
  const span = tracer().startSpan(name, { kind }, parent);
  return { span, context: trace.setSpan(parent, span) };
}

/** The active trace context as W3C headers (traceparent, tracestate); empty when tracing is off. */
export function traceHeaders(): Record<string, string> {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier;
}

/** The context W3C headers describe (or the root context when they describe none). */
export function contextFromHeaders(headers: Record<string, string | string[] | undefined>): Context {
  return propagation.extract(ROOT_CONTEXT, headers);
}

/** The active span's trace id, for log lines; undefined outside a sampled span or with tracing off. */
export function currentTraceId(): string | undefined {
  const ctx = trace.getActiveSpan()?.spanContext();
  return ctx && trace.isSpanContextValid(ctx) ? ctx.traceId : undefined;
}

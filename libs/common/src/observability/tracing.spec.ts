import { context, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { runJob, takeJobContext, withJobContext } from './jobs';
import { currentTraceId, inSpan, startTracing, traceHeaders } from './tracing';

/**
 * The propagation through job data, with spans kept in memory (the OTLP/HTTP export itself is proven against a
 * local receiver by infra/observability/observability.integration-spec.ts, where each service is its own process).
 */
describe('tracing', () => {
  it('is off without an endpoint: no trace context, no trace ids', async () => {
    startTracing('test-service', undefined);
    await inSpan('unexported', {}, async (span) => {
      expect(span.isRecording()).toBe(false);
      expect(traceHeaders()).toEqual({});
      expect(currentTraceId()).toBeUndefined();
    });
    expect(withJobContext({ alertId: 'a-1' })).toEqual({ alertId: 'a-1' });
  });

  describe('on', () => {
    const exporter = new InMemorySpanExporter();
    const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    beforeAll(() => provider.register());
    afterAll(async () => {
      await provider.shutdown();
      trace.disable();
      context.disable();
    });

    it('runs a job queued inside a span in a child span of it, and the provider call under the job, one trace', async () => {
      let parentTraceId = '';
      const queued = await inSpan('POST /api/alerts', {}, async (span) => {
        parentTraceId = span.spanContext().traceId;
        expect(currentTraceId()).toBe(parentTraceId);
        expect(traceHeaders().traceparent).toBe(`00-${parentTraceId}-${span.spanContext().spanId}-01`);
        return withJobContext({ alertId: 'a-1' });
      });
      // later, elsewhere (a worker): no span is active any more
      expect(trace.getActiveSpan()).toBeUndefined();
      const { data, context: carried } = takeJobContext(queued);
      expect(data).toEqual({ alertId: 'a-1' });
      await runJob({ queue: 'alert-dispatch', name: 'alert.dispatch', id: 'dispatch_a-1', attempt: 1 }, carried, async () => {
        expect(currentTraceId()).toBe(parentTraceId);
        await inSpan('provider sms', {}, async () => undefined);
      });
      const spans = exporter.getFinishedSpans();
      const byName = new Map(spans.map((s) => [s.name, s]));
      expect([...byName.keys()].sort()).toEqual(['POST /api/alerts', 'job alert.dispatch', 'provider sms']);
      expect(new Set(spans.map((s) => s.spanContext().traceId))).toEqual(new Set([parentTraceId]));
      expect(byName.get('job alert.dispatch')!.parentSpanContext?.spanId).toBe(byName.get('POST /api/alerts')!.spanContext().spanId);
      expect(byName.get('provider sms')!.parentSpanContext?.spanId).toBe(byName.get('job alert.dispatch')!.spanContext().spanId);
    });

    it('marks a span whose work failed, and lets the error through', async () => {
      exporter.reset();
      await expect(
        inSpan('provider sms', {}, async () => {
          throw new Error('Webhook answered 503');
        }),
      ).rejects.toThrow('Webhook answered 503');
      const [span] = exporter.getFinishedSpans();
      expect(span.status).toEqual({ code: 2, message: 'Webhook answered 503' });
    });
  });
});

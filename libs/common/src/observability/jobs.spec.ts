import { currentRequestId, withRequestId } from './request-context';
import { JOB_CONTEXT_FIELD, jobRequestId, runJob, takeJobContext, withJobContext } from './jobs';

const job = { queue: 'channel-sms', name: 'sms.send', id: 'sms_a_0', attempt: 1 };

describe('job context', () => {
  it('carries the request id of the work that queues a job, and nothing outside a request', () => {
    expect(withJobContext({ alertId: 'a' })).toEqual({ alertId: 'a' });
    const queued = withRequestId('request-id-1234', () => withJobContext({ alertId: 'a' }));
    expect(queued).toEqual({ alertId: 'a', [JOB_CONTEXT_FIELD]: { requestId: 'request-id-1234' } });
  });

  it('carries a request id it is given where there is no context (the dispatcher), and the job tells it back', () => {
    const queued = withJobContext({ alertId: 'a' }, 'request-id-1234');
    expect(queued).toEqual({ alertId: 'a', [JOB_CONTEXT_FIELD]: { requestId: 'request-id-1234' } });
    expect(jobRequestId({ data: queued })).toBe('request-id-1234');
    expect(jobRequestId({ data: { alertId: 'a' } })).toBeUndefined();
    expect(jobRequestId(undefined)).toBeUndefined(); // a handler called without its job (specs), or BullMQ's failed event without one
  });

  it('gives the handler its own data back, without the context', () => {
    const queued = withRequestId('request-id-1234', () => withJobContext({ alertId: 'a', batch: 0 }));
    expect(takeJobContext(queued)).toEqual({ data: { alertId: 'a', batch: 0 }, context: { requestId: 'request-id-1234', trace: {} } });
    expect(takeJobContext({ alertId: 'a' })).toEqual({ data: { alertId: 'a' }, context: {} });
  });

  it('drops what no kernel would have written (it came through Redis)', () => {
    const { context } = takeJobContext({
      alertId: 'a',
      [JOB_CONTEXT_FIELD]: { requestId: 'evil\nid injected', trace: { traceparent: 42, tracestate: 'x'.repeat(600), other: 'y' } },
    });
    expect(context).toEqual({ trace: {} });
  });

  it("runs the handler in the request's context, and a job without one outside any", async () => {
    const { context } = takeJobContext(withRequestId('request-id-1234', () => withJobContext({ alertId: 'a' })));
    await expect(runJob(job, context, async () => currentRequestId())).resolves.toBe('request-id-1234');
    await expect(runJob(job, {}, async () => currentRequestId())).resolves.toBeUndefined();
  });

  it('lets a failing handler fail (BullMQ retries it)', async () => {
    await expect(
      runJob(job, {}, async () => {
        throw new Error('provider down');
      }),
    ).rejects.toThrow('provider down');
  });
});

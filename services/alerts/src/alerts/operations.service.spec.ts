import { emptyCounts } from '@beacon/contracts';
import { operationsOf } from './operations.service';
import type { OperationsRows } from './operations.repository';

const at = (s: string) => new Date(`2026-11-25T10:${s}Z`);

function rows(over: Partial<OperationsRows> = {}): OperationsRows {
  return {
    dispatchedAt: at('00:00'),
    now: at('01:00'),
    summary: { sms: { ...emptyCounts(), sent: 300, pending: 700, held: 100, retrying: 0 } },
    retrying: [],
    heldUntil: [],
    failed: [],
    buckets: [],
    ...over,
  };
}

describe('operationsOf', () => {
  it('paces a channel by its successes over the last 30 s and tells when what is on its way will be done at the pace the queue moves', () => {
    const buckets = [
      { at: at('00:00'), channel: 'sms' as const, succeeded: 50, failed: 0, retried: 0 }, // outside the window: not in the pace
      { at: at('00:30'), channel: 'sms' as const, succeeded: 100, failed: 20, retried: 30 },
      { at: at('00:55'), channel: 'sms' as const, succeeded: 150, failed: 0, retried: 0 },
    ];
    const ops = operationsOf('a', rows({ buckets }));
    // 250 successes in 30 s = 8.3/s; 300 outcomes = 10/s; 700 pending less 100 held = 600 on their way: 60 s.
    expect(ops.channels.sms).toEqual({
      ratePerSecond: 8.3,
      attemptsPerSecond: 10,
      etaSeconds: 60,
      retrying: 0,
      nextAttemptAt: null,
      held: 100,
      heldUntil: null,
    });
  });

  it('has no pace while nothing succeeds, however fast the failures come', () => {
    const buckets = [{ at: at('00:40'), channel: 'sms' as const, succeeded: 0, failed: 3, retried: 3 }];
    const ops = operationsOf('a', rows({ buckets }));
    expect(ops.channels.sms).toMatchObject({ ratePerSecond: 0, attemptsPerSecond: 0.2 });
  });

  it('counts a young dispatch from its start, so the first seconds do not read as slow', () => {
    const ops = operationsOf('a', rows({ dispatchedAt: at('00:50'), buckets: [{ at: at('00:50'), channel: 'sms', succeeded: 100, failed: 0, retried: 0 }] }));
    expect(ops.channels.sms!.ratePerSecond).toBe(10);
  });

  it('keeps retrying deliveries out of the ETA, says when the next attempt is, and groups failures by reason, most frequent first', () => {
    const ops = operationsOf(
      'a',
      rows({
        summary: { sms: { ...emptyCounts(), pending: 5, retrying: 5 }, email: { ...emptyCounts(), failed: 3 } },
        retrying: [
          { channel: 'sms', reason: 'SMS webhook answered 503', n: 3, next: at('01:10') },
          { channel: 'sms', reason: 'SMS webhook timed out', n: 2, next: at('01:04') },
        ],
        failed: [{ channel: 'email', reason: '550 mailbox unavailable', n: 3 }],
      }),
    );
    expect(ops.channels.sms).toEqual({
      ratePerSecond: 0,
      attemptsPerSecond: 0,
      etaSeconds: null,
      retrying: 5,
      nextAttemptAt: at('01:04').toISOString(),
      held: 0,
      heldUntil: null,
    });
    expect(ops.failures).toEqual([
      { channel: 'email', reason: '550 mailbox unavailable', failed: 3, retrying: 0 },
      { channel: 'sms', reason: 'SMS webhook answered 503', failed: 0, retrying: 3 },
      { channel: 'sms', reason: 'SMS webhook timed out', failed: 0, retrying: 2 },
    ]);
  });

  it('says when the first held delivery goes out', () => {
    const ops = operationsOf('a', rows({ heldUntil: [{ channel: 'sms', at: at('30:00') }] }));
    expect(ops.channels.sms).toMatchObject({ held: 100, heldUntil: at('30:00').toISOString() });
  });

  it('charts the first ten minutes of the dispatch only', () => {
    const buckets = [
      { at: at('09:55'), channel: 'sms' as const, succeeded: 1, failed: 0, retried: 0 },
      { at: at('10:00'), channel: 'sms' as const, succeeded: 1, failed: 0, retried: 0 },
    ];
    const ops = operationsOf('a', rows({ now: at('10:20'), buckets }));
    expect(ops.timeline.map((b) => b.at)).toEqual([at('09:55').toISOString()]);
  });
});

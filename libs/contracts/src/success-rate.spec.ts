import { alertSuccessRate, ChannelCounts, DeliverySummary, emptyCounts, successRate } from './alerts';

const counts = (over: Partial<ChannelCounts>): ChannelCounts => ({ ...emptyCounts(), ...over });

describe('success rate over the deliveries that were tried (issue #38)', () => {
  it('counts those waiting for a retry as tried and not a success: never 100% while a channel is being retried', () => {
    // "Recipients: 3 · Success rate: 100%" beside "SMS 0 of 3 processed · 3 retrying" was the bug.
    const summary: DeliverySummary = { push: counts({ sent: 3 }), sms: counts({ pending: 3, retrying: 3 }) };
    expect(successRate(summary)).toBe(50);
    expect(successRate({ sms: counts({ pending: 3, retrying: 3 }) })).toBe(0);
  });

  it('leaves deliveries on their way or held, never tried, out', () => {
    expect(successRate({ push: counts({ sent: 3 }), sms: counts({ pending: 5, held: 2 }) })).toBe(100);
  });

  it('is null for an alert that has not gone out, the rate otherwise', () => {
    const summary: DeliverySummary = { push: counts({ sent: 1, failed: 1 }) };
    for (const status of ['draft', 'scheduled', 'pending_approval'] as const) expect(alertSuccessRate({}, { status, sentAt: null })).toBeNull();
    expect(alertSuccessRate({}, { status: 'cancelled', sentAt: null })).toBeNull();
    expect(alertSuccessRate(summary, { status: 'active', sentAt: '2026-01-01T00:00:00.000Z' })).toBe(50);
    expect(alertSuccessRate({}, { status: 'active', sentAt: '2026-01-01T00:00:00.000Z' })).toBe(0);
  });
});

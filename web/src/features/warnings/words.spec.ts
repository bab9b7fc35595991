import { changeLine, changedWords, endedAt, isEnded, severityPhrase } from './words';

const now = new Date('2025-03-05T15:10:00Z');
const minutesAgo = (m: number) => new Date(now.getTime() - m * 60_000).toISOString();

describe('what an update changed, in words', () => {
  it('says which way the severity went, and to what', () => {
    expect(severityPhrase('critical', 'high')).toBe('severity raised to Critical');
    expect(severityPhrase('medium', 'critical')).toBe('severity lowered to Medium');
    expect(severityPhrase('high', null)).toBe('severity now High');
  });

  it('puts the severity first and joins the rest as a sentence', () => {
    expect(changedWords({ fields: ['message', 'severity', 'area'], severityFrom: 'high' }, 'critical')).toBe(
      'severity raised to Critical, new instructions and area changed',
    );
    expect(changedWords({ fields: ['title'], severityFrom: null }, 'low')).toBe('new title');
    expect(changedWords({ fields: ['expiresAt', 'translations'], severityFrom: null }, 'low')).toBe('new end time and new translations');
  });

  it('says when: "Updated 2m ago: severity raised to Critical", "Updated just now"', () => {
    const updated = (at: string, fields: ('severity' | 'message')[]) => ({
      severity: 'critical' as const,
      lastChange: { version: 2, kind: 'update' as const, at, fields, severityFrom: 'high' as const },
    });
    expect(changeLine(updated(minutesAgo(2), ['severity']), now)).toBe('Updated 2m ago: severity raised to Critical');
    expect(changeLine(updated(minutesAgo(0), ['message']), now)).toBe('Updated just now: new instructions');
  });

  it('has no change line for a first version or an all-clear (the calm state says it)', () => {
    expect(changeLine({ severity: 'high', lastChange: null }, now)).toBeNull();
    expect(changeLine({ severity: 'high' }, now)).toBeNull();
    expect(changeLine({ severity: 'high', lastChange: { version: 3, kind: 'all_clear', at: minutesAgo(1), fields: [], severityFrom: null } }, now)).toBeNull();
  });
});

describe('an ended alert', () => {
  it('is one whose all-clear was given, that expired (by status or by its time) or was cancelled', () => {
    expect(isEnded({ status: 'active', expiresAt: null }, now)).toBe(false);
    expect(isEnded({ status: 'active', expiresAt: minutesAgo(-5) }, now)).toBe(false);
    expect(isEnded({ status: 'active', expiresAt: minutesAgo(1) }, now)).toBe(true);
    for (const status of ['all_clear', 'expired', 'cancelled'] as const) expect(isEnded({ status }, now)).toBe(true);
  });

  it('ended at the all-clear, else at its expiry, else at its last change', () => {
    expect(endedAt({ status: 'all_clear', allClear: { at: minutesAgo(3) }, lastChange: null })).toBe(minutesAgo(3));
    expect(endedAt({ status: 'expired', expiresAt: minutesAgo(7) })).toBe(minutesAgo(7));
    expect(endedAt({ status: 'cancelled', lastChange: { version: 2, kind: 'update', at: minutesAgo(9), fields: [], severityFrom: null } })).toBe(minutesAgo(9));
    expect(endedAt({ status: 'cancelled' })).toBeNull();
  });
});

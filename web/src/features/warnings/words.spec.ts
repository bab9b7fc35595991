import { createIntl } from 'react-intl';
import { changeLine, changedWords, endedAt, isEnded, severityPhrase } from './words';

/** The words as a reader of Spanish in the United States has them. */
const spanish = createIntl({ locale: 'es-US', messages: require('@/i18n/catalogues/es').default, defaultLocale: 'en' });

const now = new Date('2025-03-05T15:10:00Z');
const minutesAgo = (m: number) => new Date(now.getTime() - m * 60_000).toISOString();

describe('what an update changed, in words', () => {
  it('says which way the severity went, and to what', () => {
    expect(severityPhrase('critical', 'high')).toBe('severity raised to Critical');
    expect(severityPhrase('medium', 'critical')).toBe('severity lowered to Medium');
    expect(severityPhrase('high', null)).toBe('severity now High');
  });

  it('puts the severity first and joins the rest as the reader’s language lists things', () => {
    // American English (the specs' locale, en-US) puts a comma before "and"
    expect(changedWords({ fields: ['message', 'severity', 'area'], severityFrom: 'high' }, 'critical')).toBe(
      'severity raised to Critical, new instructions, and area changed',
    );
    expect(changedWords({ fields: ['title'], severityFrom: null }, 'low')).toBe('new title');
    expect(changedWords({ fields: ['expiresAt', 'translations'], severityFrom: null }, 'low')).toBe('new end time and new translations');
  });

  it('says it in the reader’s language, listing as that language does', () => {
    expect(changedWords({ fields: ['message', 'severity', 'area'], severityFrom: 'high' }, 'critical', spanish)).toBe(
      'gravedad elevada a Crítica, nuevas instrucciones y área modificada',
    );
    const updated = {
      severity: 'medium' as const,
      lastChange: { version: 2, kind: 'update' as const, at: minutesAgo(2), fields: ['severity' as const], severityFrom: 'high' as const },
    };
    expect(changeLine(updated, now, spanish)).toBe('Actualizada hace 2 min: gravedad reducida a Media');
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

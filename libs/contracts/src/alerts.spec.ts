import {
  ADMIN_ALERT_TYPES,
  ADMIN_CHANNEL_TO_CHANNEL,
  ADMIN_TYPE_CATEGORY,
  CATEGORY_DEFAULT_TYPE,
  categoriesForAlertTypes,
  categoryOfType,
  DEFAULT_PREFERENCES,
  deliveryLabel,
  emptyCounts,
  kmToMiles,
  LEVEL_LABELS,
  milesToKm,
  PREFERENCE_ALERT_TYPES,
  PREFERENCE_TYPE_CATEGORIES,
  priorityOfSeverity,
  pushPriority,
  relativeAge,
  severityAtLeast,
  severityFromPriority,
  SEVERITY_INFO,
  PRIORITY_LABELS,
  successRate,
  DeliverySummary,
  ChannelCounts,
} from './alerts';
import { ALERT_CATEGORIES, DELIVERY_CHANNELS, SEVERITIES } from './alert-vocabulary';

const counts = (over: Partial<ChannelCounts>): ChannelCounts => ({ ...emptyCounts(), ...over });

describe('severity and priority', () => {
  it('orders low < medium < high < critical', () => {
    const ascending = ['low', 'medium', 'high', 'critical'] as const;
    for (const [i, lower] of ascending.entries())
      for (const higher of ascending.slice(i + 1)) {
        expect(severityAtLeast(higher, lower)).toBe(true);
        expect(severityAtLeast(lower, higher)).toBe(false);
      }
    expect(severityAtLeast('medium', 'medium')).toBe(true);
    expect(severityAtLeast('low', 'medium')).toBe(false);
    expect(severityAtLeast('critical', 'high')).toBe(true);
  });

  it('maps admin priorities to stored severities and back', () => {
    expect(severityFromPriority('low')).toBe('low');
    expect(severityFromPriority('medium')).toBe('medium');
    expect(severityFromPriority('high')).toBe('high');
    expect(priorityOfSeverity('critical')).toBe('high');
    expect(priorityOfSeverity('medium')).toBe('medium');
  });

  it('has a label and a description for every severity, and labels a critical alert CRITICAL, never merely HIGH', () => {
    for (const s of SEVERITIES) expect(SEVERITY_INFO[s].label && SEVERITY_INFO[s].description).toBeTruthy();
    for (const s of SEVERITIES) expect(LEVEL_LABELS[s]).toBe(s === 'critical' ? 'CRITICAL' : PRIORITY_LABELS[priorityOfSeverity(s)]);
    expect(new Set(SEVERITIES.map((s) => LEVEL_LABELS[s])).size).toBe(SEVERITIES.length);
  });

  it('push priority is 10 for critical, else 5', () => {
    expect(pushPriority('critical')).toBe(10);
    expect(pushPriority('high')).toBe(5);
  });
});

describe('types and categories', () => {
  it('stores every admin type under a known category', () => {
    for (const t of ADMIN_ALERT_TYPES) expect(ALERT_CATEGORIES).toContain(ADMIN_TYPE_CATEGORY[t]);
    expect(categoryOfType('Terror Alert')).toBe('security');
    expect(categoryOfType('Weather')).toBe('weather');
    expect(categoryOfType('Test')).toBe('public_safety');
  });

  it('gives every category a default type whose category is itself', () => {
    for (const c of ALERT_CATEGORIES) expect(ADMIN_TYPE_CATEGORY[CATEGORY_DEFAULT_TYPE[c]]).toBe(c === 'health' ? 'public_safety' : c);
  });

  it('maps each admin channel option to a different stored channel', () => {
    const stored = Object.values(ADMIN_CHANNEL_TO_CHANNEL);
    for (const c of stored) expect(DELIVERY_CHANNELS).toContain(c);
    expect(new Set(stored).size).toBe(stored.length);
  });
});

describe('preference toggles', () => {
  it('covers every toggle and every category', () => {
    for (const t of PREFERENCE_ALERT_TYPES) expect(PREFERENCE_TYPE_CATEGORIES[t].length).toBeGreaterThan(0);
    expect(categoriesForAlertTypes([...PREFERENCE_ALERT_TYPES])).toEqual([...ALERT_CATEGORIES]);
  });

  it('derives categories from toggles, in canonical order, without duplicates', () => {
    expect(categoriesForAlertTypes(['traffic', 'construction'])).toEqual(['traffic']);
    expect(categoriesForAlertTypes(['crime'])).toEqual(['security']);
    expect(categoriesForAlertTypes([])).toEqual([]);
  });

  it('has the spec defaults', () => {
    expect(DEFAULT_PREFERENCES.alertTypes).toEqual(['emergency', 'weather', 'traffic', 'construction']);
    expect(DEFAULT_PREFERENCES.categories).toEqual(['weather', 'traffic', 'public_safety', 'health']);
    expect(DEFAULT_PREFERENCES.frequency).toBe('immediate');
    expect(DEFAULT_PREFERENCES.radiusMiles).toBe(25);
    expect(DEFAULT_PREFERENCES.quietHours).toMatchObject({ enabled: false, start: '22:00', end: '07:00' });
    expect(DEFAULT_PREFERENCES.weekendEnabled).toBe(false);
    expect(DEFAULT_PREFERENCES.methods).toEqual({ push: true, voice: true, email: false, sms: false });
  });

  it('converts miles and km', () => {
    expect(milesToKm(25)).toBeCloseTo(40.2336, 4);
    expect(kmToMiles(milesToKm(37))).toBeCloseTo(37, 10);
  });
});

describe('delivery label and success rate', () => {
  const sent = { status: 'active' as const, recipients: 3 };

  it('is Pending while an active alert is being dispatched, Not Sent for a draft or an alert ended before it went out', () => {
    expect(deliveryLabel(null, { status: 'active', recipients: null })).toBe('Pending');
    expect(deliveryLabel(null, { status: 'draft', recipients: null })).toBe('Not Sent');
    expect(deliveryLabel({}, { status: 'cancelled', recipients: null })).toBe('Not Sent');
    expect(deliveryLabel({}, { status: 'expired', recipients: null })).toBe('Not Sent');
  });

  it('is No Recipients, never All Delivered, when the alert reached nobody', () => {
    expect(deliveryLabel({}, { status: 'active', recipients: 0 })).toBe('No Recipients');
    expect(deliveryLabel(null, { status: 'expired', recipients: 0 })).toBe('No Recipients');
  });

  it('is Pending while anything is pending, held deliveries included', () => {
    expect(deliveryLabel({ push: counts({ sent: 3, pending: 1 }) }, sent)).toBe('Pending');
    expect(deliveryLabel({ sms: { ...counts({ pending: 2 }), held: 2 } }, sent)).toBe('Pending');
  });

  it('is All Delivered only when every success has a receipt (delivered or read)', () => {
    expect(deliveryLabel({ push: counts({ delivered: 3 }), sms: counts({ delivered: 4, read: 1 }) }, sent)).toBe('All Delivered');
  });

  it('is Sent to provider, never All Delivered, while a success was only accepted by a provider (issue #39)', () => {
    expect(deliveryLabel({ push: counts({ sent: 2, delivered: 1 }), sms: counts({ sent: 4, read: 1 }) }, sent)).toBe('Sent to provider');
    expect(deliveryLabel({ sms: counts({ sent: 6 }), email: counts({ sent: 8 }) }, sent)).toBe('Sent to provider');
  });

  it('is Not Sent when every delivery was called off (cancelled before it went out)', () => {
    expect(deliveryLabel({ push: counts({ cancelled: 3 }) }, { status: 'cancelled', recipients: 3 })).toBe('Not Sent');
  });

  it('is Partial when one channel succeeded and the other failed', () => {
    expect(deliveryLabel({ push: counts({ sent: 2 }), sms: counts({ failed: 2 }) }, sent)).toBe('Partial');
  });

  it('is Failed when nothing succeeded', () => {
    expect(deliveryLabel({ push: counts({ failed: 2 }), sms: counts({ failed: 1, cancelled: 3 }) }, sent)).toBe('Failed');
  });

  it('success rate is successful over attempted x100, rounded, 0 when none', () => {
    expect(successRate({})).toBe(0);
    expect(successRate(counts({ pending: 5, cancelled: 2 }))).toBe(0);
    const s: DeliverySummary = { push: counts({ sent: 1, delivered: 1 }), sms: counts({ failed: 1 }) };
    expect(successRate(s)).toBe(67);
    expect(successRate(counts({ read: 1, failed: 7 }))).toBe(13);
  });
});

describe('relativeAge', () => {
  const now = new Date('2025-01-10T12:00:00Z');
  it.each([
    ['2025-01-10T11:59:30Z', 'Just now'],
    ['2025-01-10T11:59:00Z', '1m ago'],
    ['2025-01-10T11:01:00Z', '59m ago'],
    ['2025-01-10T11:00:00Z', '1h ago'],
    ['2025-01-09T12:00:01Z', '23h ago'],
    ['2025-01-09T12:00:00Z', '1d ago'],
    ['2025-01-01T12:00:00Z', '9d ago'],
  ])('%s -> %s', (at, expected) => expect(relativeAge(at, now)).toBe(expected));
});

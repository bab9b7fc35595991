import { TEST_MARKER } from '@beacon/contracts';
import { alertTextFor } from './alert-text';
import { asDelivered } from './delivery-text';
import { pushPayload } from './push.sender';
import type { ChannelMessage, SendableAlert } from './send-targets.repository';

const testAlert: SendableAlert = {
  id: 't1',
  title: 'Scheduled test alert',
  message: "This is a test of Beacon's alerting. No action is needed.",
  translations: {},
  type: 'Test',
  severity: 'low',
  category: 'public_safety',
  location_name: null,
  status: 'active',
  sent_at: new Date('2026-11-25T10:00:00Z'),
  created_at: new Date('2026-11-25T10:00:00Z'),
  expired: false,
  source: 'test',
};

describe('the TEST marking of a test alert (issue #38)', () => {
  it('puts the marker before its title and text, in any language, whatever the delivery carries', () => {
    for (const language of ['en', 'es', null]) {
      const sent = asDelivered(alertTextFor(testAlert, language), 'alert');
      expect([sent.title, sent.message]).toEqual([
        `${TEST_MARKER}Scheduled test alert`,
        `${TEST_MARKER}This is a test of Beacon's alerting. No action is needed.`,
      ]);
    }
    const reminder = asDelivered(testAlert, 'reminder');
    expect(reminder.title.startsWith(TEST_MARKER)).toBe(true);
    expect(reminder.message.startsWith(TEST_MARKER)).toBe(true);
  });

  it('marks once, and never a real alert', () => {
    const twice = asDelivered(asDelivered(testAlert, 'alert'), 'alert');
    expect(twice.title).toBe(`${TEST_MARKER}Scheduled test alert`);
    for (const source of ['admin', 'cap', 'incident', undefined] as const) {
      expect(asDelivered({ ...testAlert, source }, 'alert')).toMatchObject({ title: 'Scheduled test alert', message: testAlert.message });
    }
  });

  it('is what the push shows: title and body', () => {
    const message: ChannelMessage = {
      id: 'd1',
      userId: 'u1',
      alerts: [asDelivered(testAlert, 'alert')],
      deliveryIds: ['d1'],
      recipient: {
        language: null,
        push_enabled: true,
        sms_enabled: false,
        sms_stopped: false,
        voice_enabled: false,
        email_enabled: false,
        phone_number: null,
        email: null,
      },
      pushAccepted: [],
    };
    const payload = pushPayload(message, { url: 'https://beacon.test/api/alerts/deliveries/d1/receipt', delivered: 'x', ack: 'y' });
    expect(payload.title.startsWith(TEST_MARKER)).toBe(true);
    expect(payload.body.startsWith(TEST_MARKER)).toBe(true);
  });
});

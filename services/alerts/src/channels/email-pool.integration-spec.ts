import { loadEnv } from '@beacon/common';
import { DispatcherEnv } from '../config/dispatcher-env.dto';
import { FakeSmtp } from '../testing/fake-smtp';
import { ChannelBatchRunner } from './channel-batch.runner';
import { EmailSender } from './email.sender';
import { SettingsRepository } from '../settings/settings.repository';
import type { Outcome } from '../deliveries/deliveries.repository';
import { ChannelMessage, SendableAlert } from './send-targets.repository';

/** The e-mail channel against a real SMTP server: the configured pool is the bound on connections, and they are reused. */
describe('e-mail connection pool', () => {
  const smtp = new FakeSmtp();
  let sender: EmailSender | undefined;

  beforeAll(() => smtp.start());
  afterAll(async () => {
    sender?.onApplicationShutdown();
    await smtp.close();
  });

  const alert = {
    id: '00000000-0000-4000-8000-000000000001',
    title: 'Wrong-way driver on Loop 101',
    message: 'Northbound near Scottsdale Rd.',
    type: 'Traffic',
    severity: 'high',
    category: 'traffic',
    location_name: null,
    status: 'active',
    sent_at: null,
    created_at: new Date(),
    expired: false,
  } as unknown as SendableAlert;

  it('sends 30 messages over at most EMAIL_MAX_CONNECTIONS connections, reused across messages', async () => {
    smtp.delayMs = 50;
    const env = loadEnv(DispatcherEnv, { SMTP_URL: smtp.url, EMAIL_MAX_CONNECTIONS: '3', WEBHOOK_ALLOW_HOSTS: '127.0.0.1' });
    const messages: ChannelMessage[] = Array.from({ length: 30 }, (_, i) => {
      const id = `00000000-0000-4000-8000-${String(i + 100).padStart(12, '0')}`;
      const recipient = {
        language: null,
        push_enabled: false,
        sms_enabled: false,
        sms_stopped: false,
        voice_enabled: false,
        email_enabled: true,
        phone_number: null,
        email: `user${i}@example.test`,
      };
      return { id, userId: id, alerts: [alert], deliveryIds: [id], recipient, pushAccepted: [] };
    });
    const settings = { get: async () => ({ email: { enabled: true, url: smtp.url, from: env.MAIL_FROM } }) };
    sender = new EmailSender(settings as unknown as SettingsRepository, {} as ChannelBatchRunner, env, { recordError: async () => undefined } as never);
    const now = Date.now();
    const outcomes: Outcome[] = [];
    await sender.send(
      messages,
      { alertId: alert.id, channel: 'email', batch: 0, deliveryIds: messages.map((m) => m.id) },
      { deadline: now + 60_000, stop: now + 90_000 },
      async (o) => {
        outcomes.push(o);
      },
    );

    expect(outcomes.filter((o) => o.ok)).toHaveLength(30);
    expect(smtp.received).toHaveLength(30);
    // Each names its delivery in Mailgun's custom variables, which the relay's delivery events echo back (receipts).
    const variables = (raw: string) => /^X-Mailgun-Variables:\s*(.+)$/im.exec(raw.split(/\r?\n\r?\n/)[0])?.[1];
    expect(smtp.received.map((m) => JSON.parse(variables(m.raw)!).deliveryId).sort()).toEqual(messages.map((m) => m.id).sort());
    expect(smtp.peakOpen).toBeLessThanOrEqual(3);
    // Pooled: a handful of connections carry all 30 messages (without the pool each message opened its own).
    expect(smtp.connections).toBeLessThanOrEqual(3);
  });
});

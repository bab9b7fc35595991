import { randomUUID } from 'node:crypto';
import type { PreferenceAlertType } from '@beacon/contracts';
import { createTestDatabase, jsonClient, startTestIdentity, TestDatabase, TestIdentity, testRedisPrefix } from '@beacon/testing';
import { alertsDatabase } from '../database';
import { FakePushService } from './fake-push-service';
import { FakeSmsWebhook } from './fake-sms-webhook';
import { FakeSmtp } from './fake-smtp';
import { FakeTwilio } from './fake-twilio';

/** The Twilio account the stack's fake knows: what a spec saves in Admin Settings to send through it. */
export const TEST_TWILIO = {
  accountSid: 'AC0123456789abcdef0123456789abcdef',
  authToken: '5f1e2d3c4b5a69788796a5b4c3d2e1f0',
  /** Twilio's magic test number that accepts any message or call. */
  from: '+15005550006',
} as const;

/**
 * Dispatch specs register users' browsers by the dozen from one address within seconds; the alerts service's own
 * spec proves the real limits with small ones of its own.
 */
const NO_RATE_LIMITS = Object.fromEntries([
  ...['HELP_REQUESTS', 'PUSH_SUBSCRIPTIONS'].flatMap((a) => [
    [`ALERTS_RATE_${a}_USER`, '100000/60'],
    [`ALERTS_RATE_${a}_IP`, '100000/60'],
  ]),
  // the admin routes' limits are per admin only
  ...['AUDIENCE_PREVIEW', 'CSV_EXPORTS', 'SETTINGS_TESTS', 'GEOCODE'].map((a) => [`ALERTS_RATE_${a}_USER`, '100000/60']),
]);

/**
 * What a dispatch test stands on: a database with the alerts schema, a Redis prefix of its own, a token issuer,
 * and the fake providers (push service, SMS webhook, mail relay, Twilio's API). Each spec starts the services it
 * tests on `vars`.
 */
export class DispatchStack {
  readonly redis = testRedisPrefix();
  readonly push = new FakePushService();
  readonly sms = new FakeSmsWebhook();
  readonly smtp = new FakeSmtp();
  readonly twilio = new FakeTwilio({ accountSid: TEST_TWILIO.accountSid, authToken: TEST_TWILIO.authToken });
  db: TestDatabase;
  identity: TestIdentity;
  /** The environment that points a service at this stack. */
  vars: Record<string, string>;

  async start(extraVars: Record<string, string> = {}) {
    this.db = await createTestDatabase([alertsDatabase]);
    this.identity = await startTestIdentity();
    await Promise.all([this.push.start(), this.sms.start(), this.smtp.start(), this.twilio.start()]);
    this.vars = {
      DATABASE_URL: this.db.url,
      REDIS_URL: this.redis.url,
      REDIS_PREFIX: this.redis.prefix,
      JWKS_URL: this.identity.jwksUrl,
      WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
      SMS_WEBHOOK_URL: this.sms.url,
      SMTP_URL: this.smtp.url,
      TWILIO_API_URL: this.twilio.url,
      ...NO_RATE_LIMITS,
      ...extraVars,
    };
  }

  /**
   * `n` people without a home who follow `alertTypes`, each with push (a browser subscribed to the fake push service)
   * and SMS (the phone `+1<phonePrefix><i>`, four digits): every alert of those types concerns them all. Registered
   * through the alerts API at `call`. The failover specs' audience.
   */
  async pushAndSmsPeople(
    call: ReturnType<typeof jsonClient>,
    n: number,
    o: { tag: string; phonePrefix: string; alertTypes?: PreferenceAlertType[] },
  ): Promise<{ phone: string; subscriptionId: string }[]> {
    const people: { phone: string; subscriptionId: string }[] = [];
    for (let i = 0; i < n; i++) {
      const token = await this.identity.token({ id: randomUUID(), email: `${o.tag}-${i}@example.test` });
      const phone = `+1${o.phonePrefix}${String(i).padStart(4, '0')}`;
      const prefs = { alertTypes: o.alertTypes ?? ['weather'], methods: { push: true, sms: true, email: false }, phoneNumber: phone };
      const saved = await call('PUT', '/me/preferences', token, prefs);
      if (saved.status !== 200) throw new Error(`preferences of ${o.tag}-${i} refused: ${saved.status} ${JSON.stringify(saved.body)}`);
      const sub = this.push.subscribe();
      const registered = await call('POST', '/me/push-subscriptions', token, sub.json);
      if (registered.status !== 201) throw new Error(`push subscription of ${o.tag}-${i} refused: ${registered.status}`);
      people.push({ phone, subscriptionId: sub.id });
    }
    return people;
  }

  /** Closes `services` first, in the order given (they hold connections to the stack), then the stack. Safe after a failed start. */
  async close(...services: ({ close(): Promise<void> } | undefined)[]) {
    for (const service of services) await service?.close();
    await Promise.all([this.push.close(), this.sms.close(), this.smtp.close(), this.twilio.close(), this.identity?.close()]);
    await this.db?.drop();
    await this.redis.cleanup();
  }
}

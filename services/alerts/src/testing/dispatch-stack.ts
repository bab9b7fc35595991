import { createTestDatabase, startTestIdentity, TestDatabase, TestIdentity, testRedisPrefix } from '@beacon/testing';
import { alertsDatabase } from '../database';
import { FakePushService } from './fake-push-service';
import { FakeSmsWebhook } from './fake-sms-webhook';
import { FakeSmtp } from './fake-smtp';

/**
 * Dispatch specs register users' browsers by the dozen from one address within seconds; the alerts service's own
 * spec proves the real limits with small ones of its own.
 */
const NO_RATE_LIMITS = Object.fromEntries(
  ['HELP_REQUESTS', 'PUSH_SUBSCRIPTIONS'].flatMap((a) => [
    [`ALERTS_RATE_${a}_USER`, '100000/60'],
    [`ALERTS_RATE_${a}_IP`, '100000/60'],
  ]),
);

/**
 * What a dispatch test stands on: a database with the alerts schema, a Redis prefix of its own, a token issuer,
 * and the three fake providers. Each spec starts the services it tests on `vars`.
 */
export class DispatchStack {
  readonly redis = testRedisPrefix();
  readonly push = new FakePushService();
  readonly sms = new FakeSmsWebhook();
  readonly smtp = new FakeSmtp();
  db: TestDatabase;
  identity: TestIdentity;
  /** The environment that points a service at this stack. */
  vars: Record<string, string>;

  async start(extraVars: Record<string, string> = {}) {
    this.db = await createTestDatabase([alertsDatabase]);
    this.identity = await startTestIdentity();
    await Promise.all([this.push.start(), this.sms.start(), this.smtp.start()]);
    this.vars = {
      DATABASE_URL: this.db.url,
      REDIS_URL: this.redis.url,
      REDIS_PREFIX: this.redis.prefix,
      JWKS_URL: this.identity.jwksUrl,
      WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
      SMS_WEBHOOK_URL: this.sms.url,
      SMTP_URL: this.smtp.url,
      ...NO_RATE_LIMITS,
      ...extraVars,
    };
  }

  /** Closes `services` first, in the order given (they hold connections to the stack), then the stack. Safe after a failed start. */
  async close(...services: ({ close(): Promise<void> } | undefined)[]) {
    for (const service of services) await service?.close();
    await Promise.all([this.push.close(), this.sms.close(), this.smtp.close(), this.identity?.close()]);
    await this.db?.drop();
    await this.redis.cleanup();
  }
}

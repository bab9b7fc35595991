import {
  createTestDatabase,
  jsonClient,
  RunningService,
  startTestIdentity,
  startTestService,
  TestDatabase,
  TestIdentity,
  testRedisPrefix,
} from '@beacon/testing';
import { alertsDatabase } from '../database';
import { alertsService } from '../service';

/**
 * The alerts API alone, on a database and a Redis prefix of its own, with a token issuer: what the API specs stand on
 * (no dispatcher: nothing is sent). `start()` in beforeAll, `close()` in afterAll; `call` speaks JSON to the service.
 */
export class AlertsApi {
  private readonly redis = testRedisPrefix();
  db: TestDatabase;
  identity: TestIdentity;
  service: RunningService<unknown>;
  readonly call = jsonClient(() => this.service.url);

  async start(extraVars: Record<string, string> = {}) {
    this.db = await createTestDatabase([alertsDatabase]);
    this.identity = await startTestIdentity();
    this.service = await startTestService(alertsService, {
      DATABASE_URL: this.db.url,
      REDIS_URL: this.redis.url,
      REDIS_PREFIX: this.redis.prefix,
      JWKS_URL: this.identity.jwksUrl,
      WEBHOOK_ALLOW_HOSTS: '',
      ...extraVars,
    });
    return this;
  }

  /** An administrator's access token. */
  admin(email = 'admin@beacon.local') {
    return this.identity.token({ role: 'admin', email });
  }

  /** Safe after a failed start. */
  async close() {
    await this.service?.close();
    await this.identity?.close();
    await this.db?.drop();
    await this.redis.cleanup();
  }
}

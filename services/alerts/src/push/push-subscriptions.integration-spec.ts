import { createECDH, randomBytes, randomUUID } from 'node:crypto';
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
 * One account must not make every alert call any number of endpoints: subscriptions are capped per user (the one
 * registered longest ago goes), and subscription changes and help requests are rate-limited per user and address.
 */
describe('push subscriptions and help requests: caps and limits', () => {
  let db: TestDatabase;
  const redis = testRedisPrefix();
  let identity: TestIdentity;
  let svc: RunningService<unknown>;
  const call = jsonClient(() => svc.url);
  const keys = () => ({ p256dh: createECDH('prime256v1').generateKeys().toString('base64url'), auth: randomBytes(16).toString('base64url') });

  beforeAll(async () => {
    db = await createTestDatabase([alertsDatabase]);
    identity = await startTestIdentity();
    svc = await startTestService(alertsService, {
      DATABASE_URL: db.url,
      REDIS_URL: redis.url,
      REDIS_PREFIX: redis.prefix,
      JWKS_URL: identity.jwksUrl,
      TRUSTED_PROXY: 'loopback',
      PUSH_ENDPOINT_HOSTS: '8.8.8.8',
      PUSH_SUBSCRIPTIONS_PER_USER: '3',
      ALERTS_RATE_PUSH_SUBSCRIPTIONS_USER: '6/3600',
      ALERTS_RATE_PUSH_SUBSCRIPTIONS_IP: '8/3600',
      ALERTS_RATE_HELP_REQUESTS_USER: '2/600',
      ALERTS_RATE_HELP_REQUESTS_IP: '3/600',
    });
  });
  afterAll(async () => {
    await svc?.close();
    await identity?.close();
    await db?.drop();
    await redis.cleanup();
  });

  const subscribe = (token: string, path: string, ip: string) =>
    call('POST', '/me/push-subscriptions', token, { endpoint: `https://8.8.8.8/push/${path}`, keys: keys() }, { 'x-forwarded-for': ip });

  it('keeps at most PUSH_SUBSCRIPTIONS_PER_USER per user, replacing the one registered longest ago', async () => {
    const userId = randomUUID();
    const token = await identity.token({ id: userId });
    for (const n of [1, 2, 3, 4]) expect((await subscribe(token, `cap-${n}`, '203.0.113.10')).status).toBe(201);
    const rows = await db.query(`SELECT endpoint FROM alerts.push_subscriptions WHERE user_id = $1 ORDER BY endpoint`, [userId]);
    expect(rows.map((r: { endpoint: string }) => r.endpoint)).toEqual([
      'https://8.8.8.8/push/cap-2',
      'https://8.8.8.8/push/cap-3',
      'https://8.8.8.8/push/cap-4',
    ]);
    // re-registering an endpoint makes it the newest: the next one replaces cap-3, not cap-2
    expect((await subscribe(token, 'cap-2', '203.0.113.10')).status).toBe(201);
    expect((await subscribe(token, 'cap-5', '203.0.113.10')).status).toBe(201);
    const after = await db.query(`SELECT endpoint FROM alerts.push_subscriptions WHERE user_id = $1 ORDER BY endpoint`, [userId]);
    expect(after.map((r: { endpoint: string }) => r.endpoint)).toEqual([
      'https://8.8.8.8/push/cap-2',
      'https://8.8.8.8/push/cap-4',
      'https://8.8.8.8/push/cap-5',
    ]);
  });

  it('limits subscription changes per user, then per address, with 429 and Retry-After', async () => {
    const token = await identity.token();
    for (let i = 0; i < 6; i++) expect((await subscribe(token, `rl-${i}`, `198.51.100.${i}`)).status).toBe(201);
    const refused = await call('DELETE', '/me/push-subscriptions', token, { endpoint: 'https://8.8.8.8/push/rl-0' }, { 'x-forwarded-for': '198.51.100.99' });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'rate_limited' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // many accounts from one address
    const statuses: number[] = [];
    for (let i = 0; i < 9; i++) statuses.push((await subscribe(await identity.token(), `ip-${i}`, '192.0.2.55')).status);
    expect(statuses).toEqual([201, 201, 201, 201, 201, 201, 201, 201, 429]);
  });

  it('limits help requests per user', async () => {
    const token = await identity.token();
    const alertId = randomUUID();
    const help = (ip: string) => call('POST', `/me/alerts/${alertId}/help`, token, { message: 'I need help' }, { 'x-forwarded-for': ip });
    const first = await help('203.0.113.77');
    expect(first.status).not.toBe(429);
    expect((await help('203.0.113.78')).status).not.toBe(429);
    const third = await help('203.0.113.79');
    expect(third.status).toBe(429);
    expect(third.body).toMatchObject({ code: 'rate_limited' });
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('limits help requests per address, across accounts', async () => {
    const alertId = randomUUID();
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await call('POST', `/me/alerts/${alertId}/help`, await identity.token(), {}, { 'x-forwarded-for': '198.51.100.200' });
      statuses.push(res.status);
      if (res.status === 429) expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    // an unknown alert answers 404, but the request still counts
    expect(statuses).toEqual([404, 404, 404, 429]);
    // another address is not held back
    expect((await call('POST', `/me/alerts/${alertId}/help`, await identity.token(), {}, { 'x-forwarded-for': '198.51.100.201' })).status).toBe(404);
  });
});

import { io as connectSocket, Socket } from 'socket.io-client';
import { createTestDatabase, RunningService, startTestService, TestDatabase, testRedisPrefix } from '@beacon/testing';
import { DATABASES } from './databases';
import { SERVICE_DEFINITIONS } from './service-definitions';

/**
 * Access tokens are verified without asking identity, so identity publishes every session it ends (sign-out, a role
 * change, a ban, a deleted account) through Redis: within seconds every admin route of every service refuses the
 * token, and the gateway drops its sockets. Before, a demoted admin kept sending public alerts for up to an hour.
 */
describe('revocation reaches every service', () => {
  let db: TestDatabase;
  const redis = testRedisPrefix();
  const svc: Record<string, RunningService<unknown>> = {};

  beforeAll(async () => {
    db = await createTestDatabase(DATABASES);
    const common = { DATABASE_URL: db.url, REDIS_URL: redis.url, REDIS_PREFIX: redis.prefix };
    const def = (name: string) => SERVICE_DEFINITIONS.find((d) => d.name === name)!;
    svc.identity = await startTestService(def('identity'), { ...common, ADMIN_EMAILS: 'chief@example.org,deputy@example.org,second@example.org,gone@example.org' });
    const jwks = `${svc.identity.url}/.well-known/jwks.json`;
    for (const name of ['alerts', 'incidents', 'store', 'traffic', 'gateway']) svc[name] = await startTestService(def(name), { ...common, JWKS_URL: jwks });
  });
  afterAll(async () => {
    for (const name of ['gateway', 'traffic', 'store', 'incidents', 'alerts', 'identity']) await svc[name]?.close();
    await db.drop();
    await redis.cleanup();
  });

  const signUp = async (email: string) => {
    const res = await fetch(`${svc.identity.url}/signup`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: 'a long admin password' }),
    });
    expect(res.status).toBe(200);
    return (await res.json()) as { access_token: string; user: { id: string } };
  };

  /** One admin route of each service, and the SMS webhook settings an ex-admin must never reach again. */
  const ADMIN_ROUTES: [string, string][] = [
    ['alerts', ''],
    ['alerts', '/admin/settings'],
    ['incidents', '/incidents/moderation-queue'],
    ['store', '/stats'],
    ['traffic', '/ingest/runs'],
  ];
  const statusOf = async (service: string, path: string, token: string) =>
    (await fetch(`${svc[service].url}${path}`, { headers: { authorization: `Bearer ${token}` } })).status;

  /** Polls until every admin route refuses the token; fails if one still answers after 5 s. */
  async function refusedEverywhereWithin5s(token: string) {
    const until = Date.now() + 5000;
    for (;;) {
      const statuses = await Promise.all(ADMIN_ROUTES.map(([s, p]) => statusOf(s, p, token)));
      if (statuses.every((st) => st === 401 || st === 403)) return statuses;
      if (Date.now() > until) throw new Error(`still accepted after 5 s: ${ADMIN_ROUTES.map(([s, p], i) => `${s}${p} ${statuses[i]}`).join(', ')}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  const adminApi = (token: string, method: string, path: string, body?: unknown) =>
    fetch(`${svc.identity.url}/admin/users${path}`, {
      method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
    });

  it('a demoted admin is refused by every admin route of every service within 5 s', async () => {
    const chief = await signUp('chief@example.org');
    const deputy = await signUp('deputy@example.org');
    for (const [s, p] of ADMIN_ROUTES) expect(await statusOf(s, p, deputy.access_token)).toBe(200);
    expect((await adminApi(chief.access_token, 'PUT', `/${deputy.user.id}`, { app_metadata: { role: 'user' } })).status).toBe(200);
    const statuses = await refusedEverywhereWithin5s(deputy.access_token);
    expect(statuses).toEqual(ADMIN_ROUTES.map(() => 401));
    // the chief's own token is untouched
    for (const [s, p] of ADMIN_ROUTES) expect(await statusOf(s, p, chief.access_token)).toBe(200);
  });

  it('a global sign-out ends the token everywhere, and the gateway drops the admin socket', async () => {
    const second = await signUp('second@example.org');
    const socket: Socket = connectSocket(svc.gateway.origin, { path: '/socket.io', transports: ['websocket'], auth: { token: second.access_token }, reconnection: false });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    const dropped = new Promise<string>((resolve) => socket.once('disconnect', (reason) => resolve(reason)));
    const out = await fetch(`${svc.identity.url}/logout?scope=global`, { method: 'POST', headers: { authorization: `Bearer ${second.access_token}` } });
    expect(out.status).toBe(204);
    await refusedEverywhereWithin5s(second.access_token);
    expect(await dropped).toBe('io server disconnect');
    // and it cannot come back with the same token
    const again = connectSocket(svc.gateway.origin, { path: '/socket.io', transports: ['websocket'], auth: { token: second.access_token }, reconnection: false });
    const refused = await new Promise<{ code?: string }>((resolve) => again.once('connect_error', (e) => resolve((e as Error & { data?: { code?: string } }).data ?? {})));
    expect(refused.code).toBe('session_revoked');
    again.close();
  });

  it('a deleted admin is refused everywhere within 5 s', async () => {
    const chief = await fetch(`${svc.identity.url}/token?grant_type=password`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'chief@example.org', password: 'a long admin password' }),
    });
    const chiefToken = ((await chief.json()) as { access_token: string }).access_token;
    const gone = await signUp('gone@example.org');
    expect((await adminApi(chiefToken, 'DELETE', `/${gone.user.id}`, {})).status).toBe(200);
    await refusedEverywhereWithin5s(gone.access_token);
  });
});

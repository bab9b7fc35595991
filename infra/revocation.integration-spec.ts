import Redis from 'ioredis';
import { decodeJwt } from 'jose';
import { io as connectSocket, Socket } from 'socket.io-client';
import { revokedSessionKey, revokedUserKey } from '@beacon/auth';
import { createTestDatabase, RunningService, startTestService, TestDatabase, testRedisPrefix } from '@beacon/testing';
import { DATABASES } from './databases';
import { SERVICE_DEFINITIONS } from './service-definitions';
import { SocketGateway } from '../services/gateway/src/socket/socket.gateway';

/**
 * Access tokens are verified without asking identity, so identity publishes every session it ends (sign-out, a role
 * change, a ban, a deleted account) through Redis: within seconds every admin route of every service refuses the
 * token, and the gateway drops its sockets. Before, a demoted admin kept sending public alerts for up to an hour.
 */
describe('revocation reaches every service', () => {
  let db: TestDatabase;
  const redis = testRedisPrefix();
  const svc: Record<string, RunningService<unknown>> = {};
  let keys: Redis;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    db = await createTestDatabase(DATABASES);
    const common = { DATABASE_URL: db.url, REDIS_URL: redis.url, REDIS_PREFIX: redis.prefix };
    const def = (name: string) => SERVICE_DEFINITIONS.find((d) => d.name === name)!;
    svc.identity = await startTestService(def('identity'), {
      ...common,
      ADMIN_EMAILS: 'chief@example.org,deputy@example.org,second@example.org,gone@example.org,unlisted@example.org,missed@example.org,returning@example.org',
    });
    const jwks = `${svc.identity.url}/.well-known/jwks.json`;
    for (const name of ['alerts', 'incidents', 'store', 'traffic', 'gateway']) svc[name] = await startTestService(def(name), { ...common, JWKS_URL: jwks });
    keys = new Redis(redis.url, { keyPrefix: `${redis.prefix}:` });
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    keys?.disconnect();
    for (const name of ['gateway', 'traffic', 'store', 'incidents', 'alerts', 'identity']) await svc[name]?.close();
    await db.drop();
    await redis.cleanup();
  });

  const signUp = async (email: string) => {
    const res = await fetch(`${svc.identity.url}/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'a long admin password' }),
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

  async function connected(token: string): Promise<Socket> {
    const socket = connectSocket(svc.gateway.origin, { path: '/socket.io', transports: ['websocket'], auth: { token }, reconnection: false });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    return socket;
  }
  /** The admin who demotes and deletes; signed up by the first test, or here when a test runs alone. */
  const chiefToken = async () => {
    const res = await fetch(`${svc.identity.url}/token?grant_type=password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'chief@example.org', password: 'a long admin password' }),
    });
    if (res.status !== 200) return (await signUp('chief@example.org')).access_token;
    return ((await res.json()) as { access_token: string }).access_token;
  };

  const adminApi = (token: string, method: string, path: string, body?: unknown) =>
    fetch(`${svc.identity.url}/admin/users${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
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
    const socket = await connected(second.access_token);
    const dropped = new Promise<string>((resolve) => socket.once('disconnect', (reason) => resolve(reason)));
    const out = await fetch(`${svc.identity.url}/logout?scope=global`, { method: 'POST', headers: { authorization: `Bearer ${second.access_token}` } });
    expect(out.status).toBe(204);
    await refusedEverywhereWithin5s(second.access_token);
    expect(await dropped).toBe('io server disconnect');
    // and it cannot come back with the same token
    const again = connectSocket(svc.gateway.origin, {
      path: '/socket.io',
      transports: ['websocket'],
      auth: { token: second.access_token },
      reconnection: false,
    });
    sockets.push(again);
    const refused = await new Promise<{ code?: string }>((resolve) =>
      again.once('connect_error', (e) => resolve((e as Error & { data?: { code?: string } }).data ?? {})),
    );
    expect(refused.code).toBe('session_revoked');
    again.close();
  });

  it('signing in again right after a global sign-out gives a token that works everywhere', async () => {
    const first = await signUp('returning@example.org');
    const out = await fetch(`${svc.identity.url}/logout?scope=global`, { method: 'POST', headers: { authorization: `Bearer ${first.access_token}` } });
    expect(out.status).toBe(204);
    // most likely within the second of the cut-off, whose tokens all count as voided: identity signs none in it
    const back = await fetch(`${svc.identity.url}/token?grant_type=password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'returning@example.org', password: 'a long admin password' }),
    });
    expect(back.status).toBe(200);
    const fresh = ((await back.json()) as { access_token: string }).access_token;
    for (const [s, p] of ADMIN_ROUTES) expect(await statusOf(s, p, fresh)).toBe(200);
    expect(await statusOf('alerts', '', first.access_token)).toBe(401);
  });

  it('a deleted admin is refused everywhere within 5 s', async () => {
    const gone = await signUp('gone@example.org');
    expect((await adminApi(await chiefToken(), 'DELETE', `/${gone.user.id}`, {})).status).toBe(200);
    await refusedEverywhereWithin5s(gone.access_token);
  });

  it("a demoted admin's tokens are void by the user's cut-off even where identity did not list the session", async () => {
    const unlisted = await signUp('unlisted@example.org');
    const socket = await connected(unlisted.access_token);
    const dropped = new Promise<string>((resolve) => socket.once('disconnect', (reason) => resolve(reason)));
    expect((await adminApi(await chiefToken(), 'PUT', `/${unlisted.user.id}`, { app_metadata: { role: 'user' } })).status).toBe(200);
    await refusedEverywhereWithin5s(unlisted.access_token);
    expect(await dropped).toBe('io server disconnect');
    // as if the session had not been among those ended (a session the demotion did not see): the user's cut-off holds
    const sessionId = decodeJwt(unlisted.access_token).session_id as string;
    expect(await keys.del(revokedSessionKey(sessionId))).toBe(1);
    const statuses = await Promise.all(ADMIN_ROUTES.map(([s, p]) => statusOf(s, p, unlisted.access_token)));
    expect(statuses).toEqual(ADMIN_ROUTES.map(() => 401));
    expect(await keys.get(revokedUserKey(unlisted.user.id))).toEqual(expect.stringMatching(/^\d+$/));
  });

  it('the gateway rechecks its sockets when it may have missed a revocation (its subscriber reconnected)', async () => {
    const missed = await signUp('missed@example.org');
    const socket = await connected(missed.access_token);
    const dropped = new Promise<string>((resolve) => socket.once('disconnect', (reason) => resolve(reason)));
    // recorded, never published: what a gateway whose subscriber was down at the time would have missed
    await keys.set(revokedUserKey(missed.user.id), String(Math.floor(Date.now() / 1000) + 1), 'EX', 60);
    await svc.gateway.app.get(SocketGateway).recheckAll();
    expect(await dropped).toBe('io server disconnect');
  });
});

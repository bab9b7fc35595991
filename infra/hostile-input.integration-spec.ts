import { createTestDatabase, RunningService, startTestIdentity, startTestService, TestDatabase, TestIdentity, testRedisPrefix } from '@beacon/testing';
import { DATABASES } from './databases';
import { SERVICE_DEFINITIONS } from './service-definitions';

/**
 * A NUL character anywhere a client can put text (JSON bodies at any depth, auth user data, query and route
 * parameters) is refused by the shared validation of every service with 400 `invalid_characters`, and nothing is
 * written. It used to reach PostgreSQL, which cannot store U+0000, and come back as a 500.
 */
describe('NUL characters in any text input', () => {
  let db: TestDatabase;
  const redis = testRedisPrefix();
  let identity: TestIdentity;
  const services: Record<string, RunningService<unknown>> = {};
  let admin: string;
  let user: string;
  /** A session of the real identity service, for its own authenticated routes. */
  let identityUser: string;

  beforeAll(async () => {
    db = await createTestDatabase(DATABASES);
    identity = await startTestIdentity();
    for (const def of SERVICE_DEFINITIONS.filter((d) => ['identity', 'alerts', 'incidents', 'store', 'traffic'].includes(d.name))) {
      services[def.name] = await startTestService(def, {
        DATABASE_URL: db.url,
        REDIS_URL: redis.url,
        REDIS_PREFIX: redis.prefix,
        JWKS_URL: identity.jwksUrl,
      });
    }
    admin = await identity.token({ role: 'admin' });
    user = await identity.token();
    const signUp = await call('identity', 'POST', '/signup', { body: { email: 'clean@example.test', password: 'a-long-password-1', data: { name: 'Clean' } } });
    identityUser = signUp.body.access_token;
    expect(identityUser).toBeTruthy();
  });
  afterAll(async () => {
    for (const svc of Object.values(services)) await svc.close();
    await identity.close();
    await db.drop();
    await redis.cleanup();
  });

  const call = async (service: string, method: string, path: string, opts: { token?: string; body?: unknown } = {}) => {
    const res = await fetch(`${services[service].url}${path}`, {
      method,
      headers: {
        ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
        ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, text, body: text ? JSON.parse(text) : undefined };
  };

  const count = async (table: string) => (await db.query(`SELECT count(*)::int AS n FROM ${table}`))[0].n as number;

  const NUL = 'Evil\u0000name';
  const deep = (depth: number) => {
    let value: unknown = NUL;
    for (let i = 0; i < depth; i++) value = { nested: value };
    return value;
  };
  const cases: [string, string, string, string, { body?: unknown; auth?: 'admin' | 'user' | 'identityUser' }][] = [
    [
      'identity sign-up user data (nested)',
      'identity',
      'POST',
      '/signup',
      { body: { email: 'nul-data@example.test', password: 'a-long-password-1', data: { profile: { name: NUL } } } },
    ],
    [
      'identity sign-up data key',
      'identity',
      'POST',
      '/signup',
      { body: { email: 'nul-key@example.test', password: 'a-long-password-1', data: { [NUL]: 'x' } } },
    ],
    [
      'identity sign-up query',
      'identity',
      'POST',
      `/signup?redirect_to=${encodeURIComponent(`http://localhost:8080/${NUL}`)}`,
      { body: { email: 'nul-query@example.test', password: 'a-long-password-1' } },
    ],
    [
      'alerts create (body)',
      'alerts',
      'POST',
      '',
      { auth: 'admin', body: { title: NUL, message: 'Wrong-way driver reported', type: 'Wrong-way Driver', severity: 'high', channels: ['push'] } },
    ],
    ['alerts search (query)', 'alerts', 'GET', `?search=${encodeURIComponent(NUL)}`, { auth: 'admin' }],
    ['alerts preferences (array item)', 'alerts', 'PUT', '/me/preferences', { auth: 'user', body: { categories: [NUL] } }],
    [
      'incidents report (body)',
      'incidents',
      'POST',
      '/incidents',
      { auth: 'user', body: { type: 'crime', description: `A long enough description ${NUL}`, lat: 33.4, lng: -112 } },
    ],
    [
      'community post (body)',
      'incidents',
      'POST',
      '/community/posts',
      { auth: 'user', body: { title: `Title ${NUL}`, category: 'other', description: 'A long enough description of the post.' } },
    ],
    ['community search (query)', 'incidents', 'GET', `/community/posts?search=${encodeURIComponent(NUL)}`, { auth: 'user' }],
    ['incident id (route parameter)', 'incidents', 'GET', `/incidents/${encodeURIComponent(NUL)}`, { auth: 'user' }],
    ['store search (query)', 'store', 'GET', `/products?search=${encodeURIComponent(NUL)}`, { auth: 'user' }],
    ['store product (body)', 'store', 'POST', '/products', { auth: 'admin', body: { name: NUL, description: 'x', price: 1, category: 'Safety Gear' } }],
    ['traffic camera image (route parameter)', 'traffic', 'GET', `/camera-images/${encodeURIComponent(NUL)}.jpg`, {}],
    // routes that read no query or body are no exception: the whole request is checked, not only what a handler takes
    ['traffic cameras (query)', 'traffic', 'GET', `/cameras?roadway=${encodeURIComponent(NUL)}`, {}],
    ['traffic ingest pull-now (body)', 'traffic', 'POST', '/ingest/runs', { auth: 'admin', body: { note: NUL } }],
    [
      'identity sign-up data nested 40 deep',
      'identity',
      'POST',
      '/signup',
      { body: { email: 'nul-deep@example.test', password: 'a-long-password-1', data: deep(40) } },
    ],
    ['identity user update data (body)', 'identity', 'PUT', '/user', { auth: 'identityUser', body: { data: { name: NUL } } }],
    ['identity admin user list (query)', 'identity', 'GET', `/admin/users?filter=${encodeURIComponent(NUL)}`, { auth: 'admin' }],
    [
      'store product (body nested 40 deep)',
      'store',
      'POST',
      '/products',
      { auth: 'admin', body: { name: 'Deep', description: 'x', price: 1, category: 'Safety Gear', extra: deep(40) } },
    ],
  ];

  it.each(cases)('%s: 400 invalid_characters', async (_name, service, method, path, opts) => {
    const token = opts.auth === 'admin' ? admin : opts.auth === 'user' ? user : opts.auth === 'identityUser' ? identityUser : undefined;
    const res = await call(service, method, path, { token, body: opts.body });
    expect(res.status).toBe(400);
    // identity answers in the hosted auth API's shape, every other service in the shared ErrorBody
    if (service === 'identity') expect(res.body).toMatchObject({ code: 400, error_code: 'validation_failed', msg: 'Text must not contain NUL characters' });
    else expect(res.body).toMatchObject({ statusCode: 400, code: 'invalid_characters', message: 'Text must not contain NUL characters' });
    expect(res.text).not.toMatch(/at .*\.(js|ts):\d+/);
  });

  it('wrote nothing', async () => {
    expect(await count(`identity.users WHERE email LIKE 'nul-%'`)).toBe(0);
    const me = await call('identity', 'GET', '/user', { token: identityUser });
    expect(me.body.user_metadata).toEqual({ name: 'Clean' });
    expect(await count('alerts.alerts')).toBe(0);
    expect(await count('incidents.incidents')).toBe(0);
    expect(await count('incidents.community_posts')).toBe(0);
    expect(await count(`store.store_products WHERE description = 'x'`)).toBe(0);
    expect(await count('traffic.ingest_runs')).toBe(0);
  });
});

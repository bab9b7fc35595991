import { decodeJwt } from 'jose';
import { createTestDatabase, jsonClient, RunningService, startTestService, TestDatabase, testRedisPrefix } from '@beacon/testing';
import { DATABASES } from './databases';
import { SERVICE_DEFINITIONS } from './service-definitions';

jest.setTimeout(60_000);

/**
 * Roles set through identity (issue #38) are what the alerts service enforces, and a change takes effect within
 * seconds: access tokens are verified without asking identity, so a role change ends the user's sessions and identity
 * tells every service through Redis. A publisher demoted to viewer must not go on sending for the rest of an hour.
 */
describe('staff roles across identity and the alerts service', () => {
  let db: TestDatabase;
  const redis = testRedisPrefix();
  let identity: RunningService<unknown>;
  let alerts: RunningService<unknown>;
  const auth = jsonClient(() => identity.url);
  const call = jsonClient(() => alerts.url);

  beforeAll(async () => {
    db = await createTestDatabase(DATABASES);
    const common = { DATABASE_URL: db.url, REDIS_URL: redis.url, REDIS_PREFIX: redis.prefix };
    const def = (name: string) => SERVICE_DEFINITIONS.find((d) => d.name === name)!;
    identity = await startTestService(def('identity'), { ...common, ADMIN_EMAILS: 'chief@example.org' });
    alerts = await startTestService(def('alerts'), { ...common, JWKS_URL: `${identity.url}/.well-known/jwks.json` });
  });
  afterAll(async () => {
    await alerts?.close();
    await identity?.close();
    await db?.drop();
    await redis.cleanup();
  });

  const PASSWORD = 'a long staff password';
  const signUp = async (email: string) => {
    const res = await auth('POST', '/signup', null, { email, password: PASSWORD });
    expect(res.status).toBe(200);
    return res.body as { access_token: string; user: { id: string } };
  };
  const signIn = async (email: string) => {
    const res = await auth('POST', '/token?grant_type=password', null, { email, password: PASSWORD });
    expect(res.status).toBe(200);
    return (res.body as { access_token: string }).access_token;
  };
  const setRole = (adminToken: string, userId: string, role: string) => auth('PUT', `/admin/users/${userId}`, adminToken, { app_metadata: { role } });

  /** A publisher's route: saving a draft (nothing is sent). */
  const saveDraft = (token: string) =>
    call('POST', '', token, {
      type: 'Emergency',
      title: 'Boil water notice',
      message: 'Boil tap water for one minute before drinking.',
      channels: ['sms'],
      draft: true,
    });

  it('a publisher demoted to viewer is refused on the publisher route within 5 s, and signs in again as a viewer', async () => {
    const chief = await signUp('chief@example.org');
    const member = await signUp('member@example.org');
    expect((await setRole(chief.access_token, member.user.id, 'publisher')).status).toBe(200);
    const publisher = await signIn('member@example.org');
    expect(decodeJwt(publisher).app_metadata).toMatchObject({ role: 'publisher' });
    expect((await saveDraft(publisher)).status).toBe(201);
    expect((await call('GET', '', publisher)).status).toBe(200);

    expect((await setRole(chief.access_token, member.user.id, 'viewer')).status).toBe(200);
    const until = Date.now() + 5000;
    let refused = await saveDraft(publisher);
    while (refused.status === 201 && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 100));
      refused = await saveDraft(publisher);
    }
    expect([refused.status, refused.body.code]).toEqual([401, 'session_revoked']);
    // refused on every route, reading ones too: the token is void, not merely short of a role
    expect((await call('GET', '', publisher)).status).toBe(401);

    const viewer = await signIn('member@example.org');
    expect(decodeJwt(viewer).app_metadata).toMatchObject({ role: 'viewer' });
    expect((await saveDraft(viewer)).body).toMatchObject({ statusCode: 403, code: 'forbidden' });
    expect((await call('GET', '', viewer)).status).toBe(200);
    // the chief who demoted is untouched
    expect((await saveDraft(chief.access_token)).status).toBe(201);
  });
});

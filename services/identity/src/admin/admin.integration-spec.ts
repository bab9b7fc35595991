import { IdentityUnderTest, startIdentity } from '../testing/harness';

describe('admin users API (/admin/users)', () => {
  let id: IdentityUnderTest;
  let admin: { access_token: string; user: { id: string } };
  let plain: { access_token: string; user: { id: string } };
  beforeAll(async () => {
    id = await startIdentity({ ADMIN_EMAILS: 'head@example.org' });
    admin = (await id.api('POST', '/signup', { body: { email: 'head@example.org', password: 'head password 1' } })).body;
    plain = (await id.api('POST', '/signup', { body: { email: 'member@example.org', password: 'member password 1' } })).body;
  });
  afterAll(() => id.close());

  const as = (token: string) => ({
    get: (path: string) => id.api('GET', path, { token }),
    post: (path: string, body: object) => id.api('POST', path, { token, body }),
    put: (path: string, body: object) => id.api('PUT', path, { token, body }),
    del: (path: string) => id.api('DELETE', path, { token, body: {} }),
  });

  it('is closed to callers without a token (401) and to non-admins (403 not_admin) on every route', async () => {
    const target = `/admin/users/${plain.user.id}`;
    const calls = (token?: string) => [
      id.api('GET', '/admin/users', { token }),
      id.api('POST', '/admin/users', { token, body: { email: 'x@example.org' } }),
      id.api('GET', target, { token }),
      id.api('PUT', target, { token, body: {} }),
      id.api('DELETE', target, { token, body: {} }),
    ];
    for (const res of await Promise.all(calls())) expect(res.body).toMatchObject({ code: 401, error_code: 'no_authorization' });
    for (const res of await Promise.all(calls(plain.access_token))) expect(res.body).toEqual({ code: 403, error_code: 'not_admin', msg: 'User not allowed' });
    expect((await id.api('GET', target, { token: plain.access_token })).status).toBe(403);
  });

  it('also requires the admin role to still be current', async () => {
    const other = (await id.api('POST', '/signup', { body: { email: 'was-admin@example.org', password: 'was admin pass' } })).body;
    await id.db.query(`UPDATE identity.users SET app_role = 'admin' WHERE id = $1`, [other.user.id]);
    const promoted = (await id.api('POST', '/token?grant_type=refresh_token', { body: { refresh_token: other.refresh_token } })).body;
    expect((await as(promoted.access_token).get('/admin/users')).status).toBe(200);
    await id.db.query(`UPDATE identity.users SET app_role = 'user' WHERE id = $1`, [other.user.id]);
    expect((await as(promoted.access_token).get('/admin/users')).body.error_code).toBe('not_admin');
  });

  it('creates, reads, lists (paginated, filtered), updates and deletes users', async () => {
    const api = as(admin.access_token);
    const created = await api.post('/admin/users', {
      email: 'New.Person@example.org',
      password: 'new person pass',
      email_confirm: true,
      user_metadata: { unit: 7 },
      app_metadata: { team: 'ops' },
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      email: 'new.person@example.org',
      user_metadata: { unit: 7 },
      app_metadata: { team: 'ops', role: 'user', provider: 'email' },
    });
    expect(created.body.email_confirmed_at).toBeTruthy();
    const userId = created.body.id;
    expect((await api.post('/admin/users', { email: 'new.person@example.org' })).body).toMatchObject({ code: 422, error_code: 'email_exists' });
    expect((await id.api('POST', '/token?grant_type=password', { body: { email: 'new.person@example.org', password: 'new person pass' } })).status).toBe(200);

    expect((await api.get(`/admin/users/${userId}`)).body).toMatchObject({ id: userId, email: 'new.person@example.org' });
    expect((await api.get('/admin/users/00000000-0000-4000-8000-000000000000')).body).toEqual({
      code: 404,
      error_code: 'user_not_found',
      msg: 'User not found',
    });
    expect((await api.get('/admin/users/not-a-uuid')).status).toBe(404);

    const page = await api.get('/admin/users?page=2&per_page=1');
    expect(page.status).toBe(200);
    expect(page.body.aud).toBe('authenticated');
    expect(page.body.users).toHaveLength(1);
    const total = Number(page.headers.get('x-total-count'));
    expect(total).toBeGreaterThanOrEqual(3);
    expect(page.headers.get('link')).toContain(`page=${total}&per_page=1>; rel="last"`);
    expect(page.headers.get('link')).toContain('page=3&per_page=1>; rel="next"');
    const filtered = await api.get('/admin/users?filter=new.person');
    expect(filtered.body.users.map((u: { email: string }) => u.email)).toEqual(['new.person@example.org']);
    expect((await api.get('/admin/users?per_page=5000')).body.error_code).toBe('validation_failed');

    const session = (await id.api('POST', '/token?grant_type=password', { body: { email: 'new.person@example.org', password: 'new person pass' } })).body;
    const promoted = await api.put(`/admin/users/${userId}`, { app_metadata: { role: 'admin' }, user_metadata: { unit: 8 } });
    expect(promoted.body).toMatchObject({ app_metadata: { role: 'admin', team: 'ops' }, user_metadata: { unit: 8 } });
    // a role change ends the user's sessions, so the new role is in their next tokens
    expect((await id.api('GET', '/user', { token: session.access_token })).body.error_code).toBe('session_not_found');
    expect((await api.put(`/admin/users/${userId}`, { app_metadata: { role: 'root' } })).body.error_code).toBe('validation_failed');
    expect((await api.put(`/admin/users/${userId}`, { ban_duration: '24h' })).body.banned_until).toBeTruthy();
    expect(
      (await id.api('POST', '/token?grant_type=password', { body: { email: 'new.person@example.org', password: 'new person pass' } })).body.error_code,
    ).toBe('user_banned');
    expect((await api.put(`/admin/users/${userId}`, { ban_duration: 'forever' })).body.error_code).toBe('validation_failed');

    expect((await api.del(`/admin/users/${userId}`)).body).toEqual({});
    expect((await api.get(`/admin/users/${userId}`)).status).toBe(404);
  });

  it('sets every role in app_metadata.role, names the roles when given another, and keeps the API for admins (issue #38)', async () => {
    const api = as(admin.access_token);
    const staff: Record<string, { id: string; email: string }> = {};
    for (const role of ['user', 'viewer', 'publisher', 'approver', 'admin']) {
      const made = await api.post('/admin/users', {
        email: `${role}.staff@example.org`,
        password: 'staff password 1',
        email_confirm: true,
        app_metadata: { role },
      });
      expect([made.status, made.body.app_metadata.role]).toEqual([200, role]);
      staff[role] = made.body;
    }
    const refused = { code: 400, error_code: 'validation_failed', msg: 'app_metadata.role must be one of: user, viewer, publisher, approver, admin' };
    for (const role of ['root', 'Admin', 7, null]) {
      expect((await api.put(`/admin/users/${staff.viewer.id}`, { app_metadata: { role } })).body).toEqual(refused);
      expect((await api.post('/admin/users', { email: 'nobody.new@example.org', app_metadata: { role } })).body).toEqual(refused);
    }
    expect((await api.get(`/admin/users/${staff.viewer.id}`)).body.app_metadata.role).toBe('viewer');

    // any staff role but admin is no admin of the accounts
    const signIn = async (email: string) =>
      (await id.api('POST', '/token?grant_type=password', { body: { email, password: 'staff password 1' } })).body as {
        access_token: string;
        refresh_token: string;
      };
    const approver = await signIn(staff.approver.email);
    expect((await as(approver.access_token).get('/admin/users')).body).toEqual({ code: 403, error_code: 'not_admin', msg: 'User not allowed' });

    // a change between staff roles ends the sessions like any role change: the token's role is never stale
    const viewer = await signIn(staff.viewer.email);
    expect((await api.put(`/admin/users/${staff.viewer.id}`, { app_metadata: { role: 'publisher' } })).body.app_metadata.role).toBe('publisher');
    expect((await id.api('GET', '/user', { token: viewer.access_token })).body.error_code).toBe('session_not_found');
    expect(await id.redis.get(`auth:revoked-user:${staff.viewer.id}`)).not.toBeNull();
    expect((await signIn(staff.viewer.email)).access_token).toBeTruthy();
    // the same role again is no change: the sessions stay
    const kept = await signIn(staff.publisher.email);
    expect((await api.put(`/admin/users/${staff.publisher.id}`, { app_metadata: { role: 'publisher' } })).status).toBe(200);
    expect((await id.api('GET', '/user', { token: kept.access_token })).status).toBe(200);
  });

  it('does not let an admin demote, ban or delete themselves', async () => {
    const api = as(admin.access_token);
    expect((await api.put(`/admin/users/${admin.user.id}`, { app_metadata: { role: 'user' } })).status).toBe(422);
    // nor to another staff role: every one below admin is a demotion
    expect((await api.put(`/admin/users/${admin.user.id}`, { app_metadata: { role: 'approver' } })).body).toEqual({
      code: 422,
      error_code: 'validation_failed',
      msg: 'You cannot remove your own admin role or ban yourself',
    });
    expect((await api.put(`/admin/users/${admin.user.id}`, { ban_duration: '1h' })).status).toBe(422);
    expect((await api.del(`/admin/users/${admin.user.id}`)).status).toBe(422);
    expect((await api.get(`/admin/users/${admin.user.id}`)).body.app_metadata.role).toBe('admin');
  });
});

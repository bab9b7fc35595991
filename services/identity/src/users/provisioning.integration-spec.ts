import { DataSource } from 'typeorm';
import { createTestDatabase, TestDatabase } from '@beacon/testing';
import { main as adminGrant } from '../../../../infra/admin-grant';
import { DEMO_ADMIN, DEMO_USER } from '../../../../infra/seed';
import { SEEDS } from '../../../../infra/seeds';
import { identityDatabase } from '../database';
import { IdentityUnderTest, startIdentity } from '../testing/harness';

describe('identity seed and admin:grant', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let id: IdentityUnderTest;
  beforeAll(async () => {
    db = await createTestDatabase([identityDatabase]);
    ds = await new DataSource({ type: 'postgres', url: db.url }).initialize();
    id = await startIdentity({}, db);
  });
  afterAll(async () => {
    await id.close();
    await ds.destroy();
    await db.drop();
  });
  const signIn = (email: string, password: string) => id.api('POST', '/token?grant_type=password', { body: { email, password } });

  it('seeds the demo user and demo admin, idempotently', async () => {
    const seed = SEEDS.find((s) => s.name === 'identity')!;
    const lines: string[] = [];
    await seed.run({ ds, log: (l) => lines.push(l), publicUrl: 'http://localhost:8080' });
    await seed.run({ ds, log: (l) => lines.push(l), publicUrl: 'http://localhost:8080' });
    expect(lines).toEqual([
      `created user ${DEMO_USER.email}`,
      `created admin ${DEMO_ADMIN.email}`,
      `${DEMO_USER.email} already exists`,
      `${DEMO_ADMIN.email} already exists`,
    ]);
    const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM identity.users`);
    expect(n).toBe(2);

    const user = await signIn(DEMO_USER.email, DEMO_USER.password);
    expect(user.status).toBe(200);
    expect(user.body.user.app_metadata.role).toBe('user');
    const admin = await signIn(DEMO_ADMIN.email, DEMO_ADMIN.password);
    expect(admin.body.user.app_metadata.role).toBe('admin');
    expect((await id.api('GET', '/admin/users', { token: admin.body.access_token })).status).toBe(200);
  });

  const grant = async (argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await adminGrant(
      argv,
      db.url,
      (l) => out.push(l),
      (l) => err.push(l),
      { url: id.svc.env.REDIS_URL, prefix: id.svc.env.REDIS_PREFIX },
    );
    return { code, out, err };
  };
  const refresh = (token: string) => id.api('POST', '/token?grant_type=refresh_token', { body: { refresh_token: token } });

  it('npm run admin:grant -- <email> makes an existing account admin', async () => {
    const email = 'promote-me@example.org';
    const s = (await id.api('POST', '/signup', { body: { email, password: 'promote me please' } })).body;
    const made = await grant([email.toUpperCase()]);
    expect(made.code).toBe(0);
    expect(made.out[0]).toBe(`admin:grant: ${email.toUpperCase()} is now an administrator (was a user); effective at their next sign-in or token refresh`);
    const refreshed = await refresh(s.refresh_token);
    expect(refreshed.body.user.app_metadata.role).toBe('admin');

    const nobody = await grant(['nobody@example.org']);
    expect(nobody.code).toBe(1);
    expect(nobody.err.pop()).toMatch(/no account with the email nobody@example.org/);
    const none = await grant([]);
    expect(none.code).toBe(2);
    expect(none.err.pop()).toBe('usage: npm run admin:grant -- <email> [role]   (role: user, viewer, publisher, approver, admin; default admin)');
  });

  it('npm run admin:grant -- <email> <role> gives any role, refuses one that is not, and a demotion ends the sessions', async () => {
    const email = 'staff-member@example.org';
    const s = (await id.api('POST', '/signup', { body: { email, password: 'a staff member password' } })).body;
    const bad = await grant([email, 'superuser']);
    expect(bad).toMatchObject({ code: 2, err: ['admin:grant: superuser is not a role; the roles are user, viewer, publisher, approver, admin'] });

    // a promotion keeps the session: the next refresh carries the role
    const up = await grant([email, 'publisher']);
    expect(up).toMatchObject({ code: 0, out: [`admin:grant: ${email} is now a publisher (was a user); effective at their next sign-in or token refresh`] });
    const asPublisher = await refresh(s.refresh_token);
    expect(asPublisher.body.user.app_metadata.role).toBe('publisher');
    const [{ n: before }] = await db.query(`SELECT count(*)::int AS n FROM identity.sessions WHERE user_id = $1`, [s.user.id]);
    expect(before).toBe(1);

    // a demotion ends every session, here and (through Redis) for every service
    const down = await grant([email, 'viewer']);
    expect(down).toMatchObject({
      code: 0,
      out: [`admin:grant: ${email} is now a viewer (was a publisher); their sessions have ended everywhere: they sign in again with the new role`],
    });
    const [{ n: after }] = await db.query(`SELECT count(*)::int AS n FROM identity.sessions WHERE user_id = $1`, [s.user.id]);
    expect(after).toBe(0);
    expect(await id.redis.get(`auth:revoked-user:${s.user.id}`)).not.toBeNull();
    expect((await refresh(asPublisher.body.refresh_token)).status).toBe(400);
    const again = await id.api('POST', '/token?grant_type=password', { body: { email, password: 'a staff member password' } });
    expect(again.body.user.app_metadata.role).toBe('viewer');

    expect(await grant([email, 'viewer'])).toMatchObject({ code: 0, out: [`admin:grant: ${email} is now a viewer (was a viewer); nothing changed`] });
  });

  it('leaves the role as it was when a demotion cannot end the sessions (Redis unreachable)', async () => {
    const email = 'kept-admin@example.org';
    await id.api('POST', '/signup', { body: { email, password: 'a kept admin password' } });
    expect((await grant([email, 'admin'])).code).toBe(0);
    await id.api('POST', '/token?grant_type=password', { body: { email, password: 'a kept admin password' } });
    const out: string[] = [];
    const failed = adminGrant(
      [email, 'user'],
      db.url,
      (l) => out.push(l),
      () => undefined,
      { url: 'redis://127.0.0.1:1', prefix: 'nowhere' },
    );
    await expect(failed).rejects.toThrow(/recording the revocation timed out|ECONNREFUSED/);
    const [{ app_role }] = await db.query(`SELECT app_role FROM identity.users WHERE email = $1`, [email]);
    expect(app_role).toBe('admin');
  });
});

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

  it('npm run admin:grant -- <email> makes an existing account admin', async () => {
    const email = 'promote-me@example.org';
    const s = (await id.api('POST', '/signup', { body: { email, password: 'promote me please' } })).body;
    const out: string[] = [];
    const err: string[] = [];
    expect(
      await adminGrant(
        [email.toUpperCase()],
        db.url,
        (l) => out.push(l),
        (l) => err.push(l),
      ),
    ).toBe(0);
    expect(out[0]).toMatch(/is now an admin/);
    const refreshed = await id.api('POST', '/token?grant_type=refresh_token', { body: { refresh_token: s.refresh_token } });
    expect(refreshed.body.user.app_metadata.role).toBe('admin');

    expect(
      await adminGrant(
        ['nobody@example.org'],
        db.url,
        (l) => out.push(l),
        (l) => err.push(l),
      ),
    ).toBe(1);
    expect(err.pop()).toMatch(/no account with the email nobody@example.org/);
    expect(
      await adminGrant(
        [],
        db.url,
        (l) => out.push(l),
        (l) => err.push(l),
      ),
    ).toBe(2);
    expect(err.pop()).toBe('usage: npm run admin:grant -- <email>');
  });
});

import { DataSource } from 'typeorm';
import { createTestDatabase, TestDatabase } from '@beacon/testing';
import { identityDatabase } from '../../../identity/src/database';
import { incidentsDatabase } from '../database';
import { seedIncidents } from './incidents.seed';

describe('incidents demo seed', () => {
  let db: TestDatabase;
  let ds: DataSource;
  const emails = { demo: 'demo@beacon.local', admin: 'admin@beacon.local' };

  beforeAll(async () => {
    db = await createTestDatabase([identityDatabase, incidentsDatabase]);
    ds = new DataSource({ type: 'postgres', url: db.url });
    await ds.initialize();
  });
  afterAll(async () => {
    await ds.destroy();
    await db.drop();
  });

  it('skips without the demo accounts, then seeds consistent data, idempotently', async () => {
    const lines: string[] = [];
    await seedIncidents(ds, (l) => lines.push(l), emails);
    expect(lines[0]).toMatch(/skipped/);

    const [demo] = await db.query(`INSERT INTO identity.users (email) VALUES ($1) RETURNING id`, [emails.demo]);
    await db.query(`INSERT INTO identity.users (email, app_role) VALUES ($1, 'admin')`, [emails.admin]);
    await seedIncidents(ds, () => undefined, emails);
    await seedIncidents(ds, () => undefined, emails);

    const [posts] =
      await db.query(`SELECT count(*)::int AS n, bool_and(likes_count = (SELECT count(*) FROM incidents.post_likes l WHERE l.post_id = p.id)) AS likes_ok,
      bool_and(comments_count = (SELECT count(*) FROM incidents.community_comments c WHERE c.post_id = p.id)) AS comments_ok FROM incidents.community_posts p`);
    expect(posts).toEqual({ n: 5, likes_ok: true, comments_ok: true });
    // 5 posts x 5 + 3 comments x 2 + 3 likes received
    const [points] = await db.query(`SELECT points FROM incidents.user_points WHERE user_id = $1`, [demo.id]);
    expect(points.points).toBe(25 + 6 + 3);
    const [{ verified }] = await db.query(`SELECT count(*) FILTER (WHERE status = 'verified')::int AS verified FROM incidents.incidents`);
    expect(verified).toBe(3);
    // the moderation queue names the demo user as the reporter of every demo report
    const [{ named }] = await db.query(`SELECT bool_and(reporter_email = $1) AS named FROM incidents.incidents`, [emails.demo]);
    expect(named).toBe(true);
  });
});

import { randomUUID } from 'node:crypto';
import type { ModerationIncident, ModerationQueuePage } from '@beacon/contracts';
import { Harness, north, PHOENIX, startHarness, TestUser } from '../testing/harness';

/**
 * The moderation queue on a database of its own (the main incidents spec leaves pending reports everywhere):
 * its exact order, every report's reporter and their record, paging, and who may read it.
 */
describe('moderation queue (real database)', () => {
  let h: Harness;
  let admin: TestUser;
  let jane: TestUser;
  let sam: TestUser;
  let kim: TestUser;
  let lee: TestUser;
  let alice: TestUser;
  /** A reporter whose reports predate the reporter_email column: no e-mail on record. */
  const legacyId = randomUUID();
  const ids: Record<string, string> = {};
  let spot = 0;

  /** Reports through the API (so the token's e-mail is kept), then sets how long ago it was made. */
  async function reportAs(user: TestUser, type: string, minutesAgo: number): Promise<string> {
    const res = await h.call('POST', '/incidents', {
      user,
      body: { type, description: `${type} report number ${++spot}`, locationName: `Spot ${spot}`, ...north(PHOENIX, spot * 1000) },
    });
    expect(res).toMatchObject({ status: 201, body: { status: 'pending' } });
    await h.db.query(`UPDATE incidents.incidents SET created_at = now() - make_interval(mins => $2) WHERE id = $1`, [res.body.id, minutesAgo]);
    return res.body.id;
  }

  const decide = async (id: string, status: 'verified' | 'rejected' | 'resolved') => {
    expect((await h.call('PATCH', `/incidents/${id}/status`, { user: admin, body: { status } })).status).toBe(200);
  };

  const queue = (query: string, user: TestUser = admin) => h.call<ModerationQueuePage>('GET', `/incidents/moderation-queue${query}`, { user });

  beforeAll(async () => {
    h = await startHarness();
    [admin, jane, sam, kim, lee, alice] = await Promise.all([h.user('admin'), h.user(), h.user(), h.user(), h.user(), h.user()]);

    // jane's record: two verified (one of them since resolved) and one rejected, all decided before her pending ones
    const janeVerified = await reportAs(jane, 'traffic-hazard', 3000);
    await decide(janeVerified, 'verified');
    const janeResolved = await reportAs(jane, 'accident', 2900);
    await decide(janeResolved, 'verified');
    await decide(janeResolved, 'resolved');
    await decide(await reportAs(jane, 'crime', 2800), 'rejected');

    // the pending queue, in the order it is made (not the order it must come back in)
    ids.janeCrime = await reportAs(jane, 'crime', 300);
    ids.samAccident = await reportAs(sam, 'accident', 60);
    ids.janeWrongWay = await reportAs(jane, 'wrong-way-driver', 10);
    ids.samWrongWay = await reportAs(sam, 'wrong-way-driver', 120);
    ids.kimAccident = await reportAs(kim, 'accident', 240);
    ids.leeOther1 = await reportAs(lee, 'other', 360);
    ids.leeOther2 = await reportAs(lee, 'other', 360);
    // two reports made at the very same instant: only the id can order them
    await h.db.query(`UPDATE incidents.incidents SET created_at = (SELECT created_at FROM incidents.incidents WHERE id = $1) WHERE id = $2`, [
      ids.leeOther1,
      ids.leeOther2,
    ]);
    // rows from before the e-mail was kept: one rejected long ago, one pending
    const legacy: { id: string; status: string }[] = await h.db.query(
      `INSERT INTO incidents.incidents (type, description, lat, lng, reported_by, status, created_at)
       VALUES ('traffic-hazard', 'Mattress in the middle lane', 33.1, -112.2, $1, 'pending', now() - interval '180 minutes'),
              ('crime', 'Old report refused by an admin', 33.2, -112.2, $1, 'rejected', now() - interval '30 days')
       RETURNING id, status`,
      [legacyId],
    );
    ids.legacyHazard = legacy.find((r) => r.status === 'pending')!.id;
  });
  afterAll(() => h.close());

  it('puts wrong-way drivers first, then accidents, then the rest, the longest waiting first within each', async () => {
    const res = await queue('?limit=100');
    expect(res.status).toBe(200);
    const [first, second] = [ids.leeOther1, ids.leeOther2].sort();
    expect(res.body.items.map((i) => i.id)).toEqual([
      ids.samWrongWay, // 2 h
      ids.janeWrongWay, // 10 min
      ids.kimAccident, // 4 h
      ids.samAccident, // 1 h
      first,
      second, // 6 h, the same instant: by id
      ids.janeCrime, // 5 h
      ids.legacyHazard, // 3 h
    ]);
    expect(res.body.total).toBe(8);
    expect(res.body.items.every((i) => i.status === 'pending')).toBe(true);
  });

  it('names each reporter and counts their other reports exactly', async () => {
    const { body } = await queue('?limit=100');
    const reporterOf = (id: string) => body.items.find((i) => i.id === id)!.reporter;

    // two verified (a resolved one counts as verified), one rejected, and her other pending report
    const janeRecord = { verified: 2, rejected: 1, pending: 1 };
    expect(reporterOf(ids.janeWrongWay)).toEqual({ id: jane.id, email: jane.email, history: janeRecord });
    expect(reporterOf(ids.janeCrime)).toEqual({ id: jane.id, email: jane.email, history: janeRecord });
    expect(reporterOf(ids.samWrongWay)).toEqual({ id: sam.id, email: sam.email, history: { verified: 0, rejected: 0, pending: 1 } });
    expect(reporterOf(ids.samAccident)).toEqual({ id: sam.id, email: sam.email, history: { verified: 0, rejected: 0, pending: 1 } });
    // a first-time reporter
    expect(reporterOf(ids.kimAccident)).toEqual({ id: kim.id, email: kim.email, history: { verified: 0, rejected: 0, pending: 0 } });
    expect(reporterOf(ids.leeOther1)).toEqual({ id: lee.id, email: lee.email, history: { verified: 0, rejected: 0, pending: 1 } });
    // an old row: nobody's e-mail was kept then, but the record is counted all the same
    expect(reporterOf(ids.legacyHazard)).toEqual({ id: legacyId, email: null, history: { verified: 0, rejected: 1, pending: 0 } });
    // the e-mail is stored from the token, not taken from anything the reporter sent
    const [row] = await h.db.query(`SELECT reporter_email FROM incidents.incidents WHERE id = $1`, [ids.kimAccident]);
    expect(row.reporter_email).toBe(kim.email);
  });

  it('pages without overlap or gaps, with the same total on every page and past the end', async () => {
    const all = (await queue('?limit=100')).body.items.map((i) => i.id);
    const paged: string[] = [];
    for (let offset = 0; offset < all.length; offset += 3) {
      const page = await queue(`?limit=3&offset=${offset}`);
      expect(page.body.total).toBe(all.length);
      paged.push(...page.body.items.map((i) => i.id));
    }
    expect(paged).toEqual(all);
    // a page boundary between the two same-instant reports: each page still gets the one the full list has there
    const pages = await Promise.all([4, 5].map((offset) => queue(`?limit=1&offset=${offset}`)));
    expect(pages.map((p) => p.body.items[0].id)).toEqual(all.slice(4, 6));
    expect((await queue('?limit=3&offset=100')).body).toEqual({ items: [], total: all.length });
  });

  it('counts the pending reports for the menu badge', async () => {
    const res = await h.call('GET', '/incidents/moderation-queue/count', { user: admin });
    expect(res).toMatchObject({ status: 200, body: { pending: 8 } });
  });

  it('is for admins only', async () => {
    for (const path of ['/incidents/moderation-queue', '/incidents/moderation-queue/count']) {
      expect((await h.call('GET', path)).status).toBe(401);
      const asUser = await h.call('GET', path, { user: alice });
      expect(asUser).toMatchObject({ status: 403, body: { code: 'forbidden' } });
      // not even a reporter whose reports are in it
      expect((await h.call('GET', path, { user: jane })).status).toBe(403);
    }
  });

  it("follows the moderators' decisions: a verified report leaves the queue and joins its reporter's record", async () => {
    await decide(ids.janeWrongWay, 'verified');
    const { body } = await queue('?limit=100');
    expect(body.total).toBe(7);
    expect(body.items[0].id).toBe(ids.samWrongWay);
    const janeCrime = body.items.find((i: ModerationIncident) => i.id === ids.janeCrime)!;
    expect(janeCrime.reporter.history).toEqual({ verified: 3, rejected: 1, pending: 0 });
    expect((await h.call('GET', '/incidents/moderation-queue/count', { user: admin })).body).toEqual({ pending: 7 });
  });
});

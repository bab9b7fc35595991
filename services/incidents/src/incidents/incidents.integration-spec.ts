import { Client } from 'pg';
import { INCIDENT_MESSAGES } from '@beacon/contracts';
import { withinRadius } from '../common/geo';
import { eventually, Harness, north, PHOENIX, startHarness, TestUser } from '../testing/harness';

const report = (over: Record<string, unknown> = {}) => ({
  type: 'wrong-way-driver',
  description: 'White pickup driving north in the southbound lanes',
  locationName: 'I-17 near Thomas Rd',
  ...PHOENIX,
  ...over,
});

describe('incidents API (real database)', () => {
  let h: Harness;
  let alice: TestUser;
  let bob: TestUser;
  let admin: TestUser;

  beforeAll(async () => {
    h = await startHarness();
    [alice, bob, admin] = await Promise.all([h.user(), h.user(), h.user('admin')]);
  });
  afterAll(() => h.close());

  describe('validation', () => {
    it.each([
      ['no type', { type: undefined }, INCIDENT_MESSAGES.typeRequired],
      ['a label instead of a type', { type: 'Wrong-way Driver' }, INCIDENT_MESSAGES.typeRequired],
      ['a short description', { description: 'too short' }, INCIDENT_MESSAGES.descriptionMin],
      ['a padded short description', { description: '          padded         ' }, INCIDENT_MESSAGES.descriptionMin],
      ['no description', { description: undefined }, INCIDENT_MESSAGES.descriptionMin],
      ['a 501-character description', { description: 'x'.repeat(501) }, INCIDENT_MESSAGES.descriptionMax],
      ['no latitude', { lat: undefined }, INCIDENT_MESSAGES.locationRequired],
      ['a text longitude', { lng: 'west' }, INCIDENT_MESSAGES.locationRequired],
      ['latitude 91', { lat: 91 }, INCIDENT_MESSAGES.locationRequired],
    ])('%s is refused with the spec message', async (_case, over, message) => {
      const res = await h.call('POST', '/incidents', { user: alice, body: report(over) });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'validation_failed', message });
    });

    it('accepts exactly 10 and 500 characters', async () => {
      for (const description of ['x'.repeat(10), 'y'.repeat(500)]) {
        const res = await h.call('POST', '/incidents', { user: alice, body: report({ description, ...north(PHOENIX, 5000) }) });
        expect(res.status).toBe(201);
      }
    });

    it('never lets a user set status or reported_by', async () => {
      for (const extra of [{ status: 'verified' }, { reportedBy: bob.id }, { reported_by: bob.id }]) {
        const res = await h.call('POST', '/incidents', { user: alice, body: report(extra) });
        expect(res.status).toBe(400);
        expect(res.body.code).toBe('validation_failed');
      }
      expect(await h.db.query(`SELECT 1 FROM incidents.incidents WHERE reported_by = $1`, [bob.id])).toHaveLength(0);
    });

    it('needs a token', async () => {
      const res = await h.call('POST', '/incidents', { body: report() });
      expect(res.status).toBe(401);
    });

    it('refuses a photo path that is not the reporter\'s own upload', async () => {
      const res = await h.call('POST', '/incidents', { user: alice, body: report({ photoPath: `incident-photos/${bob.id}/1763800000000.jpg` }) });
      expect(res).toMatchObject({ status: 400, body: { code: 'upload_not_found' } });
      const traversal = await h.call('POST', '/incidents', { user: alice, body: report({ photoPath: `../../etc/passwd` }) });
      expect(traversal).toMatchObject({ status: 400, body: { code: 'upload_not_found' } });
    });
  });

  describe('creation and events', () => {
    it('stores a pending report for the caller and queues incident.created', async () => {
      const res = await h.call('POST', '/incidents', { user: alice, body: report({ ...north(PHOENIX, 20_000) }) });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ status: 'pending', reportedBy: alice.id, mine: true, type: 'wrong-way-driver', photoUrl: null });
      // the outbox relays to BullMQ: the row leaves the outbox once the job is in Redis
      await eventually(async () => {
        const [{ n }] = await h.db.query(`SELECT count(*)::int AS n FROM incidents.outbox`);
        return n === 0 ? true : undefined;
      }, 'the outbox to drain');
    });
  });

  describe('visibility of pending reports (IDOR)', () => {
    let pendingId: string;
    beforeAll(async () => {
      pendingId = (await h.call('POST', '/incidents', { user: alice, body: report({ type: 'crime', description: 'Someone trying car door handles', ...north(PHOENIX, 30_000) }) })).body.id;
    });

    it('the reporter and admins see it', async () => {
      expect((await h.call('GET', `/incidents/${pendingId}`, { user: alice })).status).toBe(200);
      expect((await h.call('GET', `/incidents/${pendingId}`, { user: admin })).body).toMatchObject({ id: pendingId, reportedBy: alice.id });
    });

    it('another user gets the same 404 as for a report that does not exist', async () => {
      const other = await h.call('GET', `/incidents/${pendingId}`, { user: bob });
      const none = await h.call('GET', `/incidents/00000000-0000-4000-8000-000000000000`, { user: bob });
      expect(other.status).toBe(404);
      expect(other.body).toEqual(none.body);
      expect((await h.call('GET', `/incidents/not-a-uuid`, { user: bob })).body).toEqual(none.body);
    });

    it('lists and nearby queries hide it from others', async () => {
      const at = north(PHOENIX, 30_000);
      const list = await h.call('GET', `/incidents?limit=100`, { user: bob });
      expect(list.body.items.map((i: { id: string }) => i.id)).not.toContain(pendingId);
      const near = await h.call('GET', `/incidents/nearby?lat=${at.lat}&lng=${at.lng}`, { user: bob });
      expect(near.body.items.map((i: { id: string }) => i.id)).not.toContain(pendingId);
      const mine = await h.call('GET', `/incidents/nearby?lat=${at.lat}&lng=${at.lng}`, { user: alice });
      expect(mine.body.items.map((i: { id: string }) => i.id)).toContain(pendingId);
    });

    it('a user cannot change its status, not even the reporter', async () => {
      for (const user of [bob, alice]) {
        const res = await h.call('PATCH', `/incidents/${pendingId}/status`, { user, body: { status: 'verified' } });
        expect(res).toMatchObject({ status: 403, body: { code: 'forbidden' } });
      }
      const [row] = await h.db.query(`SELECT status FROM incidents.incidents WHERE id = $1`, [pendingId]);
      expect(row.status).toBe('pending');
    });
  });

  describe('moderation', () => {
    it('an admin sees the queue oldest first, verifies and the report becomes public with incident.verified queued', async () => {
      const at = north(PHOENIX, 40_000);
      const created = (await h.call('POST', '/incidents', { user: bob, body: report(at) })).body;
      const queue = await h.call('GET', '/incidents/moderation-queue?limit=100', { user: admin });
      expect(queue.status).toBe(200);
      const times = queue.body.items.map((i: { createdAt: string }) => i.createdAt);
      expect([...times].sort()).toEqual(times);
      expect(queue.body.items.every((i: { status: string }) => i.status === 'pending')).toBe(true);
      expect(queue.body.total).toBe(queue.body.items.length);
      expect(queue.body.items.map((i: { id: string }) => i.id)).toContain(created.id);
      expect((await h.call('GET', '/incidents/moderation-queue', { user: bob })).status).toBe(403);

      const verified = await h.call('PATCH', `/incidents/${created.id}/status`, { user: admin, body: { status: 'verified', note: 'Confirmed by camera 12' } });
      expect(verified.body).toMatchObject({ status: 'verified', moderationNote: 'Confirmed by camera 12' });
      // now public: another user sees it, without the reporter's id
      const seen = await h.call('GET', `/incidents/${created.id}`, { user: alice });
      expect(seen.body).toMatchObject({ status: 'verified', reportedBy: null, moderationNote: null, mine: false });
      const map = await h.call('GET', '/incidents/verified?hours=24');
      expect(map.status).toBe(200);
      const item = map.body.items.find((i: { id: string }) => i.id === created.id);
      expect(Object.keys(item).sort()).toEqual(['createdAt', 'description', 'id', 'lat', 'lng', 'locationName', 'type']);

      // the alerts service consumes incident.verified from its inbox queue
      const Redis = (await import('ioredis')).default;
      const redis = new Redis(process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379');
      try {
        const job = await eventually(async () => {
          const data = await redis.hget(`${h.redisPrefix}:bull:alerts-inbox:incident.verified_${created.id}`, 'data');
          return data ? JSON.parse(data) : undefined;
        }, 'incident.verified in alerts-inbox');
        expect(job).toMatchObject({ incidentId: created.id, type: 'wrong-way-driver', verifiedBy: admin.id, lat: at.lat, lng: at.lng });
      } finally {
        redis.disconnect();
      }
    });

    it('refuses transitions that are not allowed and unknown statuses', async () => {
      const created = (await h.call('POST', '/incidents', { user: bob, body: report(north(PHOENIX, 41_000)) })).body;
      expect((await h.call('PATCH', `/incidents/${created.id}/status`, { user: admin, body: { status: 'resolved' } })).body)
        .toMatchObject({ code: 'invalid_transition', message: 'A pending report can only become verified or rejected' });
      expect((await h.call('PATCH', `/incidents/${created.id}/status`, { user: admin, body: { status: 'pending' } })).status).toBe(400);
      expect((await h.call('PATCH', `/incidents/${created.id}/status`, { user: admin, body: { status: 'rejected' } })).body.status).toBe('rejected');
      // a rejected report stays hidden from others
      expect((await h.call('GET', `/incidents/${created.id}`, { user: alice })).status).toBe(404);
      expect((await h.call('PATCH', `/incidents/00000000-0000-4000-8000-000000000000/status`, { user: admin, body: { status: 'verified' } })).status).toBe(404);
    });

    it('two admins acting at once: exactly one wins', async () => {
      const created = (await h.call('POST', '/incidents', { user: bob, body: report(north(PHOENIX, 42_000)) })).body;
      const admin2 = await h.user('admin');
      const results = await Promise.all([
        h.call('PATCH', `/incidents/${created.id}/status`, { user: admin, body: { status: 'verified' } }),
        h.call('PATCH', `/incidents/${created.id}/status`, { user: admin2, body: { status: 'verified' } }),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    });
  });

  describe('auto-approval', () => {
    it('verifies new reports of a reporter with enough verified reports and no recent rejection', async () => {
      const carol = await h.user();
      const far = (n: number) => north(PHOENIX, 100_000 + n * 1000);
      for (let n = 0; n < 3; n++) {
        const { body } = await h.call('POST', '/incidents', { user: carol, body: report({ ...far(n), type: 'accident' }) });
        expect(body.status).toBe('pending');
        await h.call('PATCH', `/incidents/${body.id}/status`, { user: admin, body: { status: 'verified' } });
      }
      const fourth = await h.call('POST', '/incidents', { user: carol, body: report({ ...far(4), type: 'accident' }) });
      expect(fourth.body).toMatchObject({ status: 'verified', autoApproved: true });

      // one rejection and the reporter is back to moderation
      await h.call('PATCH', `/incidents/${fourth.body.id}/status`, { user: admin, body: { status: 'rejected' } });
      const fifth = await h.call('POST', '/incidents', { user: carol, body: report({ ...far(5), type: 'accident' }) });
      expect(fifth.body).toMatchObject({ status: 'pending', autoApproved: false });
    });
  });

  describe('geo queries', () => {
    const centre = { lat: 40.0, lng: -100.0 };
    let dave: TestUser;
    beforeAll(async () => {
      dave = await h.user();
      // verified reports at 100 m, 900 m, 1100 m and 3 km north of the centre
      for (const metres of [900, 100, 1100, 3000]) {
        const { body } = await h.call('POST', '/incidents', { user: dave, body: report({ ...north(centre, metres), type: 'traffic-hazard', description: `Debris ${metres} m north` }) });
        await h.call('PATCH', `/incidents/${body.id}/status`, { user: admin, body: { status: 'verified' } });
      }
    });

    it('nearby defaults to 1 km, ordered by distance', async () => {
      const res = await h.call('GET', `/incidents/nearby?lat=${centre.lat}&lng=${centre.lng}`, { user: alice });
      expect(res.status).toBe(200);
      expect(res.body.items.map((i: { description: string }) => i.description)).toEqual(['Debris 100 m north', 'Debris 900 m north']);
      expect(res.body.items[0].distanceM).toBeGreaterThanOrEqual(95);
      expect(res.body.items[0].distanceM).toBeLessThanOrEqual(105);
      const wider = await h.call('GET', `/incidents/nearby?lat=${centre.lat}&lng=${centre.lng}&radiusKm=5&limit=3`, { user: alice });
      expect(wider.body.items).toHaveLength(3);
    });

    it('the radius query uses the GiST index', async () => {
      // a handful of rows would be seq-scanned anyway: forbid that to see whether the index CAN answer
      const client = new Client({ connectionString: h.db.url });
      await client.connect();
      try {
        await client.query('SET enable_seqscan = off');
        const plan = await client.query(`EXPLAIN SELECT id FROM incidents.incidents i WHERE ${withinRadius('i', '$1', '$2', '$3')}`, [40, -100, 1000]);
        expect(JSON.stringify(plan.rows)).toContain('incidents_geo_idx');
      } finally {
        await client.end();
      }
    });

    it('possible duplicates: same type, open, within 50 m and 30 minutes', async () => {
      const spot = { lat: 41.0, lng: -101.0 };
      const erin = await h.user();
      const open = (await h.call('POST', '/incidents', { user: erin, body: report({ ...spot, type: 'accident', description: 'Two cars blocking the left lane' }) })).body;
      // noise: other type, too far, too old, rejected
      await h.call('POST', '/incidents', { user: erin, body: report({ ...spot, type: 'crime' }) });
      await h.call('POST', '/incidents', { user: erin, body: report({ ...north(spot, 80), type: 'accident' }) });
      const old = (await h.call('POST', '/incidents', { user: erin, body: report({ ...north(spot, 10), type: 'accident' }) })).body;
      await h.db.query(`UPDATE incidents.incidents SET created_at = now() - interval '31 minutes' WHERE id = $1`, [old.id]);
      const refused = (await h.call('POST', '/incidents', { user: erin, body: report({ ...north(spot, 5), type: 'accident' }) })).body;
      await h.call('PATCH', `/incidents/${refused.id}/status`, { user: admin, body: { status: 'rejected' } });

      const probe = north(spot, 30);
      const res = await h.call('GET', `/incidents/possible-duplicates?type=accident&lat=${probe.lat}&lng=${probe.lng}`, { user: alice });
      expect(res.status).toBe(200);
      expect(res.body.items).toHaveLength(1);
      // another user's pending report: offered, but without its text
      expect(res.body.items[0]).toMatchObject({ id: open.id, status: 'pending', description: null, locationName: null });
      expect(res.body.items[0].distanceM).toBeGreaterThanOrEqual(28);
      expect(res.body.items[0].distanceM).toBeLessThanOrEqual(32);
      const own = await h.call('GET', `/incidents/possible-duplicates?type=accident&lat=${probe.lat}&lng=${probe.lng}`, { user: erin });
      expect(own.body.items[0].description).toBe('Two cars blocking the left lane');
      expect((await h.call('GET', `/incidents/possible-duplicates?lat=1&lng=2`, { user: alice })).body.message).toBe(INCIDENT_MESSAGES.typeRequired);
    });
  });

  describe('mine and the public map', () => {
    it('pages the caller\'s own reports with a total', async () => {
      const frank = await h.user();
      for (let n = 0; n < 3; n++) await h.call('POST', '/incidents', { user: frank, body: report(north(PHOENIX, 200_000 + n * 100)) });
      const first = await h.call('GET', '/incidents/mine?limit=2', { user: frank });
      expect(first.body.total).toBe(3);
      expect(first.body.items).toHaveLength(2);
      const past = await h.call('GET', '/incidents/mine?limit=2&offset=10', { user: frank });
      expect(past.body).toEqual({ items: [], total: 3 });
    });

    it('the map endpoint needs no token, shows verified reports of the window only', async () => {
      const gina = await h.user();
      const { body } = await h.call('POST', '/incidents', { user: gina, body: report(north(PHOENIX, 300_000)) });
      await h.call('PATCH', `/incidents/${body.id}/status`, { user: admin, body: { status: 'verified' } });
      await h.db.query(`UPDATE incidents.incidents SET created_at = now() - interval '3 hours' WHERE id = $1`, [body.id]);
      const ids = async (hours: number) => (await h.call('GET', `/incidents/verified?hours=${hours}`)).body.items.map((i: { id: string }) => i.id);
      expect(await ids(2)).not.toContain(body.id);
      expect(await ids(4)).toContain(body.id);
      expect((await h.call('GET', '/incidents/verified?hours=0')).status).toBe(400);
    });
  });
});

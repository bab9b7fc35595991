import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { Client } from 'pg';
import { Queue } from 'bullmq';
import Redis from 'ioredis';
import { Server } from 'socket.io';
import { createAdapter } from '@socket.io/redis-adapter';
import { io as connect, Socket } from 'socket.io-client';
import { INCIDENT_MESSAGES, JobName, queuePrefix, QueueName, Rooms, socketIoKey, URGENT_INCIDENT_TYPES } from '@beacon/contracts';
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

  let redis: Redis;

  beforeAll(async () => {
    h = await startHarness();
    [alice, bob, admin] = await Promise.all([h.user(), h.user(), h.user('admin')]);
    redis = new Redis(process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
  });
  afterAll(async () => {
    redis.disconnect();
    await h.close();
  });

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

    it("refuses a photo path that is not the reporter's own upload", async () => {
      const res = await h.call('POST', '/incidents', { user: alice, body: report({ photoPath: `incident-photos/${bob.id}/1763800000000.jpg` }) });
      expect(res).toMatchObject({ status: 400, body: { code: 'upload_not_found' } });
      const traversal = await h.call('POST', '/incidents', { user: alice, body: report({ photoPath: `../../etc/passwd` }) });
      expect(traversal).toMatchObject({ status: 400, body: { code: 'upload_not_found' } });
    });
  });

  describe('creation and events', () => {
    it('stores a pending report for the caller and queues incident.created', async () => {
      // this service's own worker consumes the inbox and removes finished jobs: hold the queue to look at the job
      const inbox = new Queue(QueueName.IncidentsInbox, { connection: redis, prefix: queuePrefix(h.redisPrefix) });
      await inbox.pause();
      try {
        const at = north(PHOENIX, 20_000);
        const res = await h.call('POST', '/incidents', { user: alice, body: report(at) });
        expect(res.status).toBe(201);
        expect(res.body).toMatchObject({ status: 'pending', reportedBy: alice.id, mine: true, type: 'wrong-way-driver', photoUrl: null });
        const job = await eventually(async () => {
          const data = await redis.hgetall(`${h.redisPrefix}:bull:${QueueName.IncidentsInbox}:incident.created_${res.body.id}`);
          return data.data ? data : undefined;
        }, 'incident.created in incidents-inbox');
        expect(job.name).toBe(JobName.IncidentCreated);
        expect(JSON.parse(job.data)).toEqual({
          incidentId: res.body.id,
          type: 'wrong-way-driver',
          reportedBy: alice.id,
          lat: at.lat,
          lng: at.lng,
          locationName: 'I-17 near Thomas Rd',
          description: 'White pickup driving north in the southbound lanes',
          occurredAt: res.body.createdAt,
          // the request that queued it, for its log lines and trace (stripped before the handler runs)
          _context: { requestId: expect.any(String) },
        });
        // a pending report is nothing for the alerts service yet
        expect(await redis.exists(`${h.redisPrefix}:bull:${QueueName.AlertsInbox}:incident.verified_${res.body.id}`)).toBe(0);
        const [{ n }] = await h.db.query(`SELECT count(*)::int AS n FROM incidents.outbox`);
        expect(n).toBe(0);
      } finally {
        await inbox.resume();
        await inbox.close();
      }
    });
  });

  describe('visibility of pending reports (IDOR)', () => {
    let pendingId: string;
    beforeAll(async () => {
      pendingId = (
        await h.call('POST', '/incidents', {
          user: alice,
          body: report({ type: 'crime', description: 'Someone trying car door handles', ...north(PHOENIX, 30_000) }),
        })
      ).body.id;
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
    it('an admin sees the queue urgent first then oldest, verifies and the report becomes public with incident.verified queued', async () => {
      const at = north(PHOENIX, 40_000);
      const created = (await h.call('POST', '/incidents', { user: bob, body: report(at) })).body;
      const queue = await h.call('GET', '/incidents/moderation-queue?limit=100', { user: admin });
      expect(queue.status).toBe(200);
      // (moderation-queue.integration-spec.ts checks the exact order on a queue of its own)
      const rank = (type: string) => {
        const k = (URGENT_INCIDENT_TYPES as readonly string[]).indexOf(type);
        return k < 0 ? URGENT_INCIDENT_TYPES.length : k;
      };
      const keys = queue.body.items.map((i: { type: string; createdAt: string }) => `${rank(i.type)} ${i.createdAt}`);
      expect([...keys].sort()).toEqual(keys);
      expect(queue.body.items.find((i: { id: string }) => i.id === created.id).reporter).toMatchObject({ id: bob.id, email: bob.email });
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
      const job = await eventually(async () => {
        const data = await redis.hget(`${h.redisPrefix}:bull:alerts-inbox:incident.verified_${created.id}`, 'data');
        return data ? JSON.parse(data) : undefined;
      }, 'incident.verified in alerts-inbox');
      expect(job).toMatchObject({ incidentId: created.id, type: 'wrong-way-driver', verifiedBy: admin.id, autoApproved: false, lat: at.lat, lng: at.lng });
    });

    it('refuses transitions that are not allowed and unknown statuses', async () => {
      const created = (await h.call('POST', '/incidents', { user: bob, body: report(north(PHOENIX, 41_000)) })).body;
      expect((await h.call('PATCH', `/incidents/${created.id}/status`, { user: admin, body: { status: 'resolved' } })).body).toMatchObject({
        code: 'invalid_transition',
        message: 'A pending report can only become verified or rejected',
      });
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
      expect(fourth.body).toMatchObject({ status: 'verified', autoApproved: true, moderatedAt: null });
      // no admin verified it: the event names no verifier (the reporter would become the alert draft's author)
      const verified = await eventually(async () => {
        const data = await redis.hget(`${h.redisPrefix}:bull:${QueueName.AlertsInbox}:incident.verified_${fourth.body.id}`, 'data');
        return data ? JSON.parse(data) : undefined;
      }, 'incident.verified in alerts-inbox');
      expect(verified).toMatchObject({ incidentId: fourth.body.id, reportedBy: carol.id, verifiedBy: null, autoApproved: true });
      const [row] = await h.db.query(`SELECT auto_approved, moderated_by FROM incidents.incidents WHERE id = $1`, [fourth.body.id]);
      expect(row).toEqual({ auto_approved: true, moderated_by: null });

      // one rejection and the reporter is back to moderation
      await h.call('PATCH', `/incidents/${fourth.body.id}/status`, { user: admin, body: { status: 'rejected' } });
      const fifth = await h.call('POST', '/incidents', { user: carol, body: report({ ...far(5), type: 'accident' }) });
      expect(fifth.body).toMatchObject({ status: 'pending', autoApproved: false });
    });
  });

  describe('moderation notices through the gateway adapter', () => {
    it('admins hear of each new report with the status it really has', async () => {
      // the gateway's side: a Socket.IO server with the Redis adapter on the shared key, this socket in the admins room
      const pub = new Redis(process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379');
      const sub = pub.duplicate();
      const http = createServer();
      const server = new Server(http, { adapter: createAdapter(pub, sub, { key: socketIoKey(h.redisPrefix) }) });
      server.on('connection', (s) => s.join(Rooms.admins));
      await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
      const client: Socket = connect(`http://127.0.0.1:${(http.address() as AddressInfo).port}`, { transports: ['websocket'] });
      try {
        const notices: { id: string; type: string; status: string }[] = [];
        client.on('incident:reported', (n: { id: string; type: string; status: string }) => notices.push(n));
        await eventually(async () => (client.connected ? true : undefined), 'the socket to connect');
        const heard = (id: string) => eventually(async () => notices.find((n) => n.id === id), `incident:reported for ${id}`);

        const ivan = await h.user();
        // the adapter subscribes asynchronously: keep reporting until a notice arrives
        const pending = await eventually(async () => {
          const { body } = await h.call('POST', '/incidents', { user: ivan, body: report({ ...north(PHOENIX, 500_000), type: 'crime' }) });
          await new Promise((r) => setTimeout(r, 100));
          return notices.find((n) => n.id === body.id);
        }, 'a first incident:reported');
        expect(pending).toMatchObject({ type: 'crime', status: 'pending' });

        const hana = await h.user();
        for (let n = 0; n < 3; n++) {
          const { body } = await h.call('POST', '/incidents', { user: hana, body: report({ ...north(PHOENIX, 510_000 + n * 1000), type: 'accident' }) });
          await h.call('PATCH', `/incidents/${body.id}/status`, { user: admin, body: { status: 'verified' } });
        }
        const auto = (await h.call('POST', '/incidents', { user: hana, body: report({ ...north(PHOENIX, 520_000), type: 'accident' }) })).body;
        expect(auto).toMatchObject({ status: 'verified', autoApproved: true });
        expect(await heard(auto.id)).toMatchObject({ type: 'accident', status: 'verified' });
      } finally {
        client.close();
        await new Promise<void>((r) => server.close(() => r()));
        pub.disconnect();
        sub.disconnect();
      }
    });
  });

  describe('geo queries', () => {
    const centre = { lat: 40.0, lng: -100.0 };
    let dave: TestUser;
    beforeAll(async () => {
      dave = await h.user();
      // verified reports at 100 m, 900 m, 1100 m and 3 km north of the centre
      for (const metres of [900, 100, 1100, 3000]) {
        const { body } = await h.call('POST', '/incidents', {
          user: dave,
          body: report({ ...north(centre, metres), type: 'traffic-hazard', description: `Debris ${metres} m north` }),
        });
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
      const open = (
        await h.call('POST', '/incidents', { user: erin, body: report({ ...spot, type: 'accident', description: 'Two cars blocking the left lane' }) })
      ).body;
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
    it("pages the caller's own reports with a total", async () => {
      const frank = await h.user();
      for (let n = 0; n < 3; n++) await h.call('POST', '/incidents', { user: frank, body: report(north(PHOENIX, 200_000 + n * 100)) });
      const first = await h.call('GET', '/incidents/mine?limit=2', { user: frank });
      expect(first.body.total).toBe(3);
      expect(first.body.items).toHaveLength(2);
      const past = await h.call('GET', '/incidents/mine?limit=2&offset=10', { user: frank });
      expect(past.body).toEqual({ items: [], total: 3 });
    });

    it('the map endpoint needs no token, shows reports verified within the window, however old the report', async () => {
      const gina = await h.user();
      const make = async (metres: number) =>
        (await h.call('POST', '/incidents', { user: gina, body: report(north(PHOENIX, 300_000 + metres)) })).body.id as string;
      const backdate = (id: string, column: 'created_at' | 'moderated_at', hours: number) =>
        h.db.query(`UPDATE incidents.incidents SET ${column} = now() - make_interval(hours => $2) WHERE id = $1`, [id, hours]);

      // reported 30 h ago, verified just now: on the map
      const lateVerified = await make(0);
      await backdate(lateVerified, 'created_at', 30);
      await h.call('PATCH', `/incidents/${lateVerified}/status`, { user: admin, body: { status: 'verified' } });
      // reported and verified 25 h ago: off the map
      const stale = await make(100);
      await h.call('PATCH', `/incidents/${stale}/status`, { user: admin, body: { status: 'verified' } });
      await backdate(stale, 'created_at', 26);
      await backdate(stale, 'moderated_at', 25);
      // reported 2 h ago, verified 1 h ago
      const recent = await make(200);
      await h.call('PATCH', `/incidents/${recent}/status`, { user: admin, body: { status: 'verified' } });
      await backdate(recent, 'created_at', 2);
      await backdate(recent, 'moderated_at', 1);
      // reported 30 h ago and still pending: never on the map
      const pending = await make(300);
      await backdate(pending, 'created_at', 30);

      const ids = async (hours: number) => (await h.call('GET', `/incidents/verified?hours=${hours}`)).body.items.map((i: { id: string }) => i.id);
      const day = await ids(24);
      expect(day).toEqual(expect.arrayContaining([lateVerified, recent]));
      expect(day).not.toContain(stale);
      expect(day).not.toContain(pending);
      // newest verification first, not newest report
      expect(day.indexOf(lateVerified)).toBeLessThan(day.indexOf(recent));
      const lastHalfHour = await ids(1);
      expect(lastHalfHour).toContain(lateVerified);
      expect(lastHalfHour).not.toContain(recent);
      expect(await ids(26)).toContain(stale);
      expect((await h.call('GET', '/incidents/verified?hours=0')).status).toBe(400);
    });

    it('an auto-approved report is on the map from the moment it is made (it has no moderation time)', async () => {
      const [row] = await h.db.query(
        `INSERT INTO incidents.incidents (type, description, lat, lng, reported_by, status, auto_approved, created_at)
         VALUES ('accident', 'Auto-approved report from yesterday', 33.9, -112.1, $1, 'verified', true, now() - interval '23 hours') RETURNING id`,
        [alice.id],
      );
      const ids = async (hours: number) => (await h.call('GET', `/incidents/verified?hours=${hours}`)).body.items.map((i: { id: string }) => i.id);
      expect(await ids(24)).toContain(row.id);
      expect(await ids(22)).not.toContain(row.id);
    });

    it('the verification-time window uses its index', async () => {
      const client = new Client({ connectionString: h.db.url });
      await client.connect();
      try {
        await client.query('SET enable_seqscan = off');
        const plan = await client.query(
          `EXPLAIN SELECT i.id FROM incidents.incidents i
           WHERE i.status = 'verified' AND coalesce(i.moderated_at, i.created_at) >= now() - make_interval(hours => 24)
           ORDER BY coalesce(i.moderated_at, i.created_at) DESC LIMIT 500`,
        );
        expect(JSON.stringify(plan.rows)).toContain('incidents_verified_at_idx');
      } finally {
        await client.end();
      }
    });
  });
});

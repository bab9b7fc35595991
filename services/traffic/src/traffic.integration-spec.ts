import 'reflect-metadata';
import { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { JobQueue } from '@beacon/common';
import { JobName, QueueName, queuePrefix } from '@beacon/contracts';
import { createTestDatabase, RunningService, startTestIdentity, startTestService, testRedisPrefix, TestDatabase, TestIdentity } from '@beacon/testing';
import { TrafficEnv } from './config/env.dto';
import { trafficDatabase } from './database';
import camerasV1 from './ingest/fixtures/cameras-v1.json';
import eventsV1 from './ingest/fixtures/events-v1.json';
import { startTest511Server, Test511Server } from './ingest/fixtures/test-511-server';
import { seedTraffic } from './seed/traffic.seed';
import { trafficService } from './service';

const SCHEDULER_ID = 'traffic-ingest-schedule';

async function poll<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 20_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('traffic service', () => {
  let db: TestDatabase;
  let identity: TestIdentity;
  const ns = testRedisPrefix();
  const baseVars = () => ({ DATABASE_URL: db.url, REDIS_URL: ns.url, JWKS_URL: identity.jwksUrl });

  beforeAll(async () => {
    db = await createTestDatabase([trafficDatabase]);
    identity = await startTestIdentity();
  });

  afterAll(async () => {
    await identity.close();
    await db.drop();
    await ns.cleanup();
  });

  describe('with the seed and no source', () => {
    let svc: RunningService<TrafficEnv>;

    beforeAll(async () => {
      const ds = new DataSource({ type: 'postgres', url: db.url });
      await ds.initialize();
      await seedTraffic(ds, () => undefined);
      await seedTraffic(ds, () => undefined); // idempotent
      await ds.destroy();
      // The scheduler a former deployment with a source left behind.
      const queue = new Queue(QueueName.TrafficIngest, { connection: { url: ns.url } as never, prefix: queuePrefix(`${ns.prefix}-seed`) });
      await queue.upsertJobScheduler(SCHEDULER_ID, { every: 300_000 }, { name: JobName.TrafficIngest, data: { reason: 'schedule' } });
      await queue.close();
      svc = await startTestService(trafficService, { ...baseVars(), REDIS_PREFIX: `${ns.prefix}-seed` });
    });

    afterAll(() => svc.close());

    it('removes the ingest scheduler when ingest is off', async () => {
      expect(await svc.app.get(JobQueue).queue(QueueName.TrafficIngest).getJobSchedulers()).toEqual([]);
    });

    it('serves every seeded camera to anyone, ordered by roadway', async () => {
      const res = await fetch(`${svc.url}/cameras`);
      expect(res.status).toBe(200);
      const { items } = (await res.json()) as { items: { roadway: string }[] };
      expect(items.length).toBeGreaterThanOrEqual(100);
      const roadways = items.map((c: { roadway: string }) => c.roadway);
      expect(roadways).toEqual([...roadways].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
      expect(new Set(roadways)).toEqual(new Set(['I-10', 'I-17', 'Loop 101', 'Loop 202', 'Loop 303', 'SR 143', 'SR 51', 'US 60']));
      expect(Object.keys(items[0]).sort()).toEqual(['cameraId', 'description', 'direction', 'imageUrl', 'lastUpdated', 'lat', 'lng', 'roadway']);
      const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM traffic.cameras`);
      expect(n).toBe(items.length); // the second seed run added nothing
    });

    it('serves only cameras with coordinates for the map', async () => {
      const all = ((await (await fetch(`${svc.url}/cameras`)).json()) as { items: unknown[] }).items;
      const located = ((await (await fetch(`${svc.url}/cameras/located`)).json()) as { items: { lat: number; lng: number }[] }).items;
      expect(located.length).toBe(all.length - 1);
      expect(located.every((c: { lat: number; lng: number }) => typeof c.lat === 'number' && typeof c.lng === 'number')).toBe(true);
    });

    it('serves active traffic events with coordinates: no end date or one still ahead', async () => {
      const { items } = (await (await fetch(`${svc.url}/events/active`)).json()) as { items: any[] };
      expect(items.length).toBeGreaterThanOrEqual(24);
      const now = Date.now();
      for (const e of items) {
        expect(e.endDate === null || Date.parse(e.endDate) > now).toBe(true);
        expect(typeof e.lat).toBe('number');
      }
      const [{ total }] = await db.query(`SELECT count(*)::int AS total FROM traffic.traffic_events`);
      expect(items.length).toBeLessThan(total); // ended and unplaced events are held back
      expect(new Set(items.map((e: { category: string }) => e.category))).toEqual(new Set(['incident', 'closure', 'roadwork', 'special_event', 'weather']));
    });

    it('draws a seeded camera snapshot as a safe SVG, and 404s for unknown or broken ones', async () => {
      const { items } = (await (await fetch(`${svc.url}/cameras`)).json()) as { items: any[] };
      const drawn = items.find(
        (c: { imageUrl: string | null }) => c.imageUrl && /camera-images\/[^/]+\.svg$/.test(c.imageUrl) && !c.imageUrl.includes('no-image'),
      );
      const res = await fetch(`${svc.origin}${drawn.imageUrl}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
      expect(await res.text()).toContain(drawn.roadway);

      const broken = items.find((c: { imageUrl: string | null }) => c.imageUrl?.includes('/camera-images/missing/'));
      expect((await fetch(`${svc.origin}${broken.imageUrl}`)).status).toBe(404);
      const unknown = await fetch(`${svc.url}/camera-images/NOPE-1.svg`);
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toMatchObject({ code: 'camera_image_not_found' });
      expect((await fetch(`${svc.url}/camera-images/..%2Fetc%2Fpasswd`)).status).toBe(404);
    });

    it('keeps the ingest controls for admins, and says when ingest is off', async () => {
      expect((await fetch(`${svc.url}/ingest/runs`)).status).toBe(401);
      const user = await identity.token({ role: 'user' });
      expect((await fetch(`${svc.url}/ingest/runs`, { headers: { authorization: `Bearer ${user}` } })).status).toBe(403);
      const admin = await identity.token({ role: 'admin' });
      const runs = await fetch(`${svc.url}/ingest/runs`, { headers: { authorization: `Bearer ${admin}` } });
      expect(runs.status).toBe(200);
      expect(await runs.json()).toEqual({ items: [] });
      const pull = await fetch(`${svc.url}/ingest/runs`, { method: 'POST', headers: { authorization: `Bearer ${admin}` } });
      expect(pull.status).toBe(409);
      expect(await pull.json()).toMatchObject({ code: 'ingest_disabled' });
    });
  });

  describe('with a 511 source configured', () => {
    let source: Test511Server;
    let svc: RunningService<TrafficEnv>;

    beforeAll(async () => {
      source = await startTest511Server();
      source.set('cameras', { body: camerasV1 });
      source.set('events', { body: eventsV1 });
      svc = await startTestService(trafficService, {
        ...baseVars(),
        REDIS_PREFIX: `${ns.prefix}-live`,
        TRAFFIC_SOURCE_URL: source.url,
        TRAFFIC_SOURCE_ALLOW_HOSTS: source.host,
        TRAFFIC_SOURCE_NAME: 'test511',
      });
    });

    afterAll(async () => {
      await svc.close();
      await source.close();
    });

    it('pulls on the BullMQ schedule as soon as it starts, and the cameras appear on the public API', async () => {
      const items = await poll(
        async () => ((await (await fetch(`${svc.url}/cameras`)).json()) as { items: { roadway: string; imageUrl: string }[] }).items,
        (list) => list.some((c) => c.imageUrl?.startsWith('https://images.example.test/')),
        'the scheduled ingest',
      );
      expect(items.filter((c) => c.imageUrl?.startsWith('https://images.example.test/'))).toHaveLength(3);
      const admin = await identity.token({ role: 'admin' });
      const runs = await poll(
        async () => ((await (await fetch(`${svc.url}/ingest/runs`, { headers: { authorization: `Bearer ${admin}` } })).json()) as { items: any[] }).items,
        (list: unknown[]) => list.length > 0,
        'the run record',
      );
      expect(runs[0]).toMatchObject({ source: 'test511', reason: 'schedule', status: 'ok' });
    });

    it('puts its ingest scheduler back when Redis has lost it, as soon as its connection is ready again', async () => {
      const queue = svc.app.get(JobQueue).queue(QueueName.TrafficIngest);
      expect((await queue.getJobSchedulers()).map((x) => x.key)).toEqual([SCHEDULER_ID]);
      // What a Redis that restarted empty leaves: no scheduler, and a connection that comes back.
      await queue.removeJobScheduler(SCHEDULER_ID);
      (await queue.backend.connection.client).disconnect(true);
      const schedulers = await poll(
        async () => queue.getJobSchedulers(),
        (list) => list.length > 0,
        'the scheduler re-created',
      );
      expect(schedulers.map((x) => [x.key, Number(x.every)])).toEqual([[SCHEDULER_ID, 300_000]]);
    });

    it('queues a manual pull for an admin', async () => {
      const admin = await identity.token({ role: 'admin' });
      const before = source.requests.length;
      const res = await fetch(`${svc.url}/ingest/runs`, { method: 'POST', headers: { authorization: `Bearer ${admin}` } });
      expect(res.status).toBe(202);
      await poll(
        async () => source.requests.length,
        (n) => n >= before + 2,
        'the manual pull',
      );
    });
  });
});

import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { createRedis, dataSourceOptions, loadEnv } from '@beacon/common';
import { createTestDatabase, testRedisPrefix, TestDatabase } from '@beacon/testing';
import { TrafficEnv } from '../config/env.dto';
import { trafficDatabase } from '../database';
import camerasV1 from './fixtures/cameras-v1.json';
import camerasV2 from './fixtures/cameras-v2.json';
import eventsV1 from './fixtures/events-v1.json';
import eventsV2 from './fixtures/events-v2.json';
import { startTest511Server, Test511Server } from './fixtures/test-511-server';
import { IngestRunsRepository } from './ingest-runs.repository';
import { IngestService } from './ingest.service';
import { SourceSyncRepository } from './source-sync.repository';
import { TrafficSourceClient } from './traffic-source.client';
import type Redis from 'ioredis';

/**
 * The ingest against a real local HTTP server speaking the 511 format, the real PostgreSQL and the real Redis
 * (rate limiter and 429 block). Each test builds its own ingest so limits do not leak between tests.
 */
describe('traffic ingest from a 511 source', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let source: Test511Server;
  const ns = testRedisPrefix();
  const redisClients: Redis[] = [];

  beforeAll(async () => {
    Logger.overrideLogger(false);
    db = await createTestDatabase([trafficDatabase]);
    ds = new DataSource(dataSourceOptions(db.url, trafficDatabase));
    await ds.initialize();
    source = await startTest511Server();
  });

  afterAll(async () => {
    await source.close();
    await ds.destroy();
    await db.drop();
    redisClients.forEach((r) => r.disconnect());
    await ns.cleanup();
  });

  beforeEach(async () => {
    await db.query(`TRUNCATE traffic.cameras, traffic.traffic_events, traffic.ingest_runs`);
    source.requests.length = 0;
  });

  let run = 0;
  function makeIngest(vars: Record<string, string> = {}) {
    run++;
    const env = loadEnv(TrafficEnv, {
      REDIS_PREFIX: `${ns.prefix}-${run}`,
      TRAFFIC_SOURCE_URL: source.url,
      TRAFFIC_SOURCE_KEY: 'test-key-123',
      TRAFFIC_SOURCE_ALLOW_HOSTS: source.host,
      TRAFFIC_SOURCE_RATE_LIMIT: '100',
      ...vars,
    });
    const redis = createRedis(ns.url, { keyPrefix: `${env.REDIS_PREFIX}:` });
    redisClients.push(redis);
    return new IngestService(env, new TrafficSourceClient(env, redis), new SourceSyncRepository(ds), new IngestRunsRepository(ds));
  }

  const cameras = () =>
    db.query(
      `SELECT source, source_id, roadway, direction, description, image_url, lat, lng, vanished_at, last_updated, updated_at
       FROM traffic.cameras ORDER BY source_id`,
    );
  const events = () =>
    db.query(`SELECT source_id, type, category, severity, description, end_date, vanished_at FROM traffic.traffic_events ORDER BY source_id`);

  it('inserts cameras and events from a first pull, asking with the key and format', async () => {
    source.set('cameras', { body: camerasV1 });
    source.set('events', { body: eventsV1 });
    const report = await makeIngest().run('manual');

    expect(report.status).toBe('ok');
    expect(report.cameras).toMatchObject({ status: 'ok', received: 4, inserted: 4, updated: 0, vanished: 0 });
    expect(report.events).toMatchObject({ status: 'ok', received: 4, inserted: 4 });
    expect(source.requests).toEqual([
      { path: '/api/v2/get/cameras', key: 'test-key-123', format: 'json' },
      { path: '/api/v2/get/event', key: 'test-key-123', format: 'json' },
    ]);
    const rows = await cameras();
    expect(rows.map((r) => [r.source, r.source_id, r.roadway, r.image_url])).toEqual([
      ['az511', '101', 'I-10', 'https://images.example.test/cams/101.jpg'],
      ['az511', '102', 'I-17', 'https://images.example.test/cams/102.jpg'],
      ['az511', '103', 'Loop 101', 'https://images.example.test/cams/103.jpg'],
      ['az511', '104', 'SR 51', null],
    ]);
    expect(rows[3]).toMatchObject({ lat: null, lng: null, direction: null });
    expect(rows.every((r) => r.last_updated instanceof Date && r.vanished_at === null)).toBe(true);
    expect((await events()).map((e) => [e.source_id, e.category, e.severity])).toEqual([
      ['ERS-9001', 'incident', 'high'],
      ['ERS-9002', 'roadwork', 'low'],
      ['ERS-9003', 'closure', 'high'],
      ['ERS-9004', 'incident', 'medium'],
    ]);
    const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM traffic.ingest_runs WHERE status = 'ok'`);
    expect(n).toBe(1);
  });

  it('updates changed rows, leaves unchanged ones, marks what the source dropped as vanished and brings back what returns', async () => {
    const ingest = makeIngest();
    source.set('cameras', { body: camerasV1 });
    source.set('events', { body: eventsV1 });
    await ingest.run('schedule');
    const before = await cameras();

    source.set('cameras', { body: camerasV2 });
    source.set('events', { body: eventsV2 });
    const second = await ingest.run('schedule');
    expect(second.cameras).toMatchObject({ status: 'ok', received: 3, inserted: 1, updated: 1, unchanged: 1, vanished: 2 });
    expect(second.events).toMatchObject({ status: 'ok', received: 2, inserted: 1, updated: 1, unchanged: 0, vanished: 3 });

    const after = await cameras();
    const byId = Object.fromEntries(after.map((r) => [r.source_id, r]));
    expect(byId['101'].updated_at).toEqual(before[0].updated_at); // unchanged content keeps its updated_at
    expect(byId['101'].last_updated.getTime()).toBeGreaterThanOrEqual(before[0].last_updated.getTime());
    expect(byId['102']).toMatchObject({ description: 'I-17 NB at Camelback Rd - camera offline for maintenance', image_url: null });
    expect(byId['103'].vanished_at).toBeInstanceOf(Date); // kept, not deleted
    expect(byId['104'].vanished_at).toBeInstanceOf(Date);
    expect(byId['105'].vanished_at).toBeNull();
    const ev = Object.fromEntries((await events()).map((e) => [e.source_id, e]));
    expect(ev['ERS-9001']).toMatchObject({ severity: 'medium', description: 'Crash on I-10 eastbound at Broadway Rd. Right lane blocked.', vanished_at: null });
    expect(ev['ERS-9005']).toMatchObject({ category: 'weather', type: 'Blowing Dust' });
    expect(ev['ERS-9002'].vanished_at).toBeInstanceOf(Date);

    source.set('cameras', { body: camerasV1 });
    const third = await ingest.run('schedule');
    expect(third.cameras).toMatchObject({ inserted: 0, vanished: 1 }); // 105 leaves, 103 and 104 return
    const back = Object.fromEntries((await cameras()).map((r) => [r.source_id, r]));
    expect(back['103'].vanished_at).toBeNull();
    expect(back['105'].vanished_at).toBeInstanceOf(Date);
  });

  it.each<[string, Parameters<Test511Server['set']>[1]]>([
    ['drops the connection', 'down'],
    ['answers 500', { status: 500, body: { message: 'Internal Server Error' } }],
    ['answers 503 with an empty list', { status: 503, body: [] }],
    ['answers 200 with HTML', { raw: '<html><body>Maintenance</body></html>' }],
    ['answers 200 with an error object', { body: { error: 'invalid key' } }],
    ['answers 200 with a list of junk', { body: [1, 2, { nope: true }] }],
    ['redirects', { status: 302, headers: { location: 'http://169.254.169.254/latest/meta-data' } }],
  ])('keeps every row when the source %s', async (_what, reply) => {
    const ingest = makeIngest();
    source.set('cameras', { body: camerasV1 });
    source.set('events', { body: eventsV1 });
    await ingest.run('schedule');
    const [camerasBefore, eventsBefore] = [await cameras(), await events()];

    source.set('cameras', reply);
    source.set('events', reply);
    const report = await ingest.run('schedule');

    expect(report.status).toBe('failed');
    expect(report.cameras).toMatchObject({ status: 'failed', error: expect.any(String) });
    expect(await cameras()).toEqual(camerasBefore);
    expect(await events()).toEqual(eventsBefore);
    const [run] = await db.query(`SELECT status, report FROM traffic.ingest_runs ORDER BY started_at DESC LIMIT 1`);
    expect(run.status).toBe('failed');
    expect(JSON.stringify(run.report)).not.toContain('test-key-123'); // the key never reaches the records
  });

  it('updates cameras when only the events call fails, keeping the events', async () => {
    const ingest = makeIngest();
    source.set('cameras', { body: camerasV1 });
    source.set('events', { body: eventsV1 });
    await ingest.run('schedule');

    source.set('cameras', { body: camerasV2 });
    source.set('events', { status: 502, body: [] });
    const report = await ingest.run('schedule');
    expect(report.status).toBe('partial');
    expect((await cameras()).find((c) => c.source_id === '105')).toBeDefined();
    expect((await events()).every((e) => e.vanished_at === null)).toBe(true);
  });

  it('refuses to vanish most of a large list at once (a source glitch, not a real change)', async () => {
    const many = Array.from({ length: 20 }, (_, i) => ({ Id: 1000 + i, Roadway: 'I-10', Location: `Cam ${i}`, Views: [] }));
    const ingest = makeIngest();
    source.set('cameras', { body: many });
    source.set('events', { body: [] });
    await ingest.run('schedule');

    source.set('cameras', { body: [] }); // well-formed, but 100 % gone
    const glitch = await ingest.run('schedule');
    expect(glitch.cameras).toMatchObject({ status: 'ok', vanished: 0, vanishSkipped: true });
    expect((await cameras()).filter((c) => c.vanished_at === null)).toHaveLength(20);

    source.set('cameras', { body: many.slice(0, 17) }); // 3 of 20 really retired
    const real = await ingest.run('schedule');
    expect(real.cameras).toMatchObject({ vanished: 3, vanishSkipped: false });
  });

  it('honours a 429 and its Retry-After: no more calls until then, rows kept', async () => {
    const ingest = makeIngest();
    source.set('cameras', { body: camerasV1 });
    source.set('events', { body: eventsV1 });
    await ingest.run('schedule');
    const before = await cameras();

    source.set('cameras', { status: 429, body: { message: 'Too many requests' }, headers: { 'retry-after': '120' } });
    source.requests.length = 0;
    const limited = await ingest.run('schedule');
    expect(limited.status).toBe('rate_limited');
    expect(limited.cameras).toMatchObject({ status: 'rate_limited' });
    expect(new Date((limited.cameras as { retryAt: string }).retryAt).getTime()).toBeGreaterThan(Date.now() + 100_000);
    expect(limited.events.status).toBe('skipped');
    expect(source.requests).toHaveLength(1); // events were not even asked for

    source.set('cameras', { body: camerasV2 });
    const blocked = await ingest.run('schedule');
    expect(blocked.status).toBe('rate_limited');
    expect(source.requests).toHaveLength(1); // still blocked: the source was not called again
    expect(await cameras()).toEqual(before);
  });

  it('stays under the configured rate limit, shared by every ingest using the same Redis', async () => {
    const vars = { TRAFFIC_SOURCE_RATE_LIMIT: '3', TRAFFIC_SOURCE_RATE_WINDOW_SECONDS: '600', REDIS_PREFIX: `${ns.prefix}-shared` };
    source.set('cameras', { body: camerasV1 });
    source.set('events', { body: eventsV1 });

    const first = await makeIngest(vars).run('schedule'); // 2 calls
    expect(first.status).toBe('ok');
    const second = await makeIngest(vars).run('schedule'); // another replica: 1 call left in the window
    expect(second.cameras.status).toBe('ok');
    expect(second.events).toMatchObject({ status: 'rate_limited', error: expect.stringMatching(/3 calls per 600 s/) });
    const third = await makeIngest(vars).run('schedule');
    expect(third.status).toBe('rate_limited');
    expect(source.requests).toHaveLength(3);
  });

  it('refuses an answer larger than TRAFFIC_SOURCE_MAX_MB without reading it whole, and keeps every row', async () => {
    const ingest = makeIngest({ TRAFFIC_SOURCE_MAX_MB: '1' });
    // 200 kB, within the configured megabyte (and past the 64 kB a provider answer may have by default)
    source.set('cameras', { body: camerasV1.map((c, i) => (i ? c : { ...c, padding: 'x'.repeat(200_000) })) });
    source.set('events', { body: eventsV1 });
    expect((await ingest.run('schedule')).cameras).toMatchObject({ status: 'ok' });
    const before = await cameras();

    source.set('cameras', { raw: JSON.stringify([{ padding: 'x'.repeat(1_500_000) }]) });
    const report = await ingest.run('schedule');

    expect(report.cameras).toMatchObject({ status: 'failed', error: expect.stringMatching(/larger than 1 MB/) });
    expect(await cameras()).toEqual(before);
  });

  it('refuses a source URL on a private address that is not allow-listed, without calling it', async () => {
    const report = await makeIngest({ TRAFFIC_SOURCE_ALLOW_HOSTS: '' }).run('manual');
    expect(report.status).toBe('failed');
    expect(report.cameras).toMatchObject({ status: 'failed', error: expect.stringMatching(/TRAFFIC_SOURCE_URL is refused/) });
    expect(source.requests).toHaveLength(0);
  });
});

import { readFileSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { AdminAlert, AlertVersion, CapOrigin, CapPollResult, CapSource, Page } from '@beacon/contracts';
import { jsonClient, RunningService, startTestService, waitFor } from '@beacon/testing';
import { dispatcherService } from '../dispatcher.service';
import { alertsService } from '../service';
import { DispatchStack } from '../testing/dispatch-stack';
import { CapPollSchedule } from './cap-poll.schedule';
import { validateCap } from '../testing/cap-schema';

jest.setTimeout(120_000);

const FIXTURES = join(__dirname, 'fixtures');
const capTime = (d: Date) => `${d.toISOString().slice(0, 19)}+00:00`;
const SENT = capTime(new Date(Date.now() - 60_000));
const EXPIRES = capTime(new Date(Date.now() + 6 * 3600_000));
const PAST = capTime(new Date(Date.now() - 30_000));
const MAX_KB = 16;

/** A recorded-by-hand CAP document with its times filled in (sent a minute ago, expiring in six hours). */
const fixture = (name: string) =>
  readFileSync(join(FIXTURES, name), 'utf8')
    .replaceAll('{{SENT}}', SENT)
    .replaceAll('{{REF_SENT}}', SENT)
    .replaceAll('{{EXPIRES}}', EXPIRES)
    .replaceAll('{{PAST}}', PAST);

/** A well-formed CAP alert larger than CAP_SOURCE_MAX_KB. */
const oversized = () => fixture('tornado-warning.xml').replace('<description>', `<description>${'Stay indoors. '.repeat((MAX_KB * 1024) / 10)}`);

/**
 * A public authority's feed on 127.0.0.1: an Atom index of links to CAP messages; the test decides what it lists
 * and can make the whole source fail.
 */
class FeedServer {
  entries: string[] = [];
  failing = false;
  readonly hits: string[] = [];
  private server: Server;
  url = '';

  async start() {
    this.server = createServer((req, res) => {
      const path = req.url ?? '/';
      this.hits.push(path);
      if (this.failing) return void res.writeHead(503).end('down for maintenance');
      if (path.split('?')[0] === '/feed.atom') {
        const items = this.entries
          .map(
            (e) =>
              `<entry><id>${e}</id><title>${e}</title><updated>${new Date().toISOString()}</updated><link rel="alternate" type="application/cap+xml" href="/cap/${e}"/></entry>`,
          )
          .join('');
        res.writeHead(200, { 'content-type': 'application/atom+xml' });
        return void res.end(
          `<?xml version="1.0" encoding="UTF-8"?><feed xmlns="http://www.w3.org/2005/Atom"><id>urn:test</id><title>Test authority</title><updated>${new Date().toISOString()}</updated>${items}</feed>`,
        );
      }
      const name = path.replace(/^\/cap\//, '');
      if (name === 'oversized.xml') return void res.writeHead(200, { 'content-type': 'application/cap+xml' }).end(oversized());
      try {
        const body = fixture(name);
        res.writeHead(200, { 'content-type': 'application/cap+xml' }).end(body);
      } catch {
        res.writeHead(404).end();
      }
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close() {
    return new Promise<void>((r) => this.server.close(() => r()));
  }
}

/**
 * Official warnings in (issue 23): a CAP source's documents, recorded by hand for these tests, each lead to the right
 * Beacon alert state and nothing else; the bad ones are refused with their reason while the source keeps working.
 */
describe('CAP sources: official warnings in', () => {
  const stack = new DispatchStack();
  const feed = new FeedServer();
  let alerts: RunningService<unknown>;
  let dispatcher: RunningService<unknown>;
  let admin: string;
  let source: CapSource;
  const call = jsonClient(() => alerts.url);

  beforeAll(async () => {
    await feed.start();
    await stack.start({
      PUBLIC_URL: 'http://localhost:8080',
      SWEEP_INTERVAL_SECONDS: '3600',
      CAP_SOURCE_ALLOW_HOSTS: '127.0.0.1',
      CAP_SOURCE_MAX_KB: String(MAX_KB),
      CAP_POLL_TICK_SECONDS: '0',
    });
    alerts = await startTestService(alertsService, stack.vars);
    dispatcher = await startTestService(dispatcherService, stack.vars);
    admin = await stack.identity.token({ id: randomUUID(), email: 'cap-admin@beacon.local', role: 'admin' });
  });

  afterAll(async () => {
    await stack.close(dispatcher, alerts);
    await feed.close();
  });

  const poll = async () => {
    const res = await call<CapPollResult>('POST', `/admin/cap-sources/${source.id}/poll`, admin);
    expect(res.status).toBe(200);
    return res.body;
  };
  const allAlerts = async () => (await call<Page<AdminAlert>>('GET', '?pageSize=100', admin)).body.items;
  const origin = async (alertId: string) => (await call<CapOrigin>('GET', `/admin/cap-sources/alerts/${alertId}`, admin)).body;
  const health = async () => (await call<CapSource>('GET', `/admin/cap-sources/${source.id}`, admin)).body.health;
  const byTitle = async (title: string) => (await allAlerts()).find((a) => a.title === title);

  it('the recorded documents are valid CAP 1.2 where they should be, and the checker refuses the bad ones', () => {
    for (const good of [
      'tornado-warning.xml',
      'tornado-update.xml',
      'tornado-cancel.xml',
      'flood-two-languages.xml',
      'flood-expired.xml',
      'frost-advisory-multi-area.xml',
      'frost-advisory-multi-area-update.xml',
    ]) {
      expect([good, validateCap(fixture(good))]).toEqual([good, []]);
    }
    expect(() => validateCap(fixture('malformed.xml'))).toThrow(/unexpected close tag/);
  });

  it('an admin adds a source; bad input is a 400 with a code, not a 500', async () => {
    const bad = await call('POST', '/admin/cap-sources', admin, { name: 'x', url: 'ftp://nope', intervalSeconds: 5, mode: 'whenever', channels: [] });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('validation_failed');
    const res = await call<CapSource>('POST', '/admin/cap-sources', admin, {
      name: 'Test NWS office',
      url: `${feed.url}/feed.atom`,
      intervalSeconds: 60,
      categories: ['Met', 'Fire', 'Safety'],
      severities: [],
      mode: 'send_extreme_immediate',
      channels: ['push'],
    });
    expect(res.status).toBe(201);
    source = res.body;
    expect(source.health.state).toBe('never_fetched');
    const user = await stack.identity.token({ id: randomUUID(), email: 'citizen@beacon.local' });
    expect((await call('GET', '/admin/cap-sources', user)).status).toBe(403);
  });

  it('a poll takes the good messages (sent or draft by the rule) and refuses the malformed, oversized and billion-laughs ones with their reason', async () => {
    feed.entries = ['tornado-warning.xml', 'malformed.xml', 'flood-two-languages.xml', 'oversized.xml', 'billion-laughs.xml', 'wildfire-geocode-only.xml'];
    const result = await poll();
    expect(result).toEqual({ fetched: 7, created: 3, updated: 0, cancelled: 0, ignored: 0, refused: 3, leftForNextPoll: 0 });

    const all = await allAlerts();
    expect(all).toHaveLength(3);
    expect(all.every((a) => a.source === 'cap')).toBe(true);

    // Extreme + Immediate: sent at once, its polygon as the authority drew it, named by its <areaDesc>.
    const tornado = all.find((a) => a.title === 'Tornado Warning for east Mesa & Gilbert')!;
    expect(tornado).toMatchObject({ status: 'active', severity: 'critical', category: 'weather', locationName: 'East Mesa; Gilbert' });
    expect(tornado.message).toBe(
      'A confirmed tornado was located near Mesa, moving east at 25 mph.\n\nTake shelter now in a basement or an interior room on the lowest floor.',
    );
    expect(new Date(tornado.expiresAt!).toISOString()).toBe(new Date(EXPIRES).toISOString());
    expect(tornado.area).toEqual({
      type: 'polygon',
      points: [
        [33.3, -111.9],
        [33.5, -111.9],
        [33.5, -111.6],
        [33.3, -111.6],
        [33.3, -111.9],
      ],
      description: 'East Mesa; Gilbert',
    });
    expect(tornado.radiusKm).toBeNull();

    // Severe, not Immediate: a draft for review; the English <info> is its text, the Spanish its Spanish translation.
    const flood = all.find((a) => a.title === 'Flash flooding expected along Salt River crossings')!;
    expect(flood).toMatchObject({ status: 'draft', severity: 'high', category: 'weather', lat: 33.4484, lng: -112.074, radiusKm: 12.5 });
    expect(flood.translations.es?.title).toContain('Se esperan inundaciones en los cruces del río Salt');
    expect(flood.translations.es?.message).toContain('Lluvias intensas río arriba cubrirán los cruces bajos esta noche.');
    const original = await fetch(`${alerts.url}/admin/cap-sources/alerts/${flood.id}/original.xml`, { headers: { authorization: `Bearer ${admin}` } });
    expect(original.status).toBe(200);
    expect(original.headers.get('content-type')).toMatch(/application\/cap\+xml/);
    const xml = await original.text();
    expect(xml).toContain('<language>es-US</language>');
    expect(xml).toContain('Se esperan inundaciones en los cruces del río Salt');
    expect(await origin(flood.id)).toEqual({
      sourceId: source.id,
      sourceName: 'Test NWS office',
      sender: 'alerts@maricopa-em.example.gov',
      identifier: 'MCDEM-2026-flood-17',
      sent: SENT,
      url: `${feed.url}/cap/flood-two-languages.xml`,
    });

    // CAP 1.1, geocode only: a draft without an area, for the admin to draw one.
    const fire = all.find((a) => a.title === 'Wildfire: be ready to leave Tonto Basin')!;
    expect(fire).toMatchObject({ status: 'draft', lat: null, lng: null, radiusKm: null, locationName: 'Tonto Basin', category: 'public_safety' });
    // Sent as it is, it would reach everyone: refused until it has an area.
    const send = await call('POST', `/${fire.id}/send`, admin);
    expect(send.status).toBe(409);
    expect(send.body.code).toBe('cap_area_required');
    // The admin draws its area on the draft (edited in place: still version 1, nobody told), then it can be sent.
    const tonto = [
      [34.05, -111.35],
      [34.05, -111.2],
      [33.95, -111.27],
    ];
    const drawn = await call<AdminAlert>('POST', `/${fire.id}/update`, admin, { area: { type: 'polygon', points: tonto }, revision: fire.revision });
    expect(drawn.status).toBe(200);
    expect(drawn.body).toMatchObject({ status: 'draft', version: 1, area: { type: 'polygon', points: [...tonto, tonto[0]] } });
    expect((await call('POST', `/${fire.id}/send`, admin)).body).toMatchObject({ status: 'active', area: { type: 'polygon' } });

    const h = await health();
    expect(h.state).toBe('ok');
    expect(h.lastError).toBeNull();
    const reasons = h.recentRefusals.map((r) => `${r.url!.replace(feed.url, '')}: ${r.reason}`).sort();
    expect(reasons).toEqual([
      '/cap/billion-laughs.xml: the document has a DOCTYPE (entity declarations and external DTDs are refused)',
      `/cap/malformed.xml: ${reasons.find((r) => r.startsWith('/cap/malformed.xml'))!.slice('/cap/malformed.xml: '.length)}`,
      `/cap/oversized.xml: the document is larger than ${MAX_KB} KB`,
    ]);
    expect(reasons.find((r) => r.startsWith('/cap/malformed.xml'))).toMatch(/not well-formed XML/);
  });

  it('the same messages fetched again create nothing; the taken ones are not even fetched again', async () => {
    const before = feed.hits.length;
    const result = await poll();
    expect(result).toMatchObject({ created: 0, updated: 0, cancelled: 0 });
    expect(await allAlerts()).toHaveLength(3);
    const fetchedAgain = feed.hits.slice(before).sort();
    expect(fetchedAgain).toEqual(['/cap/billion-laughs.xml', '/cap/malformed.xml', '/cap/oversized.xml', '/feed.atom']);
  });

  it('an Update makes a new version of the alert it references (with its new area); a Cancel cancels it', async () => {
    const tornado = (await byTitle('Tornado Warning for east Mesa & Gilbert'))!;
    await waitFor('the warning to be dispatched', async () =>
      (await call<AdminAlert>('GET', `/${tornado.id}`, admin)).body.recipients !== null ? true : null,
    );
    feed.entries = ['tornado-update.xml', ...feed.entries];
    expect(await poll()).toMatchObject({ created: 0, updated: 1, cancelled: 0 });
    const updated = (await call<AdminAlert>('GET', `/${tornado.id}`, admin)).body;
    expect(updated).toMatchObject({ status: 'active', title: 'Tornado Warning extended to Queen Creek', locationName: 'Gilbert; Queen Creek' });
    expect(updated.lat).toBeCloseTo(33.3, 3);
    expect(updated.lng).toBeCloseTo(-111.675, 3);
    const versions = (await call<AlertVersion[]>('GET', `/${tornado.id}/versions`, admin)).body;
    expect(versions.map((v) => v.version)).toEqual([1, 2]);
    expect(await allAlerts()).toHaveLength(3);

    feed.entries = ['tornado-cancel.xml', ...feed.entries];
    expect(await poll()).toMatchObject({ created: 0, updated: 0, cancelled: 1 });
    expect((await call<AdminAlert>('GET', `/${tornado.id}`, admin)).body.status).toBe('cancelled');
    expect(await allAlerts()).toHaveLength(3);
  });

  it('a message whose expiry passed ends the alert it references', async () => {
    const flood = (await byTitle('Flash flooding expected along Salt River crossings'))!;
    feed.entries = ['flood-expired.xml', ...feed.entries];
    expect(await poll()).toMatchObject({ created: 0, cancelled: 1 });
    expect((await call<AdminAlert>('GET', `/${flood.id}`, admin)).body.status).toBe('cancelled');
    expect(await allAlerts()).toHaveLength(3);
  });

  it('a source that fails is backed off and shown failing, and recovers', async () => {
    feed.failing = true;
    const t0 = Date.now();
    expect(await poll()).toMatchObject({ fetched: 0, created: 0 });
    let h = await health();
    expect(h.state).toBe('failing');
    expect(h.lastError).toBe('the source answered 503');
    expect(h.failures).toBe(1);
    // Backed off: twice the 60 s interval.
    expect(new Date(h.nextFetchAt).getTime()).toBeGreaterThanOrEqual(t0 + 110_000);
    feed.failing = false;
    await poll();
    h = await health();
    expect(h).toMatchObject({ state: 'ok', lastError: null, failures: 0 });
  });

  it('a source on a private address is refused by the SSRF guard (only CAP_SOURCE_ALLOW_HOSTS may be), and shown failing', async () => {
    const res = await call<CapSource>('POST', '/admin/cap-sources', admin, {
      name: 'Metadata',
      url: 'http://169.254.169.254/latest/meta-data',
      intervalSeconds: 60,
      mode: 'draft',
      channels: ['push'],
    });
    expect(res.status).toBe(201);
    const polled = await call<CapPollResult>('POST', `/admin/cap-sources/${res.body.id}/poll`, admin);
    expect(polled.body).toMatchObject({ fetched: 0, created: 0 });
    const h = (await call<CapSource>('GET', `/admin/cap-sources/${res.body.id}`, admin)).body.health;
    expect(h.state).toBe('failing');
    expect(h.lastError).toMatch(/^the URL is refused: /);
    expect((await call('DELETE', `/admin/cap-sources/${res.body.id}`, admin)).status).toBe(204);
    expect((await call('GET', `/admin/cap-sources/${res.body.id}`, admin)).status).toBe(404);
    expect(await allAlerts()).toHaveLength(3);
  });

  it('the schedule polls a due source once, however many times it ticks, then not before its interval', async () => {
    feed.entries = [];
    const res = await call<CapSource>('POST', '/admin/cap-sources', admin, {
      name: 'Scheduled',
      url: `${feed.url}/feed.atom?scheduled`,
      intervalSeconds: 3600,
      mode: 'draft',
      channels: ['push'],
    });
    const schedule = alerts.app.get(CapPollSchedule);
    // Every replica's scheduler may tick at once: one job per source and due time.
    // (A tick that reads the source after the first poll already moved its due time on finds it not due: fine.)
    const queued = await Promise.all([schedule.tick(), schedule.tick(), schedule.tick()]);
    expect(queued.flat()).toContain(res.body.id);
    const h = await waitFor('the scheduled poll', async () => {
      const got = (await call<CapSource>('GET', `/admin/cap-sources/${res.body.id}`, admin)).body.health;
      return got.lastSuccessAt ? got : null;
    });
    expect(h.state).toBe('ok');
    expect(new Date(h.nextFetchAt).getTime()).toBeGreaterThan(Date.now() + 3500_000);
    expect(await schedule.tick()).not.toContain(res.body.id);
    expect(feed.hits.filter((p) => p === '/feed.atom?scheduled')).toHaveLength(1);
  });

  it('a warning of several areas keeps them as drawn (issue #42): one part per polygon, each named by its region; an Update replaces them', async () => {
    const res = await call<CapSource>('POST', '/admin/cap-sources', admin, {
      name: 'Environment Canada (test)',
      url: `${feed.url}/feed.atom?ec`,
      intervalSeconds: 60,
      mode: 'draft',
      channels: ['push'],
    });
    expect(res.status).toBe(201);
    source = res.body;
    feed.entries = ['frost-advisory-multi-area.xml'];
    expect(await poll()).toMatchObject({ created: 1, refused: 0 });
    const frost = (await byTitle('frost advisory in effect'))!;
    expect(frost).toMatchObject({
      status: 'draft',
      severity: 'low',
      locationName: 'Annapolis County; Digby County; Kings County; Queens County P.E.I.; Kent County',
      radiusKm: null,
    });
    expect(frost.translations.fr?.title).toContain('avis de gel en vigueur');
    const area = frost.area!;
    if (area.type !== 'multi') throw new Error(`a multi area was expected, got ${JSON.stringify(area)}`);
    expect(area.parts.map((p) => [p.type, p.description, p.type === 'polygon' ? p.points.length : null])).toEqual([
      ['polygon', 'Annapolis County', 6],
      ['polygon', 'Digby County', 6],
      ['polygon', 'Digby County', 5],
      ['polygon', 'Kings County', 6],
      ['polygon', 'Queens County P.E.I.', 6],
      ['polygon', 'Kent County', 6],
    ]);
    // As the authority drew them: the CAP polygon's text, corner for corner.
    expect(area.parts[2]).toEqual({
      type: 'polygon',
      points: [
        [44.4, -66.15],
        [44.36, -66.12],
        [44.2, -66.35],
        [44.24, -66.4],
        [44.4, -66.15],
      ],
      description: 'Digby County',
    });
    // Centred among its parts, for the map.
    expect(frost.lat).toBeGreaterThan(44.2);
    expect(frost.lat).toBeLessThan(46.9);

    // The advisory is updated (ended for Digby and Kings) while still a draft: the draft's parts are replaced.
    feed.entries = ['frost-advisory-multi-area-update.xml', ...feed.entries];
    expect(await poll()).toMatchObject({ created: 0, updated: 1 });
    const updated = (await call<AdminAlert>('GET', `/${frost.id}`, admin)).body;
    expect(updated).toMatchObject({ status: 'draft', version: 1, locationName: 'Annapolis County; Queens County P.E.I.; Kent County' });
    expect(updated.area?.type === 'multi' && updated.area.parts.map((p) => p.description)).toEqual(['Annapolis County', 'Queens County P.E.I.', 'Kent County']);
  });
});

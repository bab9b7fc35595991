import { randomUUID } from 'node:crypto';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { GeocodeResult } from '@beacon/contracts';
import { jsonClient, RunningService, startTestService } from '@beacon/testing';
import { alertsService } from '../service';
import { DispatchStack } from '../testing/dispatch-stack';

jest.setTimeout(60_000);

/**
 * A Nominatim-compatible geocoder on 127.0.0.1, its search (/search) and reverse (/reverse) endpoints: answers what
 * `set` says for each, and records the queries (and paths) and when they came.
 */
function fakeNominatim() {
  const queries: URLSearchParams[] = [];
  const paths: string[] = [];
  const receivedAt: number[] = [];
  const replies: Record<string, { status: number; body: string }> = {
    '/search': { status: 200, body: '[]' },
    '/reverse': { status: 200, body: JSON.stringify({ error: 'Unable to geocode' }) },
  };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url!, 'http://x');
    queries.push(url.searchParams);
    paths.push(url.pathname);
    receivedAt.push(Date.now());
    const reply = replies[url.pathname] ?? { status: 404, body: '{}' };
    res.writeHead(reply.status, { 'content-type': 'application/json' }).end(reply.body);
  });
  return {
    queries,
    paths,
    receivedAt,
    set: (status: number, body: unknown, path: '/search' | '/reverse' = '/search') =>
      (replies[path] = { status, body: typeof body === 'string' ? body : JSON.stringify(body) }),
    listen: () => new Promise<string>((ok) => server.listen(0, '127.0.0.1', () => ok(`http://127.0.0.1:${(server.address() as AddressInfo).port}/search`))),
    close: () => new Promise((ok) => server.close(ok)),
  };
}

describe('GET /api/alerts/geocode: the address search against a Nominatim-compatible endpoint', () => {
  const stack = new DispatchStack();
  const nominatim = fakeNominatim();
  let withGeocoder: RunningService<unknown>;
  let without: RunningService<unknown>;
  let guarded: RunningService<unknown>;
  let admin: string;

  beforeAll(async () => {
    const url = await nominatim.listen();
    await stack.start({ PUBLIC_URL: 'http://localhost:8080' });
    withGeocoder = await startTestService(alertsService, { ...stack.vars, GEOCODER_URL: url, WEBHOOK_ALLOW_HOSTS: '127.0.0.1' });
    without = await startTestService(alertsService, { ...stack.vars, GEOCODER_URL: '' });
    // The same local endpoint without the allow-list: the SSRF guard refuses a loopback address.
    guarded = await startTestService(alertsService, { ...stack.vars, GEOCODER_URL: url, WEBHOOK_ALLOW_HOSTS: '' });
    admin = await stack.identity.token({ id: randomUUID(), email: 'admin@beacon.local', role: 'admin' });
  });

  afterAll(async () => {
    await stack.close(guarded, without, withGeocoder);
    await nominatim.close();
  });

  const call = jsonClient(() => withGeocoder.url);

  it('answers a short list of {label, lat, lng} from the endpoint’s places, asking with q, format=jsonv2 and a limit', async () => {
    nominatim.set(200, [
      { display_name: 'Tempe Town Lake, Tempe, Maricopa County, Arizona', lat: '33.4316', lon: '-111.9367', place_id: 1 },
      { display_name: 'Tempe, Arizona', lat: '33.4255', lon: '-111.94' },
      { display_name: 'no coordinates' },
    ]);
    const res = await call<GeocodeResult[]>('GET', '/geocode?q=Tempe%20Town%20Lake', admin);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      { label: 'Tempe Town Lake, Tempe, Maricopa County, Arizona', lat: 33.4316, lng: -111.9367 },
      { label: 'Tempe, Arizona', lat: 33.4255, lng: -111.94 },
    ]);
    const q = nominatim.queries[nominatim.queries.length - 1];
    expect(q.get('q')).toBe('Tempe Town Lake');
    expect(q.get('format')).toBe('jsonv2');
    expect(Number(q.get('limit'))).toBeLessThanOrEqual(10);
  });

  it('is for admins, and wants a search text', async () => {
    const user = await stack.identity.token({});
    expect((await call('GET', '/geocode?q=Tempe', null)).status).toBe(401);
    expect((await call('GET', '/geocode?q=Tempe', user)).status).toBe(403);
    const empty = await call<{ code: string; message: string }>('GET', '/geocode?q=', admin);
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe('Type an address or place to search for');
  });

  it('answers 502 geocoder_unavailable when the endpoint fails or answers nonsense', async () => {
    for (const [status, body] of [
      [500, { error: 'boom' }],
      [200, 'not json'],
      [200, { not: 'a list' }],
    ] as const) {
      nominatim.set(status, body);
      const res = await call<{ code: string; message: string }>('GET', '/geocode?q=Tempe', admin);
      expect(res.status).toBe(502);
      expect(res.body.code).toBe('geocoder_unavailable');
    }
  });

  it('answers 503 geocoder_not_configured without GEOCODER_URL, with a message the wizard shows', async () => {
    const res = await jsonClient(() => without.url)<{ code: string; message: string }>('GET', '/geocode?q=Tempe', admin);
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ code: 'geocoder_not_configured', message: expect.stringContaining('latitude, longitude') });
  });

  it('goes through the SSRF guard: a loopback endpoint not allow-listed is never asked', async () => {
    const before = nominatim.queries.length;
    const res = await jsonClient(() => guarded.url)<{ code: string }>('GET', '/geocode?q=Tempe', admin);
    expect(res.status).toBe(502);
    expect(res.body.code).toBe('geocoder_unavailable');
    expect(nominatim.queries.length).toBe(before);
  });

  describe('the provider is asked at most GEOCODER_RATE (1/s), and never twice about the same text', () => {
    const TEMPE = [{ display_name: 'Tempe, Arizona', lat: '33.4255', lon: '-111.94' }];
    // an admin of its own: the per-admin limit is admin-rate-limits.integration-spec's
    let other: string;
    beforeAll(async () => {
      other = await stack.identity.token({ id: randomUUID(), email: 'admin2@beacon.local', role: 'admin' });
      nominatim.set(200, TEMPE);
    });

    it('20 quick searches reach it one after another, at least a second apart; past the queue (10) they answer 429 rate_limited', async () => {
      const first = nominatim.receivedAt.length;
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => call<{ code?: string }>('GET', `/geocode?q=${encodeURIComponent(`Mill Avenue ${i}`)}`, other)),
      );

      const received = nominatim.receivedAt.slice(first);
      const gaps = received.slice(1).map((t, i) => t - received[i]);
      expect(gaps.every((gap) => gap >= 900)).toBe(true);
      const found = answers.filter((a) => a.status === 200);
      const refused = answers.filter((a) => a.status !== 200);
      expect(received).toHaveLength(found.length);
      // one at once and the ten queued behind it (fewer when earlier tests' requests still hold this second)
      expect(found.length).toBeGreaterThanOrEqual(10);
      expect(found.length).toBeLessThanOrEqual(11);
      for (const a of refused) {
        expect(a.status).toBe(429);
        expect(a.body.code).toBe('rate_limited');
        expect(Number(a.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      }
    });

    it('a search repeated (whatever its case and spacing, or while the first is on its way) is answered from the cache', async () => {
      const before = nominatim.queries.length;
      const [a, b] = await Promise.all([call('GET', '/geocode?q=Scottsdale%20Road', other), call('GET', '/geocode?q=Scottsdale%20Road', other)]);
      const c = await call('GET', '/geocode?q=%20%20scottsdale%20%20%20ROAD%20', other);
      for (const res of [a, b, c]) expect(res).toMatchObject({ status: 200, body: [{ label: 'Tempe, Arizona', lat: 33.4255, lng: -111.94 }] });
      expect(nominatim.queries.length - before).toBe(1);
      expect(nominatim.queries[before].get('q')).toBe('Scottsdale Road');
    });
  });
});

/**
 * Issue #40, places not coordinates: any signed-in person finds their home by address or place name, and names the
 * point their device reported, through the console's geocoder (the same queue, cache and SSRF guard), each person
 * within ALERTS_RATE_PLACES_USER.
 */
describe('GET /api/alerts/me/places and /me/places/reverse: a person’s home, by name', () => {
  const stack = new DispatchStack();
  const nominatim = fakeNominatim();
  let service: RunningService<unknown>;
  let limited: RunningService<unknown>;
  let without: RunningService<unknown>;
  let guarded: RunningService<unknown>;
  let person: string;

  beforeAll(async () => {
    const url = await nominatim.listen();
    await stack.start({ PUBLIC_URL: 'http://localhost:8080', GEOCODER_RATE: '50/1' });
    service = await startTestService(alertsService, { ...stack.vars, GEOCODER_URL: url, WEBHOOK_ALLOW_HOSTS: '127.0.0.1', ALERTS_RATE_PLACES_USER: '1000/60' });
    limited = await startTestService(alertsService, { ...stack.vars, GEOCODER_URL: url, WEBHOOK_ALLOW_HOSTS: '127.0.0.1', ALERTS_RATE_PLACES_USER: '3/60' });
    without = await startTestService(alertsService, { ...stack.vars, GEOCODER_URL: '' });
    guarded = await startTestService(alertsService, { ...stack.vars, GEOCODER_URL: url, WEBHOOK_ALLOW_HOSTS: '' });
    person = await stack.identity.token({ id: randomUUID(), email: 'person@example.test' });
  });

  afterAll(async () => {
    await stack.close(guarded, without, limited, service);
    await nominatim.close();
  });

  const call = jsonClient(() => service.url);
  const last = () => ({ path: nominatim.paths[nominatim.paths.length - 1], q: nominatim.queries[nominatim.queries.length - 1] });

  it('finds places for a person’s search, as the console’s search does; signed-in people only', async () => {
    nominatim.set(200, [{ display_name: 'Mill Avenue, Tempe, Arizona', lat: '33.4255', lon: '-111.94' }, { display_name: 'no coordinates' }]);
    const res = await call<GeocodeResult[]>('GET', '/me/places?q=Mill%20Avenue%20Tempe', person);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([{ label: 'Mill Avenue, Tempe, Arizona', lat: 33.4255, lng: -111.94 }]);
    expect(last().path).toBe('/search');
    expect(last().q.get('q')).toBe('Mill Avenue Tempe');
    expect((await call('GET', '/me/places?q=Tempe', null)).status).toBe(401);
    const empty = await call<{ code: string; message: string }>('GET', '/me/places?q=%20', person);
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe('Type an address or place to search for');
  });

  it('names the place at a point from the reverse endpoint, the point rounded to a street’s block; null where there is none', async () => {
    nominatim.set(200, { display_name: 'East 5th Street, Tempe, Maricopa County, Arizona', lat: '33.4251', lon: '-111.9398', place_id: 7 }, '/reverse');
    const res = await call<GeocodeResult | null>('GET', '/me/places/reverse?lat=33.425123&lng=-111.939876', person);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ label: 'East 5th Street, Tempe, Maricopa County, Arizona', lat: 33.4251, lng: -111.9398 });
    const { path, q } = last();
    expect(path).toBe('/reverse');
    expect([q.get('lat'), q.get('lon'), q.get('format'), q.get('zoom')]).toEqual(['33.425', '-111.94', 'jsonv2', '16']);

    // a point a few metres away is the same question: answered from the cache
    const before = nominatim.queries.length;
    expect((await call('GET', '/me/places/reverse?lat=33.42501&lng=-111.93999', person)).body).toEqual(res.body);
    expect(nominatim.queries.length).toBe(before);

    // the open sea: Nominatim's 200 {"error"}
    nominatim.set(200, { error: 'Unable to geocode' }, '/reverse');
    const sea = await call('GET', '/me/places/reverse?lat=0&lng=-140', person);
    expect(sea.status).toBe(200);
    expect(sea.body).toBeNull();
  });

  it('refuses a point out of range or missing with 400, asking nothing', async () => {
    const before = nominatim.queries.length;
    for (const query of ['lat=91&lng=0', 'lat=0&lng=181', 'lat=abc&lng=0', 'lng=0', '']) {
      const res = await call<{ code: string }>('GET', `/me/places/reverse?${query}`, person);
      expect([query, res.status, res.body.code]).toEqual([query, 400, 'validation_failed']);
    }
    expect(nominatim.queries.length).toBe(before);
  });

  it('answers 502 geocoder_unavailable when the reverse endpoint fails or answers nonsense', async () => {
    for (const [i, [status, body]] of (
      [
        [500, { error: 'boom' }],
        [200, 'not json'],
        [200, ['a', 'list']],
      ] as const
    ).entries()) {
      nominatim.set(status, body, '/reverse');
      const res = await call<{ code: string }>('GET', `/me/places/reverse?lat=10.${i}&lng=20`, person);
      expect(res.status).toBe(502);
      expect(res.body.code).toBe('geocoder_unavailable');
    }
  });

  it('answers 503 geocoder_not_configured without GEOCODER_URL, and goes through the SSRF guard', async () => {
    for (const path of ['/me/places?q=Tempe', '/me/places/reverse?lat=33.4&lng=-111.9']) {
      const res = await jsonClient(() => without.url)<{ code: string }>('GET', path, person);
      expect([path, res.status, res.body.code]).toEqual([path, 503, 'geocoder_not_configured']);
    }
    const before = nominatim.queries.length;
    const res = await jsonClient(() => guarded.url)<{ code: string }>('GET', '/me/places/reverse?lat=31.4&lng=-110.9', person);
    expect(res.status).toBe(502);
    expect(res.body.code).toBe('geocoder_unavailable');
    expect(nominatim.queries.length).toBe(before);
  });

  it('limits each person to ALERTS_RATE_PLACES_USER (searches and lookups together), with Retry-After; others go on', async () => {
    nominatim.set(200, []);
    nominatim.set(200, { error: 'Unable to geocode' }, '/reverse');
    const someone = await stack.identity.token({ id: randomUUID() });
    const ask = jsonClient(() => limited.url);
    const answers = [
      await ask('GET', '/me/places?q=Scottsdale', someone),
      await ask('GET', '/me/places/reverse?lat=33.5&lng=-111.9', someone),
      await ask('GET', '/me/places?q=Chandler', someone),
      await ask<{ code: string }>('GET', '/me/places?q=Gilbert', someone),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429]);
    expect(answers[3].body).toMatchObject({ code: 'rate_limited' });
    expect(Number(answers[3].headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // (a person of their own: the services share one Redis, so the count of `person` above is shared too)
    const another = await stack.identity.token({ id: randomUUID() });
    expect((await ask('GET', '/me/places?q=Gilbert', another)).status).toBe(200);
  });
});

import { randomUUID } from 'node:crypto';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { GeocodeResult } from '@beacon/contracts';
import { jsonClient, RunningService, startTestService } from '@beacon/testing';
import { alertsService } from '../service';
import { DispatchStack } from '../testing/dispatch-stack';

jest.setTimeout(60_000);

/** A Nominatim-compatible search endpoint on 127.0.0.1: answers what `reply` says and records the queries and when they came. */
function fakeNominatim() {
  const queries: URLSearchParams[] = [];
  const receivedAt: number[] = [];
  let reply: { status: number; body: string } = { status: 200, body: '[]' };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url!, 'http://x');
    queries.push(url.searchParams);
    receivedAt.push(Date.now());
    res.writeHead(reply.status, { 'content-type': 'application/json' }).end(reply.body);
  });
  return {
    queries,
    receivedAt,
    set: (status: number, body: unknown) => (reply = { status, body: typeof body === 'string' ? body : JSON.stringify(body) }),
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

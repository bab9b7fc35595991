import { randomUUID } from 'node:crypto';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RunningService, startTestService } from '@beacon/testing';
import { alertsService } from './service';
import { DispatchStack } from './testing/dispatch-stack';

jest.setTimeout(60_000);

/** Two calls a minute per admin for every limited admin route group, so the spec reaches each limit. */
const LIMITS = {
  ALERTS_RATE_AUDIENCE_PREVIEW_USER: '2/60',
  ALERTS_RATE_CSV_EXPORTS_USER: '2/60',
  ALERTS_RATE_SETTINGS_TESTS_USER: '2/60',
  ALERTS_RATE_GEOCODE_USER: '2/60',
  // The provider's own pace is geocode.integration-spec's; here it must not be what refuses.
  GEOCODER_RATE: '1000/1',
};

const PREVIEW = {
  title: 'Chlorine leak at the water plant',
  message: 'Shelter in place; close windows.',
  category: 'health',
  severity: 'high',
  lat: 33.4255,
  lng: -111.94,
  radiusKm: 10,
  channels: ['push'],
};

interface Answer {
  status: number;
  retryAfter: string | null;
  body: { code?: string; message?: string } | null;
}

/** A geocoder that finds nothing, so the address search has somewhere to ask. */
function emptyGeocoder() {
  const server: Server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('[]'));
  return {
    listen: () => new Promise<string>((ok) => server.listen(0, '127.0.0.1', () => ok(`http://127.0.0.1:${(server.address() as AddressInfo).port}/search`))),
    close: () => new Promise((ok) => server.close(ok)),
  };
}

describe('rate limits of the admin routes that count every user, export, dial a provider or geocode (real Redis)', () => {
  const stack = new DispatchStack();
  const geocoder = emptyGeocoder();
  let svc: RunningService<unknown>;

  beforeAll(async () => {
    const geocoderUrl = await geocoder.listen();
    await stack.start();
    svc = await startTestService(alertsService, { ...stack.vars, ...LIMITS, GEOCODER_URL: geocoderUrl });
  });

  afterAll(async () => {
    await stack.close(svc);
    await geocoder.close();
  });

  const admin = () => stack.identity.token({ id: randomUUID(), email: `admin-${randomUUID()}@beacon.local`, role: 'admin' });

  async function send(method: string, path: string, token: string, body?: unknown): Promise<Answer> {
    const res = await fetch(`${svc.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    const json = res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : null;
    return { status: res.status, retryAfter: res.headers.get('retry-after'), body: json };
  }

  /** Each group's routes as the console calls them; a group's routes share one count per admin. */
  const groups: Record<string, ((token: string) => Promise<Answer>)[]> = {
    'audience preview': [(t) => send('POST', '/audience', t, PREVIEW)],
    'CSV exports': [(t) => send('GET', '/export.csv', t), (t) => send('GET', `/${randomUUID()}/deliveries.csv`, t)],
    'relay and webhook tests': [
      (t) => send('POST', '/admin/settings/test-connection', t, {}),
      (t) => send('POST', '/admin/settings/test-webhook', t, {}),
      (t) => send('POST', '/admin/settings/test-email', t, {}),
      (t) => send('POST', '/admin/settings/test-alert', t),
    ],
    'address search': [(t) => send('GET', '/geocode?q=Tempe', t)],
  };

  it.each(Object.keys(groups))(
    '%s: the third call of an admin within the minute answers 429 rate_limited with Retry-After; another admin is not affected',
    async (name) => {
      const routes = groups[name];
      const route = (i: number) => routes[i % routes.length];
      const [alice, bob] = await Promise.all([admin(), admin()]);

      for (let i = 0; i < 2; i++) expect((await route(i)(alice)).status).not.toBe(429);
      for (let i = 2; i < 2 + routes.length; i++) {
        const refused = await route(i)(alice);
        expect(refused.status).toBe(429);
        expect(refused.body).toMatchObject({
          code: 'rate_limited',
          message: expect.stringMatching(/^Too many requests\. Please try again in \d+ (second|minute)s?\.$/),
        });
        expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
        expect(Number(refused.retryAfter)).toBeLessThanOrEqual(60);
      }

      for (let i = 0; i < 2; i++) expect((await route(i)(bob)).status).not.toBe(429);
    },
  );

  it('the answers below the limit are the routes’ own', async () => {
    const alice = await admin();
    expect((await send('POST', '/audience', alice, PREVIEW)).status).toBe(200);
    const csv = await send('GET', '/export.csv', alice);
    expect(csv.status).toBe(200);
  });
});

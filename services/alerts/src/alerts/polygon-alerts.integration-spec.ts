import { randomUUID } from 'node:crypto';
import { AdminAlert, AlertAudience, AlertPreferences, Page, UserAlert } from '@beacon/contracts';
import { destination } from '@beacon/geo';
import { RunningService, startTestService, jsonClient, waitFor } from '@beacon/testing';
import { alertsService } from '../service';
import { dispatcherService } from '../dispatcher.service';
import { DispatchStack } from '../testing/dispatch-stack';

const TEMPE = { lat: 33.4255, lng: -111.94 };

jest.setTimeout(60_000);

/** A drawn area through the API: validation, the preview, the dispatch and the user's feed agree on who is inside. */
describe('polygon alerts through the API and the dispatcher', () => {
  const stack = new DispatchStack();
  let alerts: RunningService<unknown>;
  let dispatcher: RunningService<unknown>;
  let adminToken: string;

  beforeAll(async () => {
    await stack.start({ PUBLIC_URL: 'http://localhost:8080', SWEEP_INTERVAL_SECONDS: '3600' });
    alerts = await startTestService(alertsService, stack.vars);
    dispatcher = await startTestService(dispatcherService, stack.vars);
    adminToken = await stack.identity.token({ id: randomUUID(), email: 'admin@beacon.local', role: 'admin' });
  });

  afterAll(async () => {
    await stack.close(dispatcher, alerts);
  });

  const call = jsonClient(() => alerts.url);

  async function makeUser(home: { lat: number; lng: number } | null, radiusMiles = 100) {
    const id: string = randomUUID();
    const token = await stack.identity.token({ id, email: `user-${id.slice(0, 8)}@example.test` });
    const saved = await call<AlertPreferences>('PUT', '/me/preferences', token, {
      alertTypes: ['emergency'],
      severityThreshold: 'low',
      home,
      radiusMiles,
      methods: { push: false, sms: false, email: true, voice: true },
    });
    expect(saved.status).toBe(200);
    return { id, token };
  }

  // A triangle around Tempe, about 4 km across.
  const triangle: [number, number][] = [
    [TEMPE.lat + 0.03, TEMPE.lng],
    [TEMPE.lat - 0.02, TEMPE.lng - 0.03],
    [TEMPE.lat - 0.02, TEMPE.lng + 0.03],
  ];
  const body = (area: unknown) => ({
    title: 'Chemical spill near the plant',
    message: 'Stay indoors and close windows.',
    category: 'health',
    severity: 'high',
    channels: ['email'],
    area,
  });

  it('reaches the home inside the polygon and not the one outside, as the preview said, with the area on every view', async () => {
    const inside = await makeUser(TEMPE, 5);
    const outside = await makeUser(destination(TEMPE, 8, 90)); // 8 km east: inside any 50 km circle, outside the triangle
    const unlocated = await makeUser(null);
    const area = { type: 'polygon', points: triangle };

    const preview = await call<AlertAudience>('POST', '/audience', adminToken, body(area));
    expect(preview.status).toBe(200);
    const created = await call<AdminAlert>('POST', '', adminToken, body(area), { 'idempotency-key': randomUUID() });
    expect(created.status).toBe(201);
    expect(created.body.area).toEqual({ type: 'polygon', points: [...triangle, triangle[0]] });
    expect(created.body.radiusKm).toBeNull();
    expect(created.body.lat).toBeCloseTo(TEMPE.lat - 0.0033, 3);

    const rows = await waitFor('the delivery rows', async () => {
      const r = await stack.db.query<{ user_id: string }>(`SELECT user_id FROM alerts.alert_deliveries WHERE alert_id = $1`, [created.body.id]);
      const ours = r.map((x) => x.user_id).filter((id) => [inside.id, outside.id, unlocated.id].includes(id));
      return ours.length >= 2 ? ours : null;
    });
    expect(rows.sort()).toEqual([inside.id, unlocated.id].sort());
    const recipients = await waitFor('the recipients', async () => (await call<AdminAlert>('GET', `/${created.body.id}`, adminToken)).body.recipients ?? null);
    expect(recipients).toBe(preview.body.recipients);

    const feed = async (token: string) => (await call<Page<UserAlert>>('GET', '/me/alerts', token)).body.items.map((a) => a.id);
    expect(await feed(inside.token)).toContain(created.body.id);
    expect(await feed(outside.token)).not.toContain(created.body.id);
    const mine = await call<UserAlert>('GET', `/me/alerts/${created.body.id}`, inside.token);
    expect(mine.body.area).toEqual(created.body.area);
  });

  it('still takes the old lat/lng/radiusKm, and a circle area, the same way', async () => {
    const old = await call<AdminAlert>('POST', '/audience', adminToken, { ...body(undefined), lat: TEMPE.lat, lng: TEMPE.lng, radiusKm: 5 });
    const circle = await call<AdminAlert>('POST', '/audience', adminToken, body({ type: 'circle', lat: TEMPE.lat, lng: TEMPE.lng, radiusKm: 5 }));
    expect(old.status).toBe(200);
    expect(circle.body).toEqual({ ...old.body, token: expect.any(String) });
    const created = await call<AdminAlert>('POST', '', adminToken, { ...body(undefined), lat: TEMPE.lat, lng: TEMPE.lng, radiusKm: 5 });
    expect(created.body.area).toEqual({ type: 'circle', lat: TEMPE.lat, lng: TEMPE.lng, radiusKm: 5 });
  });

  it.each([
    [
      'a bow tie',
      {
        type: 'polygon',
        points: [
          [33, -112],
          [33.1, -111.9],
          [33.1, -112],
          [33, -111.9],
        ],
      },
      'area_self_intersecting',
    ],
    [
      'two points',
      {
        type: 'polygon',
        points: [
          [33, -112],
          [33.1, -111.9],
        ],
      },
      'area_too_few_points',
    ],
    [
      'a point out of range',
      {
        type: 'polygon',
        points: [
          [33, -112],
          [95, -111.9],
          [33.1, -112],
        ],
      },
      'area_point_out_of_range',
    ],
    ['a wrong type', { type: 'hexagon' }, 'invalid_area'],
    ['not an object', 'polygon', 'validation_failed'],
  ])('refuses %s with a 400 and its code, on create and preview', async (_name, area, code) => {
    for (const path of ['', '/audience']) {
      const res = await call<{ code: string; message: string }>('POST', path, adminToken, body(area));
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(code);
      expect(res.body.message).toBeTruthy();
    }
  });

  it('refuses an area with lat/lng beside it', async () => {
    const res = await call<{ code: string }>('POST', '', adminToken, { ...body({ type: 'polygon', points: triangle }), lat: 1, lng: 2 });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('area_and_location');
  });
});

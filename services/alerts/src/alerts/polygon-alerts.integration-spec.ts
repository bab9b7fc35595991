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

  const deliveryRows = (alertId: string) =>
    stack.db.query<{ user_id: string; kind: string; round: number; status: string }>(
      `SELECT user_id, kind, round, status FROM alerts.alert_deliveries WHERE alert_id = $1 ORDER BY round, user_id`,
      [alertId],
    );

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

    const recipients = await waitFor('the recipients', async () => (await call<AdminAlert>('GET', `/${created.body.id}`, adminToken)).body.recipients ?? null);
    expect(recipients).toBe(preview.body.recipients);
    const rows = (await deliveryRows(created.body.id)).map((r) => r.user_id).filter((id) => [inside.id, outside.id, unlocated.id].includes(id));
    // Not the one without a home (issue #42): a located alert is not theirs.
    expect(rows).toEqual([inside.id]);

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
  describe('areas of several parts (issue #42)', () => {
    // Away from Tempe, where the tests above put their people.
    const base = destination(TEMPE, 60, 180);
    const wells = destination(base, 25, 90);
    const square = (c: { lat: number; lng: number }, half: number): [number, number][] => [
      [c.lat - half, c.lng - half],
      [c.lat - half, c.lng + half],
      [c.lat + half, c.lng + half],
      [c.lat + half, c.lng - half],
    ];
    const drawn = {
      type: 'multi',
      parts: [
        { type: 'polygon', points: square(base, 0.03), description: 'Old town' },
        { type: 'circle', lat: wells.lat, lng: wells.lng, radiusKm: 5, description: 'Well field' },
      ],
    };
    const critical = (area: unknown) => ({ ...body(area), severity: 'critical', title: 'Boil-water notice' });

    it('create, preview, dispatch, feed and versions agree on the parts; an update to other parts tells those it leaves out', async () => {
      const inSquare = await makeUser(base, 5);
      const inCircle = await makeUser(destination(wells, 2, 0), 5);
      const between = await makeUser(destination(base, 12, 90)); // between the parts, within any 100-mile radius
      const unlocated = await makeUser(null);
      const ours = [inSquare.id, inCircle.id, between.id, unlocated.id];

      const preview = await call<AlertAudience>('POST', '/audience', adminToken, critical(drawn));
      expect(preview.status).toBe(200);
      expect(preview.body).toMatchObject({ concerned: 2, recipients: 2 });
      const created = await call<AdminAlert>('POST', '', adminToken, critical(drawn), { 'idempotency-key': randomUUID() });
      expect(created.status).toBe(201);
      const asDrawn = { type: 'multi', parts: [{ ...drawn.parts[0], points: [...square(base, 0.03), square(base, 0.03)[0]] }, drawn.parts[1]] };
      expect(created.body.area).toEqual(asDrawn);
      expect(created.body.radiusKm).toBeNull();
      expect(created.body.lat).toBeGreaterThan(base.lat - 0.1);
      expect(created.body.lng).toBeGreaterThan(base.lng);
      expect(created.body.lng).toBeLessThan(wells.lng);

      const sent = await waitFor('the alert sent', async () => {
        const rows = (await deliveryRows(created.body.id)).filter((r) => ours.includes(r.user_id));
        return rows.length === 2 && rows.every((r) => r.status === 'sent') ? rows : null;
      });
      expect(sent.map((r) => r.user_id).sort()).toEqual([inSquare.id, inCircle.id].sort());
      const feed = async (token: string) => (await call<Page<UserAlert>>('GET', '/me/alerts', token)).body.items.map((a) => a.id);
      expect(await feed(inCircle.token)).toContain(created.body.id);
      expect(await feed(between.token)).not.toContain(created.body.id);
      expect(await feed(unlocated.token)).not.toContain(created.body.id);
      expect((await call<UserAlert>('GET', `/me/alerts/${created.body.id}`, inCircle.token)).body.area).toEqual(asDrawn);

      // The well field is dropped, the square widened to take in `between`.
      const next = { type: 'multi', parts: [{ type: 'polygon', points: square(base, 0.2), description: 'Old town and east' }, drawn.parts[1]] };
      const moved = { area: { ...next, parts: [next.parts[0], { type: 'circle', lat: base.lat + 1, lng: base.lng, radiusKm: 5 }] }, version: 1 };
      const told = await call<AlertAudience>('POST', `/${created.body.id}/update/audience`, adminToken, moved);
      expect(told.status).toBe(200);
      expect(told.body).toMatchObject({ told: { stillInArea: 1, leftArea: 1, newlyConcerned: 1 } });
      const updated = await call<AdminAlert>('POST', `/${created.body.id}/update`, adminToken, moved);
      expect(updated.status).toBe(200);
      expect(updated.body).toMatchObject({ version: 2, area: { type: 'multi' } });
      const round = await waitFor('the update fanned out', async () => {
        const rows = (await deliveryRows(created.body.id)).filter((r) => r.round > 1 && ours.includes(r.user_id));
        return rows.length === 3 ? rows : null;
      });
      expect(Object.fromEntries(round.map((r) => [r.user_id, r.kind]))).toEqual({
        [inSquare.id]: 'update',
        [inCircle.id]: 'left_area',
        [between.id]: 'alert',
      });
      const versions = await call<{ version: number; area: unknown; changed: string[] }[]>('GET', `/${created.body.id}/versions`, adminToken);
      expect(versions.body.map((v) => [v.version, (v.area as { parts: unknown[] }).parts.length, v.changed])).toEqual([
        [1, 2, []],
        [2, 2, ['area']],
      ]);
      expect(versions.body[0].area).toEqual(asDrawn);

      // The same parts again are no change; one part left is that part, not `multi`.
      const same = await call<{ code: string }>('POST', `/${created.body.id}/update`, adminToken, { area: moved.area });
      expect(same.body.code).toBe('nothing_to_update');
      const one = await call<AdminAlert>('POST', `/${created.body.id}/update`, adminToken, { area: { type: 'multi', parts: [next.parts[0]] } });
      expect(one.status).toBe(200);
      expect(one.body.area).toEqual({ ...next.parts[0], points: [...square(base, 0.2), square(base, 0.2)[0]] });
    });

    const circlePart = { type: 'circle', lat: base.lat, lng: base.lng, radiusKm: 5 };
    const wide = (lng: number) => ({ type: 'circle', lat: 0, lng, radiusKm: 800 });
    it.each([
      ['no parts', { type: 'multi', parts: [] }, 'invalid_area', "A 'multi' area needs"],
      ['more than 50 parts', { type: 'multi', parts: Array(51).fill(circlePart) }, 'area_too_many_parts', 'at most 50 parts'],
      ['a part of an unknown type', { type: 'multi', parts: [circlePart, { type: 'hexagon' }] }, 'invalid_area', 'Area part 2: '],
      ['a circle part too large', { type: 'multi', parts: [circlePart, { ...circlePart, radiusKm: 5000 }] }, 'invalid_area', 'Area part 2: Radius'],
      [
        'a polygon part of two points',
        { type: 'multi', parts: [{ type: 'polygon', points: square(base, 0.1).slice(0, 2) }, circlePart] },
        'area_too_few_points',
        'Area part 1: ',
      ],
      [
        'a polygon part with a point out of range',
        { type: 'multi', parts: [circlePart, { type: 'polygon', points: [[95, 0], ...square(base, 0.1).slice(1)] }] },
        'area_point_out_of_range',
        'Area part 2: Point 1',
      ],
      [
        'a bow tie part',
        {
          type: 'multi',
          parts: [
            circlePart,
            {
              type: 'polygon',
              points: [
                [33, -112],
                [33.1, -111.9],
                [33.1, -112],
                [33, -111.9],
              ],
            },
          ],
        },
        'area_self_intersecting',
        'Area part 2: ',
      ],
      ['a description too long', { type: 'multi', parts: [circlePart, { ...circlePart, description: 'x'.repeat(201) }] }, 'invalid_area', 'Area part 2: '],
      ['parts together too large', { type: 'multi', parts: [wide(0), wide(40)] }, 'area_too_large', 'together cover'],
    ])('refuses %s with a 400 and its code, on create, preview, update and its preview', async (_name, area, code, message) => {
      const target = await call<AdminAlert>('POST', '', adminToken, critical(drawn), { 'idempotency-key': randomUUID() });
      for (const path of ['', '/audience', `/${target.body.id}/update`, `/${target.body.id}/update/audience`]) {
        const res = await call<{ code: string; message: string }>('POST', path, adminToken, path.includes('/update') ? { area } : critical(area));
        expect({ path, status: res.status, code: res.body.code }).toEqual({ path, status: 400, code });
        expect(res.body.message).toContain(message);
      }
    });
  });
});

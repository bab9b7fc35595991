import { randomUUID } from 'node:crypto';
import { emptyReachCounts, REACH_STATES, type AdminAlert, type AlertReach, type ReachCounts, type Role } from '@beacon/contracts';
import { AlertsApi } from '../testing/alerts-api';

const counts = (o: Partial<ReachCounts>): ReachCounts => ({ ...emptyReachCounts(), ...o });

/** A recipient: their home (null: none on file; 'none': no preferences at all) and their deliveries' statuses by channel. */
interface Person {
  home: [number, number] | null | 'none';
  deliveries: [channel: string, status: string][];
  help?: { status: 'open' | 'resolved'; at: string; lat?: number; lng?: number };
}

const sent = (channel = 'sms'): [string, string] => [channel, 'sent'];

/*
 * Around Tempe, Arizona, in 0.01-degree cells (rows and columns are hundredths of a degree, floored):
 *  - A: 8 people in one 0.01 cell (33.42..33.43 N, 111.94..111.93 W): shown as it is;
 *  - S: 6 people, one per 0.01 cell, in the 0.05 cell 33.45..33.50 N, 111.95..111.90 W: shown as that cell;
 *  - T and U: 2 and 3 people in two other 0.05 cells of the 0.2 cell 33.40..33.60 N, 112.00..111.80 W: shown as that cell;
 *  - one in Phoenix and one in Sydney: too few anywhere, only counted;
 *  - three with no home on file.
 */
const PEOPLE: Record<string, Person> = {
  a0: { home: [33.425, -111.935], deliveries: [sent()] },
  a1: { home: [33.4255, -111.935], deliveries: [['push', 'delivered']] },
  a2: { home: [33.426, -111.935], deliveries: [['sms', 'failed'], sent('push')] },
  a3: { home: [33.4265, -111.935], deliveries: [['sms', 'failed']] },
  a4: {
    home: [33.427, -111.935],
    deliveries: [
      ['sms', 'failed'],
      ['email', 'cancelled'],
    ],
  },
  a5: { home: [33.4275, -111.935], deliveries: [['sms', 'pending']] },
  a6: {
    home: [33.428, -111.935],
    deliveries: [
      ['sms', 'sending'],
      ['push', 'failed'],
    ],
  },
  a7: {
    home: [33.4285, -111.935],
    deliveries: [['push', 'delivered']],
    help: { status: 'open', at: '2026-03-04T05:00:00.000Z', lat: 33.4311, lng: -111.9322 },
  },
  s0: { home: [33.455, -111.935], deliveries: [sent()] },
  s1: { home: [33.465, -111.935], deliveries: [['push', 'read']] },
  s2: { home: [33.475, -111.935], deliveries: [['sms', 'failed']], help: { status: 'resolved', at: '2026-03-04T06:00:00.000Z', lat: 33.4791, lng: -111.9288 } },
  s3: { home: [33.485, -111.935], deliveries: [['sms', 'pending']] },
  s4: { home: [33.495, -111.935], deliveries: [['sms', 'pending']] },
  s5: { home: [33.455, -111.915], deliveries: [['email', 'delivered']] },
  t0: { home: [33.505, -111.985], deliveries: [sent()] },
  t1: { home: [33.515, -111.985], deliveries: [['sms', 'failed']] },
  u0: { home: [33.555, -111.825], deliveries: [['sms', 'delivered']], help: { status: 'open', at: '2026-03-04T05:30:00.000Z' } },
  u1: { home: [33.565, -111.825], deliveries: [['sms', 'pending']] },
  u2: { home: [33.575, -111.825], deliveries: [sent()] },
  phoenix: { home: [33.45, -112.07], deliveries: [sent()] },
  sydney: { home: [-33.87, 151.21], deliveries: [['sms', 'failed']] },
  n0: { home: null, deliveries: [sent()] },
  n1: { home: null, deliveries: [['sms', 'pending']] },
  n2: { home: 'none', deliveries: [['sms', 'failed']] },
};

/**
 * The map of an alert's reach (issue #42) on a real database: each recipient in one state, counted by their home in
 * cells of at least five people (never one person's home), the rest counted without a place, and the help requests
 * where their senders said they were.
 */
describe('GET /api/alerts/:id/reach', () => {
  const api = new AlertsApi();
  const tokens = {} as Record<Role, string>;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    await api.start();
    for (const role of ['user', 'viewer', 'publisher', 'approver', 'admin'] as const)
      tokens[role] = await api.identity.token({ role, email: `${role}@beacon.local` });
    for (const [name, p] of Object.entries(PEOPLE)) {
      ids[name] = randomUUID();
      if (p.home === 'none') continue;
      await api.db.query(
        `INSERT INTO alerts.user_preferences (user_id, email, alert_types, categories, radius_km, lat, lng, sms_enabled, phone_number)
         VALUES ($1, $2, '{}', '{}', 10, $3, $4, true, '+16025550100')`,
        [ids[name], `${name}@example.test`, p.home?.[0] ?? null, p.home?.[1] ?? null],
      );
    }
  });
  afterAll(() => api.close());

  /** An alert as a publisher sends it (no dispatcher runs here: its deliveries are written as PEOPLE says). */
  async function sentAlert(area: Record<string, unknown>): Promise<string> {
    const made = await api.call<AdminAlert>('POST', '', tokens.publisher, {
      title: `Water main break ${randomUUID().slice(0, 6)}`,
      message: 'Boil water before drinking it until further notice.',
      category: 'health',
      severity: 'high',
      channels: ['sms'],
      ...area,
    });
    expect(made.status).toBe(201);
    const alertId = made.body.id;
    for (const [name, p] of Object.entries(PEOPLE)) {
      for (const [channel, status] of p.deliveries)
        await api.db.query(`INSERT INTO alerts.alert_deliveries (alert_id, user_id, channel, status) VALUES ($1, $2, $3, $4)`, [
          alertId,
          ids[name],
          channel,
          status,
        ]);
      if (p.help)
        await api.db.query(
          `INSERT INTO alerts.help_requests (alert_id, user_id, user_email, message, lat, lng, status, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
          [alertId, ids[name], `${name}@example.test`, `help from ${name}`, p.help.lat ?? null, p.help.lng ?? null, p.help.status, p.help.at],
        );
    }
    return alertId;
  }

  const reachOf = async (alertId: string, token = tokens.viewer) => {
    const res = await api.call<AlertReach>('GET', `/${alertId}/reach`, token);
    expect(res.status).toBe(200);
    return res.body;
  };

  it('counts each recipient in one state, in cells of at least five merged up the grid, and the rest without a place', async () => {
    const alertId = await sentAlert({ lat: 33.4255, lng: -111.94, radiusKm: 25 });
    const reach = await reachOf(alertId);

    expect(reach.minCellPeople).toBe(5);
    expect(reach.cells.map((c) => [c.sizeDeg, c.south, c.north, c.west, c.east, c.people])).toEqual([
      [0.01, 33.42, 33.43, -111.94, -111.93, 8],
      [0.05, 33.45, 33.5, -111.95, -111.9, 6],
      [0.2, 33.4, 33.6, -112, -111.8, 5],
    ]);
    expect(reach.cells.filter((c) => c.people < 5)).toEqual([]);
    expect(reach.cells.map((c) => c.counts)).toEqual([
      counts({ reached: 3, failed: 2, pending: 2, needs_help: 1 }),
      counts({ reached: 3, failed: 1, pending: 2 }),
      counts({ reached: 2, failed: 1, pending: 1, needs_help: 1 }),
    ]);
    expect(reach.elsewhere).toEqual(counts({ reached: 1, failed: 1 }));
    expect(reach.unlocated).toEqual(counts({ reached: 1, pending: 1, failed: 1 }));
    expect(reach.totals).toEqual(counts({ needs_help: 2, reached: 10, failed: 6, pending: 6 }));
    // everyone once: the cells, elsewhere and those with no home add up to the totals
    const placed = [...reach.cells.map((c) => c.counts), reach.elsewhere, reach.unlocated];
    expect(Object.fromEntries(REACH_STATES.map((s) => [s, placed.reduce((n, c) => n + c[s], 0)]))).toEqual(reach.totals);
    // of the reached, those a receipt confirmed (delivered, read); a provider's acceptance is not a confirmation
    expect(reach.confirmed).toBe(3);

    // no one's home is in the answer
    const text = JSON.stringify(reach);
    for (const p of Object.values(PEOPLE))
      if (Array.isArray(p.home)) expect([p.home, text.includes(String(p.home[0])) && text.includes(String(p.home[1]))]).toEqual([p.home, false]);
  });

  it('lists the help requests, open ones first, with the location each sender shared and nothing of who they are', async () => {
    const alertId = await sentAlert({ lat: 33.4255, lng: -111.94, radiusKm: 25 });
    const reach = await reachOf(alertId);
    expect(reach.helpRequestsTotal).toBe(3);
    expect(reach.helpRequests).toEqual([
      { id: expect.any(String), status: 'open', createdAt: '2026-03-04T05:30:00.000Z', message: 'help from u0', lat: null, lng: null },
      { id: expect.any(String), status: 'open', createdAt: '2026-03-04T05:00:00.000Z', message: 'help from a7', lat: 33.4311, lng: -111.9322 },
      { id: expect.any(String), status: 'resolved', createdAt: '2026-03-04T06:00:00.000Z', message: 'help from s2', lat: 33.4791, lng: -111.9288 },
    ]);
    expect(JSON.stringify(reach)).not.toContain('@example.test');
  });

  it('follows the deliveries as they change: a help request resolved, a pending delivery sent', async () => {
    const alertId = await sentAlert({ lat: 33.4255, lng: -111.94, radiusKm: 25 });
    await api.db.query(`UPDATE alerts.help_requests SET status = 'resolved' WHERE alert_id = $1 AND user_id = $2`, [alertId, ids.a7]);
    await api.db.query(`UPDATE alerts.alert_deliveries SET status = 'sent' WHERE alert_id = $1 AND user_id = $2`, [alertId, ids.a5]);
    const reach = await reachOf(alertId);
    expect(reach.cells[0].counts).toEqual(counts({ reached: 5, failed: 2, pending: 1 }));
    expect(reach.confirmed).toBe(4);
  });

  it('sizes the grid of an alert to everyone by where its recipients live', async () => {
    const alertId = await sentAlert({ everyone: true });
    const reach = await reachOf(alertId);
    // Tempe to Sydney: the coarsest cells; the 20 around Phoenix make one, Sydney's one is only counted
    expect(reach.cells.map((c) => [c.sizeDeg, c.south, c.north, c.west, c.east, c.people])).toEqual([[5, 30, 35, -115, -110, 20]]);
    expect(reach.elsewhere).toEqual(counts({ failed: 1 }));
    expect(reach.totals).toEqual(counts({ needs_help: 2, reached: 10, failed: 6, pending: 6 }));
  });

  it('answers an alert with no deliveries yet with nobody', async () => {
    const made = await api.call<AdminAlert>('POST', '', tokens.publisher, {
      title: 'Draft warning',
      message: 'Not sent yet.',
      category: 'weather',
      severity: 'high',
      channels: ['sms'],
      lat: 33.4255,
      lng: -111.94,
      radiusKm: 5,
      draft: true,
    });
    const reach = await reachOf(made.body.id);
    expect(reach).toMatchObject({ cells: [], totals: emptyReachCounts(), unlocated: emptyReachCounts(), helpRequests: [], helpRequestsTotal: 0 });
  });

  it('is a console read: viewers and up, never a plain user; an unknown alert is 404', async () => {
    const alertId = await sentAlert({ lat: 33.4255, lng: -111.94, radiusKm: 25 });
    for (const role of ['viewer', 'publisher', 'approver', 'admin'] as const)
      expect([role, (await api.call('GET', `/${alertId}/reach`, tokens[role])).status]).toEqual([role, 200]);
    expect((await api.call('GET', `/${alertId}/reach`, tokens.user)).body).toMatchObject({ statusCode: 403, code: 'forbidden' });
    expect((await api.call('GET', `/${alertId}/reach`, '')).status).toBe(401);
    expect((await api.call('GET', `/${randomUUID()}/reach`, tokens.viewer)).body).toMatchObject({ statusCode: 404, code: 'alert_not_found' });
    expect((await api.call('GET', `/not-an-id/reach`, tokens.viewer)).body).toMatchObject({ statusCode: 404, code: 'alert_not_found' });
  });
});

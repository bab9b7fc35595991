import { randomUUID } from 'node:crypto';
import { AdminAlert, Page, UserAlert } from '@beacon/contracts';
import { AlertsApi } from '../testing/alerts-api';

jest.setTimeout(60_000);

/**
 * Issue 20, location onboarding: until a user sets a home location, their feed (the list and the active alerts) shows
 * only the alerts for everyone (without an area), never a located alert anywhere in the world, however severe: the
 * dispatcher's rule (issue #42), so the feed shows what reaches them. With a home it shows what concerns them there,
 * an area of several parts as any other.
 */
describe('the user feed without a home location', () => {
  const api = new AlertsApi();
  const { call } = api;
  let admin: string;
  let homeless: string;
  let located: string;
  const ids: Record<string, string> = {};
  const PHOENIX = { lat: 33.4484, lng: -112.074 };
  const WELLINGTON = { lat: -41.2865, lng: 174.7762 };

  beforeAll(async () => {
    await api.start();
    admin = await api.admin();
    homeless = await api.identity.token({ id: randomUUID() });
    located = await api.identity.token({ id: randomUUID() });
    expect((await call('PUT', '/me/preferences', located, { home: PHOENIX, radiusMiles: 25 })).status).toBe(200);

    const post = async (name: string, body: Record<string, unknown>) => {
      const res = await call<AdminAlert>('POST', '', admin, {
        category: 'weather',
        severity: 'high',
        message: `${name} message.`,
        channels: ['push'],
        ...body,
        title: `Feed ${name}`,
      });
      expect(res.status).toBe(201);
      ids[name] = res.body.id;
    };
    await post('phoenix', { lat: PHOENIX.lat, lng: PHOENIX.lng, radiusKm: 20 });
    await post('new-zealand', { lat: WELLINGTON.lat, lng: WELLINGTON.lng, radiusKm: 20 });
    await post('critical-new-zealand', { severity: 'critical', lat: WELLINGTON.lat, lng: WELLINGTON.lng, radiusKm: 20 });
    await post('everywhere', { everyone: true });
    // Two parts: a square around Phoenix and a circle in New Zealand.
    const square: [number, number][] = [
      [PHOENIX.lat - 0.1, PHOENIX.lng - 0.1],
      [PHOENIX.lat - 0.1, PHOENIX.lng + 0.1],
      [PHOENIX.lat + 0.1, PHOENIX.lng + 0.1],
      [PHOENIX.lat + 0.1, PHOENIX.lng - 0.1],
    ];
    await post('parts', {
      area: {
        type: 'multi',
        parts: [
          { type: 'polygon', points: square },
          { type: 'circle', ...WELLINGTON, radiusKm: 20 },
        ],
      },
    });
    await post('parts-elsewhere', {
      area: {
        type: 'multi',
        parts: [
          { type: 'polygon', points: square.map(([lat, lng]) => [lat + 1, lng]) },
          { type: 'circle', ...WELLINGTON, radiusKm: 20 },
        ],
      },
    });
    // what the dispatcher leaves behind
    await api.db.query(`UPDATE alerts.alerts SET dispatched_at = now() WHERE id = ANY($1::uuid[])`, [Object.values(ids)]);
  });

  afterAll(() => api.close());

  const listed = async (token: string) => (await call<Page<UserAlert>>('GET', '/me/alerts', token)).body.items.map((a) => a.title).sort();
  const active = async (token: string) => (await call<UserAlert[]>('GET', '/me/alerts/active', token)).body.map((a) => a.title).sort();

  it('shows a user without a home only the alerts without an area, not even a critical one elsewhere, in the list and the active alerts', async () => {
    expect(await listed(homeless)).toEqual(['Feed everywhere']);
    expect(await active(homeless)).toEqual(['Feed everywhere']);
  });

  it('shows a user with a home what concerns them there, in any part of an area, not an alert on the far side of the world', async () => {
    expect(await listed(located)).toEqual(['Feed everywhere', 'Feed parts', 'Feed phoenix']);
    expect(await active(located)).toEqual(['Feed everywhere', 'Feed parts', 'Feed phoenix']);
  });

  it('widens the feed as soon as the home is set', async () => {
    expect((await call('PUT', '/me/preferences', homeless, { home: PHOENIX, radiusMiles: 25 })).status).toBe(200);
    expect(await active(homeless)).toEqual(['Feed everywhere', 'Feed parts', 'Feed phoenix']);
  });
});

import { randomUUID } from 'node:crypto';
import { AlertPreferences } from '@beacon/contracts';
import { AlertsApi } from '../testing/alerts-api';

jest.setTimeout(60_000);

/**
 * Issue #40, places not coordinates: the home is saved with the name the person chose for it (an address or place the
 * search found, or the name of the point their device reported) and answered with it; a new home without a name has
 * none, and a name too long or not text is refused with 400, nothing saved.
 */
describe('the home’s name in my preferences (real PostgreSQL)', () => {
  const api = new AlertsApi();
  const { call } = api;
  let me: string;
  let myId: string;

  beforeAll(async () => {
    await api.start();
    myId = randomUUID();
    me = await api.identity.token({ id: myId });
  });

  afterAll(() => api.close());

  const put = (body: Record<string, unknown>) => call<AlertPreferences & { code?: string; message?: string }>('PUT', '/me/preferences', me, body);
  const home = async () => (await call<AlertPreferences>('GET', '/me/preferences', me)).body.home;

  it('saves and answers the name with the point, trimmed', async () => {
    expect(await home()).toBeNull();
    const saved = await put({ home: { lat: 33.4255, lng: -111.94, name: '  Mill Avenue, Tempe, Arizona ' } });
    expect(saved.status).toBe(200);
    expect(saved.body.home).toEqual({ lat: 33.4255, lng: -111.94, name: 'Mill Avenue, Tempe, Arizona' });
    expect(await home()).toEqual({ lat: 33.4255, lng: -111.94, name: 'Mill Avenue, Tempe, Arizona' });
    const [row] = await api.db.query(`SELECT home_name FROM alerts.user_preferences WHERE user_id = $1`, [myId]);
    expect(row.home_name).toBe('Mill Avenue, Tempe, Arizona');
  });

  it('keeps the name while other preferences change, and drops it with a new home that has none', async () => {
    expect((await put({ radiusMiles: 10 })).body.home).toEqual({ lat: 33.4255, lng: -111.94, name: 'Mill Avenue, Tempe, Arizona' });
    expect((await put({ home: { lat: 33.45, lng: -112.07 } })).body.home).toEqual({ lat: 33.45, lng: -112.07, name: null });
    expect((await put({ home: { lat: 33.45, lng: -112.07, name: '   ' } })).body.home).toEqual({ lat: 33.45, lng: -112.07, name: null });
    expect((await put({ home: { lat: 33.45, lng: -112.07, name: 'Phoenix, Arizona' } })).body.home).toMatchObject({ name: 'Phoenix, Arizona' });
    // no home, no name
    expect((await put({ home: null })).body.home).toBeNull();
    const [row] = await api.db.query(`SELECT home_name, lat FROM alerts.user_preferences WHERE user_id = $1`, [myId]);
    expect(row).toEqual({ home_name: null, lat: null });
  });

  it('refuses a name over 200 characters, or not text, with 400 and saves nothing', async () => {
    expect((await put({ home: { lat: 33.45, lng: -112.07, name: 'Phoenix' } })).status).toBe(200);
    const long = await put({ home: { lat: 34, lng: -111, name: 'x'.repeat(201) } });
    expect(long.status).toBe(400);
    expect(long.body).toMatchObject({ code: 'validation_failed', message: expect.stringContaining('at most 200 characters') });
    const notText = await put({ home: { lat: 34, lng: -111, name: 42 } });
    expect(notText.status).toBe(400);
    expect(notText.body.code).toBe('validation_failed');
    const nul = await put({ home: { lat: 34, lng: -111, name: 'Tempe\u0000' } });
    expect(nul.status).toBe(400);
    expect(nul.body.code).toBe('invalid_characters');
    expect(await home()).toEqual({ lat: 33.45, lng: -112.07, name: 'Phoenix' });
    // exactly 200 is fine
    expect((await put({ home: { lat: 33.45, lng: -112.07, name: 'y'.repeat(200) } })).body.home).toMatchObject({ name: 'y'.repeat(200) });
  });
});

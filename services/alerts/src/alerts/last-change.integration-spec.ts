import { randomUUID } from 'node:crypto';
import { AdminAlert, AlertChange, Page, UserAlert } from '@beacon/contracts';
import { AlertsApi } from '../testing/alerts-api';

jest.setTimeout(60_000);

const PHOENIX = { lat: 33.4484, lng: -112.074 };

/**
 * Issue #40: every alert the service answers says what its latest version changed and when ("Updated 2 min ago:
 * severity raised to Critical", "All clear"), read from its versions: the person's feed, their alerts in effect, one
 * alert, and the console's list and alert. An alert that never changed says null.
 */
describe('lastChange on every alert (real PostgreSQL)', () => {
  const api = new AlertsApi();
  const { call } = api;
  let admin: string;
  let me: string;

  beforeAll(async () => {
    await api.start();
    admin = await api.admin();
    me = await api.identity.token({ id: randomUUID() });
    expect((await call('PUT', '/me/preferences', me, { home: PHOENIX, radiusMiles: 25, alertTypes: ['weather'] })).status).toBe(200);
  });

  afterAll(() => api.close());

  /** The alert's lastChange as each route answers it: they must all agree. */
  async function lastChanges(id: string, ended = false): Promise<(AlertChange | null | undefined)[]> {
    const feed = await call<Page<UserAlert>>('GET', '/me/alerts?pageSize=100', me);
    const active = await call<UserAlert[]>('GET', '/me/alerts/active', me);
    const one = await call<UserAlert>('GET', `/me/alerts/${id}`, me);
    const list = await call<Page<AdminAlert>>('GET', '?pageSize=100', admin);
    const adminOne = await call<AdminAlert>('GET', `/${id}`, admin);
    const answers = [
      feed.body.items.find((a) => a.id === id),
      // an ended alert is no longer in effect, and one not sent to me is not mine to open
      ...(ended ? [] : [active.body.find((a) => a.id === id), one.body]),
      list.body.items.find((a) => a.id === id),
      adminOne.body,
    ];
    for (const a of answers) expect(a).toHaveProperty('lastChange');
    return answers.map((a) => a!.lastChange);
  }

  it('is null until the alert changes, then names each version’s fields, the severity it had and when', async () => {
    const res = await call<AdminAlert>('POST', '', admin, {
      category: 'weather',
      severity: 'high',
      title: 'Flash flood warning',
      message: 'Washes are running; do not cross.',
      channels: ['push'],
      lat: PHOENIX.lat,
      lng: PHOENIX.lng,
      radiusKm: 20,
    });
    expect(res.status).toBe(201);
    const id = res.body.id;
    expect(res.body.lastChange).toBeNull();
    // as the dispatcher leaves it
    await api.db.query(`UPDATE alerts.alerts SET dispatched_at = now(), recipients = 0 WHERE id = $1`, [id]);
    expect(await lastChanges(id)).toEqual([null, null, null, null, null]);

    // severity raised, and the message changed with it
    const raised = await call<AdminAlert>('POST', `/${id}/update`, admin, { severity: 'critical', message: 'Washes are flooding; leave low ground now.' });
    expect(raised.status).toBe(200);
    const [v2] = await api.db.query(`SELECT created_at FROM alerts.alert_versions WHERE alert_id = $1 AND version = 2`, [id]);
    const second: AlertChange = { version: 2, kind: 'update', at: v2.created_at.toISOString(), fields: ['message', 'severity'], severityFrom: 'high' };
    expect(raised.body.lastChange).toEqual(second);
    expect(await lastChanges(id)).toEqual([second, second, second, second, second]);

    // a change that leaves the severity: no severityFrom
    expect((await call('POST', `/${id}/update`, admin, { title: 'Flash flood emergency' })).status).toBe(200);
    const [v3] = await api.db.query(`SELECT created_at FROM alerts.alert_versions WHERE alert_id = $1 AND version = 3`, [id]);
    const third: AlertChange = { version: 3, kind: 'update', at: v3.created_at.toISOString(), fields: ['title'], severityFrom: null };
    expect(await lastChanges(id)).toEqual([third, third, third, third, third]);

    // the all-clear
    const ended = await call<AdminAlert>('POST', `/${id}/all-clear`, admin, { message: 'The water has gone down.' });
    expect(ended.status).toBe(200);
    const [v4] = await api.db.query(`SELECT created_at FROM alerts.alert_versions WHERE alert_id = $1 AND version = 4`, [id]);
    const allClear: AlertChange = { version: 4, kind: 'all_clear', at: v4.created_at.toISOString(), fields: [], severityFrom: null };
    expect(ended.body.lastChange).toEqual(allClear);
    expect(await lastChanges(id, true)).toEqual([allClear, allClear, allClear]);
  });

  it('stays null for a draft edited in place (nobody was told of it)', async () => {
    const draft = await call<AdminAlert>('POST', '', admin, {
      category: 'weather',
      severity: 'medium',
      title: 'Dust advisory',
      message: 'Blowing dust this afternoon.',
      channels: ['push'],
      everyone: true,
      draft: true,
    });
    expect(draft.status).toBe(201);
    const edited = await call<AdminAlert>('POST', `/${draft.body.id}/update`, admin, { title: 'Dust storm advisory', revision: draft.body.revision });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ version: 1, lastChange: null });
  });
});

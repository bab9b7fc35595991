import { randomUUID } from 'node:crypto';
import { AdminAlert, Page, UnreadCount, UserAlert } from '@beacon/contracts';
import { AlertsApi } from '../testing/alerts-api';

jest.setTimeout(60_000);

const PHOENIX = { lat: 33.4484, lng: -112.074 };
const WELLINGTON = { lat: -41.2865, lng: 174.7762 };

/**
 * Issue #40: the header's unread count counts the alerts of the person's feed still in effect that they have not read
 * (an ended one never counts, so an all-clear makes it drop), and an ended alert can be dismissed: gone from their feed, and
 * not read (a read mark is their "I'm safe", which the console counts). One in effect cannot be (409 alert_in_effect); one not theirs is unknown to them (404).
 */
describe('my unread count and dismissing an ended alert (real PostgreSQL)', () => {
  const api = new AlertsApi();
  const { call } = api;
  let admin: string;
  let me: string;
  let myId: string;
  let other: string;

  beforeAll(async () => {
    await api.start();
    admin = await api.admin();
    myId = randomUUID();
    me = await api.identity.token({ id: myId });
    other = await api.identity.token({ id: randomUUID() });
    for (const token of [me, other]) {
      expect((await call('PUT', '/me/preferences', token, { home: PHOENIX, radiusMiles: 25, alertTypes: ['weather'] })).status).toBe(200);
    }
  });

  afterAll(() => api.close());

  /** An alert sent by the admin and left as the dispatcher leaves it (dispatched, counted). */
  async function sent(title: string, where: { lat: number; lng: number } = PHOENIX) {
    const res = await call<AdminAlert>('POST', '', admin, {
      category: 'weather',
      severity: 'high',
      title,
      message: `${title}: details.`,
      channels: ['push'],
      lat: where.lat,
      lng: where.lng,
      radiusKm: 20,
    });
    expect(res.status).toBe(201);
    await api.db.query(`UPDATE alerts.alerts SET dispatched_at = now(), recipients = 0 WHERE id = $1`, [res.body.id]);
    return res.body.id;
  }

  const unread = async (token = me) => {
    const res = await call<UnreadCount>('GET', '/me/alerts/unread-count', token);
    expect(res.status).toBe(200);
    return res.body.count;
  };
  const feed = async () => (await call<Page<UserAlert>>('GET', '/me/alerts?pageSize=100', me)).body.items.map((a) => a.title).sort();
  const dismiss = (id: string, token = me) =>
    call<{ alertId?: string; dismissedAt?: string; code?: string; message?: string }>('POST', `/me/alerts/${id}/dismiss`, token);

  it('counts the alerts in effect I have not read; reading one, its all-clear, its expiry or its cancellation each take it off', async () => {
    expect(await unread()).toBe(0);
    const ids = {
      read: await sent('Count read'),
      cleared: await sent('Count cleared'),
      expired: await sent('Count expired'),
      cancelled: await sent('Count cancelled'),
      open: await sent('Count open'),
    };
    // far away: not in my feed, never counted
    await sent('Count far away', WELLINGTON);
    expect(await unread()).toBe(5);

    expect((await call('POST', `/me/alerts/${ids.read}/read`, me)).status).toBe(200);
    expect(await unread()).toBe(4);
    expect((await call('POST', `/${ids.cleared}/all-clear`, admin, { message: 'Over.' })).status).toBe(200);
    expect(await unread()).toBe(3);
    // past its expiry, whether or not the sweep ran yet
    await api.db.query(`UPDATE alerts.alerts SET expires_at = now() - interval '1 second' WHERE id = $1`, [ids.expired]);
    expect(await unread()).toBe(2);
    expect((await call('POST', `/${ids.cancelled}/cancel`, admin)).status).toBe(200);
    expect(await unread()).toBe(1);

    // the other person's count is their own: what I read is still unread for them, what ended is over for both
    expect(await unread(other)).toBe(2);
    expect((await call('GET', '/me/alerts/unread-count', null)).status).toBe(401);
  });

  it('counts an alert delivered to me that my preferences no longer cover, as my feed lists it', async () => {
    const far = await sent('Delivered far away', WELLINGTON);
    const before = await unread();
    await api.db.query(`INSERT INTO alerts.alert_deliveries (alert_id, user_id, channel, status) VALUES ($1, $2, 'push', 'sent')`, [far, myId]);
    expect(await unread()).toBe(before + 1);
    expect(await feed()).toContain('Delivered far away');
    expect((await call('POST', `/${far}/all-clear`, admin, {})).status).toBe(200);
    expect(await unread()).toBe(before);

    // dismissed: gone from my feed; neither a read mark nor a read delivery (not an "I'm safe")
    const res = await dismiss(far);
    expect(res.status).toBe(200);
    expect(await feed()).not.toContain('Delivered far away');
    const [delivery] = await api.db.query(`SELECT status FROM alerts.alert_deliveries WHERE alert_id = $1 AND user_id = $2`, [far, myId]);
    expect(delivery.status).toBe('sent');
    const safe = (await call<AdminAlert>('GET', `/${far}`, admin)).body.responses.safe;
    expect(safe).toBe(0);
  });

  it('dismisses an ended alert (all-clear, expired, cancelled): out of my feed, once, not counted safe', async () => {
    const ids = { cleared: await sent('Dismiss cleared'), expired: await sent('Dismiss expired'), cancelled: await sent('Dismiss cancelled') };
    expect((await call('POST', `/${ids.cleared}/all-clear`, admin, {})).status).toBe(200);
    await api.db.query(`UPDATE alerts.alerts SET expires_at = now() - interval '1 second' WHERE id = $1`, [ids.expired]);
    expect((await call('POST', `/${ids.cancelled}/cancel`, admin)).status).toBe(200);
    expect(await feed()).toEqual(expect.arrayContaining(['Dismiss cleared', 'Dismiss expired', 'Dismiss cancelled']));

    for (const id of Object.values(ids)) {
      const first = await dismiss(id);
      expect(first.status).toBe(200);
      expect(first.body).toEqual({ alertId: id, dismissedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
      // again: the same answer, nothing changed
      const again = await dismiss(id);
      expect(again.status).toBe(200);
      expect(again.body).toEqual(first.body);
      const [mark] = await api.db.query(`SELECT dismissed_at FROM alerts.alert_dismissals WHERE alert_id = $1 AND user_id = $2`, [id, myId]);
      expect(mark.dismissed_at.toISOString()).toBe(first.body.dismissedAt);
      const [reads] = await api.db.query(`SELECT count(*)::int AS n FROM alerts.alert_reads WHERE alert_id = $1`, [id]);
      expect(reads.n).toBe(0);
    }
    const titles = await feed();
    for (const title of ['Dismiss cleared', 'Dismiss expired', 'Dismiss cancelled']) expect(titles).not.toContain(title);
    // the other person still has them
    const theirs = (await call<Page<UserAlert>>('GET', '/me/alerts?pageSize=100', other)).body.items.map((a) => a.title);
    expect(theirs).toEqual(expect.arrayContaining(['Dismiss cleared', 'Dismiss expired', 'Dismiss cancelled']));
  });

  it('refuses an alert still in effect with 409 alert_in_effect, and one not mine or unknown with 404', async () => {
    const open = await sent('Still in effect');
    const res = await dismiss(open);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'alert_in_effect', message: expect.stringContaining('still in effect') });
    expect(await feed()).toContain('Still in effect');
    const [mark] = await api.db.query(`SELECT count(*)::int AS n FROM alerts.alert_dismissals WHERE alert_id = $1`, [open]);
    expect(mark.n).toBe(0);

    // ended far away, never delivered to me: not mine
    const far = await sent('Ended far away', WELLINGTON);
    expect((await call('POST', `/${far}/cancel`, admin)).status).toBe(200);
    expect((await dismiss(far)).body).toMatchObject({ statusCode: 404, code: 'alert_not_found' });
    expect((await dismiss(randomUUID())).body).toMatchObject({ statusCode: 404, code: 'alert_not_found' });
    expect((await dismiss('not-an-id')).body).toMatchObject({ statusCode: 404, code: 'alert_not_found' });
    expect((await call('POST', `/me/alerts/${far}/dismiss`, null)).status).toBe(401);
  });
});

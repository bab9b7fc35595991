import { randomUUID } from 'node:crypto';
import { io, Socket } from 'socket.io-client';
import type { AdminAlert, AlertSummary } from '@beacon/contracts';
import { jsonClient, RunningService, startTestService, waitFor } from '@beacon/testing';
import { gatewayService } from '../../../gateway/src/service';
import { alertsService } from '../service';
import { DispatchStack } from '../testing/dispatch-stack';

const MESA = { lat: 33.4152, lng: -111.8315 };

jest.setTimeout(90_000);

/**
 * Drafts are the admins' own (issue #36): nothing of one reaches the screens of the people in its area until it is
 * sent, not even its cancellation; and two admins editing the same draft never overwrite each other unseen.
 */
describe('drafts: private until sent, edits that never overwrite a colleague', () => {
  const stack = new DispatchStack();
  let alerts: RunningService<unknown>;
  let gateway: RunningService<unknown>;
  let firstAdmin: string;
  let secondAdmin: string;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    await stack.start();
    alerts = await startTestService(alertsService, stack.vars);
    gateway = await startTestService(gatewayService, stack.vars);
    firstAdmin = await stack.identity.token({ id: randomUUID(), email: 'first-admin@beacon.local', role: 'admin' });
    secondAdmin = await stack.identity.token({ id: randomUUID(), email: 'second-admin@beacon.local', role: 'admin' });
  });

  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await stack.close(gateway, alerts);
  });

  const call = jsonClient(() => alerts.url);

  /** A live connection to the gateway, with every `alert:updated` it is told, in order. */
  async function screenOf(token: string) {
    const socket = io(gateway.origin, { path: '/socket.io', auth: { token }, transports: ['websocket'], reconnection: false });
    sockets.push(socket);
    const updated: AlertSummary[] = [];
    socket.on('alert:updated', (s: AlertSummary) => updated.push(s));
    await new Promise<void>((resolve, reject) => {
      socket.on('connect', () => resolve());
      socket.on('connect_error', reject);
    });
    return updated;
  }

  /** Someone at home in Mesa who follows traffic alerts: every alert below concerns them. */
  async function resident() {
    const token = await stack.identity.token({ id: randomUUID(), email: `resident-${randomUUID().slice(0, 8)}@example.test` });
    const saved = await call('PUT', '/me/preferences', token, {
      alertTypes: ['traffic'],
      severityThreshold: 'low',
      home: MESA,
      radiusMiles: 50,
      methods: { push: false, sms: false, email: true },
    });
    expect(saved.status).toBe(200);
    return token;
  }

  const alertBody = (title: string, draft: boolean) => ({
    title,
    message: 'A wrong-way driver is heading west on US-60. Stay off the freeway.',
    category: 'traffic',
    severity: 'high',
    lat: MESA.lat,
    lng: MESA.lng,
    radiusKm: 10,
    channels: ['email'],
    draft,
  });

  async function create(title: string, draft: boolean) {
    const res = await call<AdminAlert>('POST', '', firstAdmin, alertBody(title, draft), { 'idempotency-key': randomUUID() });
    expect(res.status).toBe(201);
    return res.body;
  }

  it("a draft's edit and cancellation reach the admins' screens only; an active alert's cancellation reaches its area", async () => {
    const residentScreen = await screenOf(await resident());
    const adminScreen = await screenOf(firstAdmin);

    const draft = await create('Unsent draft: wrong-way driver on US-60', true);
    const edited = await call<AdminAlert>('POST', `/${draft.id}/update`, firstAdmin, {
      message: 'Unsent words: a wrong-way driver may be on US-60 near Mesa Drive.',
      revision: draft.revision,
    });
    expect(edited.status).toBe(200);
    expect((await call('POST', `/${draft.id}/cancel`, firstAdmin)).status).toBe(200);
    await waitFor('the admin screen told of the cancelled draft', () => adminScreen.find((s) => s.id === draft.id && s.status === 'cancelled'));

    // Then an alert that went out is cancelled: the resident's screen is told of it. Events reach a screen in order, so
    // once this one is there, anything about the draft would have arrived before it.
    const active = await create('Wrong-way driver on US-60', false);
    expect((await call('POST', `/${active.id}/cancel`, firstAdmin)).status).toBe(200);
    await waitFor('the resident screen told of the cancelled alert', () => residentScreen.find((s) => s.id === active.id && s.status === 'cancelled'));

    expect(residentScreen.filter((s) => s.id === draft.id)).toEqual([]);
    expect(JSON.stringify(residentScreen)).not.toContain('Unsent');
    expect(adminScreen.filter((s) => s.id === draft.id).map((s) => s.status)).toEqual(['draft', 'cancelled']);
  });

  it('two admins edit the same draft: the second, made on what they loaded before, is refused and the first stays', async () => {
    const draft = await create('Wrong-way driver reported on Loop 202', true);
    const [seenByFirst, seenBySecond] = await Promise.all([
      call<AdminAlert>('GET', `/${draft.id}`, firstAdmin),
      call<AdminAlert>('GET', `/${draft.id}`, secondAdmin),
    ]);
    expect(seenByFirst.body.revision).toBe(seenBySecond.body.revision);

    const first = await call<AdminAlert>('POST', `/${draft.id}/update`, firstAdmin, {
      title: 'Wrong-way driver on Loop 202 at Dobson Road',
      revision: seenByFirst.body.revision,
    });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ status: 'draft', version: 1, revision: seenByFirst.body.revision + 1 });

    const second = await call('POST', `/${draft.id}/update`, secondAdmin, {
      title: 'Wrong-way driver on Loop 202 near Price Road',
      revision: seenBySecond.body.revision,
    });
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({
      code: 'alert_edited_elsewhere',
      message: 'This draft was changed by someone else since you opened it. Reload to see their changes.',
    });
    // A draft's edit must say what it was made on.
    const blind = await call('POST', `/${draft.id}/update`, secondAdmin, { title: 'Wrong-way driver on Loop 202 near Price Road' });
    expect(blind.status).toBe(400);
    expect(blind.body).toMatchObject({ code: 'revision_required' });

    const now = await call<AdminAlert>('GET', `/${draft.id}`, secondAdmin);
    expect(now.body).toMatchObject({ title: 'Wrong-way driver on Loop 202 at Dobson Road', revision: first.body.revision });
    const audit = await stack.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM alerts.alert_audit WHERE alert_id = $1 AND action = 'updated'`, [
      draft.id,
    ]);
    expect(audit).toEqual([{ n: 1 }]);

    // Reloaded, the second admin's edit goes.
    const retried = await call<AdminAlert>('POST', `/${draft.id}/update`, secondAdmin, {
      title: 'Wrong-way driver on Loop 202 near Price Road',
      revision: now.body.revision,
    });
    expect(retried.status).toBe(200);
    expect(retried.body.revision).toBe(now.body.revision + 1);
  });

  it("a write of another feature (a CAP feed replacing the draft's text) moves the revision too", async () => {
    const draft = await create('Flood warning for the Salt River', true);
    await stack.db.query(`UPDATE alerts.alerts SET message = 'The feed replaced this text.', updated_at = now() WHERE id = $1`, [draft.id]);
    const stale = await call('POST', `/${draft.id}/update`, firstAdmin, { title: 'Flood warning: Salt River crossings closed', revision: draft.revision });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ code: 'alert_edited_elsewhere' });
    // The dispatcher's bookkeeping is no edit: it leaves the revision alone.
    const before = (await call<AdminAlert>('GET', `/${draft.id}`, firstAdmin)).body.revision;
    await stack.db.query(`UPDATE alerts.alerts SET concerned = 3 WHERE id = $1`, [draft.id]);
    expect((await call<AdminAlert>('GET', `/${draft.id}`, firstAdmin)).body.revision).toBe(before);
  });
});

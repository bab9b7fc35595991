import { readFileSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import {
  AdminAlert,
  AlertAudience,
  AlertAuditEntry,
  ApiErrorBody,
  AUDIENCE_TOKEN_HEADER,
  ApprovalPolicy,
  CapPollResult,
  CapSource,
  DEFAULT_APPROVAL_POLICY,
  JOB_QUEUE,
  JobIds,
  JobName,
  Page,
  PreferenceAlertType,
  queuePrefix,
  Role,
} from '@beacon/contracts';
import { destination } from '@beacon/geo';
import { AlertsApi } from '../testing/alerts-api';
import type { AlertsEnv } from '../config/env.dto';

jest.setTimeout(120_000);

/** A sender of official warnings on 127.0.0.1: one CAP document at a time (`doc`, a fixture sent a minute ago). */
class CapFeed {
  private server: Server;
  url = '';
  doc = 'tornado-warning.xml';

  async start() {
    const capTime = (d: Date) => `${d.toISOString().slice(0, 19)}+00:00`;
    const sent = capTime(new Date(Date.now() - 60_000));
    const expires = capTime(new Date(Date.now() + 6 * 3600_000));
    this.server = createServer((_req, res) => {
      const body = readFileSync(join(__dirname, '../cap-sources/fixtures', this.doc), 'utf8')
        .replaceAll('{{SENT}}', sent)
        .replaceAll('{{REF_SENT}}', sent)
        .replaceAll('{{EXPIRES}}', expires);
      res.writeHead(200, { 'content-type': 'application/cap+xml' }).end(body);
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/cap.xml`;
  }

  close() {
    return new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }
}

/**
 * Two-person approval (issue 38) through the alerts API on a real database and Redis: the policy, the first send held
 * (202), approval by someone other than the author (sent: its dispatch queued), rejection with a reason, break-glass,
 * a CAP source's automatic send held, and an approval racing a rejection or a cancel.
 */
describe('approval of an alert before it goes out', () => {
  const api = new AlertsApi();
  const feed = new CapFeed();
  let dispatchQueue: Queue;
  const people = {} as Record<'author' | 'approver' | 'approver2' | 'publisher' | 'viewer' | 'admin', { id: string; email: string; token: string }>;

  beforeAll(async () => {
    await feed.start();
    await api.start({ CAP_SOURCE_ALLOW_HOSTS: '127.0.0.1', CAP_POLL_TICK_SECONDS: '0' });
    const roles: Record<keyof typeof people, Role> = {
      // the author is an approver too: only then is "not your own alert" the rule that refuses them, not their role
      author: 'approver',
      approver: 'approver',
      approver2: 'approver',
      publisher: 'publisher',
      viewer: 'viewer',
      admin: 'admin',
    };
    for (const [name, role] of Object.entries(roles) as [keyof typeof people, Role][]) {
      const id = randomUUID();
      const email = `${name}@beacon.local`;
      people[name] = { id, email, token: await api.identity.token({ id, email, role }) };
    }
    const env = api.service.env as AlertsEnv;
    dispatchQueue = new Queue(JOB_QUEUE[JobName.AlertDispatch], { connection: { url: env.REDIS_URL } as never, prefix: queuePrefix(env.REDIS_PREFIX) });
  });

  afterAll(async () => {
    await dispatchQueue?.close();
    await api.close();
    await feed.close();
  });

  const call = api.call;
  const policy = (p: Partial<ApprovalPolicy>) => call<ApprovalPolicy>('PUT', '/admin/settings/approval', people.admin.token, p);
  const alertBody = (severity: string, extra: Record<string, unknown> = {}) => ({
    title: `A ${severity} warning`,
    message: 'Stay away from the river banks until further notice.',
    category: 'weather',
    severity,
    channels: ['push'],
    lat: 33.4255,
    lng: -111.94,
    radiusKm: 10,
    ...extra,
  });
  const create = (severity: string, token = people.author.token, extra: Record<string, unknown> = {}) =>
    call<AdminAlert>('POST', '', token, alertBody(severity, extra));
  const pending = async (severity = 'high', token = people.author.token) => {
    const res = await create(severity, token);
    expect(res.status).toBe(202);
    return res.body;
  };
  const dispatchQueued = async (id: string) => !!(await dispatchQueue.getJob(JobIds.dispatch(id)));
  const trail = async (id: string) => (await call<AlertAuditEntry[]>('GET', `/${id}/audit`, people.viewer.token)).body;
  const actionsOf = async (id: string) => (await trail(id)).map((e) => e.action);

  it('is off by default: a viewer reads the policy, only an admin changes it, and bad values are refused', async () => {
    const read = await call<ApprovalPolicy>('GET', '/admin/settings/approval', people.viewer.token);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(DEFAULT_APPROVAL_POLICY);
    expect((await call('GET', '/admin/settings/approval', await api.identity.token({}))).status).toBe(403);
    expect((await call('PUT', '/admin/settings/approval', people.approver.token, { mode: 'all' })).status).toBe(403);
    for (const bad of [{ mode: 'sometimes' }, { minSeverity: 'extreme' }, { capAutomatic: 'yes' }, { mode: 'all', extra: 1 }]) {
      const res = await call('PUT', '/admin/settings/approval', people.admin.token, bad);
      expect([res.status, res.body.code]).toEqual([400, 'validation_failed']);
    }
    expect((await call<ApprovalPolicy>('GET', '/admin/settings/approval', people.viewer.token)).body.mode).toBe('off');
  });

  it('with the policy off, a send goes out at once as before: 201, active, its dispatch queued, the author named', async () => {
    const res = await create('critical', people.publisher.token);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'active', approval: null, breakGlass: null, sendAt: null, createdBy: people.publisher.id });
    expect(res.body.createdByEmail).toBe(people.publisher.email);
    expect(await dispatchQueued(res.body.id)).toBe(true);
    expect(await actionsOf(res.body.id)).toEqual(['created', 'sent']);
  });

  it('holds a send at or above the severity (202, awaiting approval, nothing queued); its author cannot approve it, another approver can', async () => {
    const saved = await policy({ mode: 'severity', minSeverity: 'high' });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ mode: 'severity', minSeverity: 'high', capAutomatic: false, updatedBy: people.admin.email });
    expect(saved.body.updatedAt).not.toBeNull();

    // below the severity: as before
    const below = await create('medium');
    expect([below.status, below.body.status]).toEqual([201, 'active']);

    const alert = await pending('high');
    expect(alert).toMatchObject({
      status: 'pending_approval',
      createdByEmail: people.author.email,
      approval: { reason: 'severity', requestedBy: people.author.id, requestedByEmail: people.author.email, decision: null, decidedBy: null },
    });
    expect(await dispatchQueued(alert.id)).toBe(false);
    expect(await api.db.query(`SELECT 1 FROM alerts.dispatch_outbox WHERE alert_id = $1`, [alert.id])).toHaveLength(0);
    const requested = (await trail(alert.id)).find((e) => e.action === 'approval_requested');
    expect(requested).toMatchObject({ actorId: people.author.id, details: { reason: 'severity' } });

    // the author, though an approver; a publisher (not an approver) by their role
    const own = await call('POST', `/${alert.id}/approve`, people.author.token, {});
    expect([own.status, own.body.code]).toEqual([403, 'approval_by_author']);
    expect((await call('POST', `/${alert.id}/approve`, people.publisher.token, {})).status).toBe(403);
    expect((await call('POST', `/${alert.id}/approve`, people.approver.token, { note: 'x'.repeat(501) })).status).toBe(400);
    expect(await dispatchQueued(alert.id)).toBe(false);

    const approved = await call<AdminAlert>('POST', `/${alert.id}/approve`, people.approver.token, { note: 'Checked the gauge readings' });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({
      status: 'active',
      approval: { decision: 'approved', decidedBy: people.approver.id, decidedByEmail: people.approver.email, note: 'Checked the gauge readings' },
    });
    expect(approved.body.sentAt).not.toBeNull();
    expect(await dispatchQueued(alert.id)).toBe(true);
    const entries = await trail(alert.id);
    expect(entries.map((e) => e.action)).toEqual(['created', 'approval_requested', 'approved', 'sent']);
    expect(entries[2]).toMatchObject({ actorId: people.approver.id, actorEmail: people.approver.email, details: { note: 'Checked the gauge readings' } });

    const again = await call('POST', `/${alert.id}/approve`, people.approver2.token, {});
    expect([again.status, again.body.code]).toEqual([409, 'invalid_alert_status']);
  });

  it('a rejection needs a reason, sends the alert back to a draft with it, and a new send asks again', async () => {
    const alert = await pending('critical');
    for (const reason of [undefined, '', 'too short', ' '.repeat(30)]) {
      const res = await call('POST', `/${alert.id}/reject`, people.approver.token, reason === undefined ? {} : { reason });
      expect([res.status, res.body.code]).toEqual([400, 'approval_reason_required']);
    }
    const own = await call('POST', `/${alert.id}/reject`, people.author.token, { reason: 'I changed my mind about it' });
    expect([own.status, own.body.code]).toEqual([403, 'approval_by_author']);

    const reason = 'The river gauge upstream is misreporting';
    const rejected = await call<AdminAlert>('POST', `/${alert.id}/reject`, people.approver.token, { reason });
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({ status: 'draft', sentAt: null, approval: { decision: 'rejected', decidedBy: people.approver.id, note: reason } });
    expect(await dispatchQueued(alert.id)).toBe(false);
    expect((await trail(alert.id)).find((e) => e.action === 'rejected')).toMatchObject({ actorId: people.approver.id, details: { reason } });

    const resent = await call<AdminAlert>('POST', `/${alert.id}/send`, people.publisher.token, {});
    expect(resent.status).toBe(202);
    expect(resent.body).toMatchObject({ status: 'pending_approval', approval: { requestedBy: people.publisher.id, decision: null, note: null } });
    // the author of the alert still may not approve what someone else sent
    expect((await call('POST', `/${alert.id}/approve`, people.author.token, {})).body.code).toBe('approval_by_author');
    expect((await call('POST', `/${alert.id}/approve`, people.approver2.token, {})).status).toBe(200);
  });

  it('break-glass sends at once on a typed reason, flagged on the alert and in its audit trail; never from a viewer', async () => {
    const alert = await pending('high', people.publisher.token);
    expect((await call('POST', `/${alert.id}/break-glass`, people.viewer.token, { reason: 'A tornado is on the ground now' })).status).toBe(403);
    const short = await call('POST', `/${alert.id}/break-glass`, people.publisher.token, { reason: 'now!' });
    expect([short.status, short.body.code]).toEqual([400, 'break_glass_reason_required']);
    expect(await dispatchQueued(alert.id)).toBe(false);

    const reason = 'A tornado is on the ground and no approver answers';
    const sent = await call<AdminAlert>('POST', `/${alert.id}/break-glass`, people.publisher.token, { reason });
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ status: 'active', breakGlass: { by: people.publisher.id, byEmail: people.publisher.email, reason } });
    expect(sent.body.breakGlass!.at).toEqual(expect.any(String));
    expect(await dispatchQueued(alert.id)).toBe(true);
    const entries = await trail(alert.id);
    expect(entries.map((e) => e.action)).toEqual(['created', 'approval_requested', 'break_glass', 'sent']);
    expect(entries[2]).toMatchObject({ actorId: people.publisher.id, details: { reason } });
    const again = await call('POST', `/${alert.id}/break-glass`, people.publisher.token, { reason });
    expect([again.status, again.body.code]).toEqual([409, 'invalid_alert_status']);
  });

  it("holds a draft's send and a scheduled one; approved ahead of its time, it is scheduled, not sent", async () => {
    await policy({ mode: 'all' });
    const draft = await create('low', people.publisher.token, { draft: true });
    expect(draft.status).toBe(201);
    const sendAt = new Date(Date.now() + 3600_000).toISOString();
    const held = await call<AdminAlert>('POST', `/${draft.body.id}/send`, people.publisher.token, { sendAt });
    expect(held.status).toBe(202);
    expect(held.body).toMatchObject({ status: 'pending_approval', sendAt, approval: { reason: 'all' } });
    expect((await trail(draft.body.id)).find((e) => e.action === 'approval_requested')?.details).toEqual({ reason: 'all', sendAt });

    const approved = await call<AdminAlert>('POST', `/${draft.body.id}/approve`, people.approver.token, {});
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ status: 'scheduled', sendAt, sentAt: null, approval: { decision: 'approved' } });
    expect(await dispatchQueued(draft.body.id)).toBe(false);
    expect((await actionsOf(draft.body.id)).slice(-2)).toEqual(['approved', 'scheduled']);
  });

  it('of an approval and a rejection at the same time, exactly one wins and the other is told 409', async () => {
    await policy({ mode: 'all' });
    for (let i = 0; i < 4; i++) {
      const alert = await pending('medium');
      const [approve, reject] = await Promise.all([
        call('POST', `/${alert.id}/approve`, people.approver.token, {}),
        call('POST', `/${alert.id}/reject`, people.approver2.token, { reason: 'Not for this area, wrong county' }),
      ]);
      expect([approve.status, reject.status].sort()).toEqual([200, 409]);
      expect((approve.status === 409 ? approve : reject).body.code).toBe('invalid_alert_status');
      const final = (await call<AdminAlert>('GET', `/${alert.id}`, people.viewer.token)).body;
      expect(final.status).toBe(approve.status === 200 ? 'active' : 'draft');
      expect(final.approval?.decision).toBe(approve.status === 200 ? 'approved' : 'rejected');
      expect(await dispatchQueued(alert.id)).toBe(approve.status === 200);
      expect((await actionsOf(alert.id)).filter((a) => a === 'approved' || a === 'rejected')).toHaveLength(1);
    }
  });

  it('a cancel at the same time as an approval: cancelled first, the approval is refused and nothing goes out', async () => {
    await policy({ mode: 'all' });
    for (let i = 0; i < 4; i++) {
      const alert = await pending('medium');
      const [approve, cancel] = await Promise.all([
        call('POST', `/${alert.id}/approve`, people.approver.token, {}),
        call('POST', `/${alert.id}/cancel`, people.publisher.token),
      ]);
      // the cancel always stands: of an alert still waiting, or of the alert the approval just sent (then ended at once)
      expect(cancel.status).toBe(200);
      expect((await call<AdminAlert>('GET', `/${alert.id}`, people.viewer.token)).body.status).toBe('cancelled');
      const actions = await actionsOf(alert.id);
      if (approve.status === 409) {
        expect(approve.body.code).toBe('invalid_alert_status');
        expect(actions).toEqual(['created', 'approval_requested', 'cancelled']);
        expect(await dispatchQueued(alert.id)).toBe(false);
      } else {
        expect(approve.status).toBe(200);
        expect(actions).toEqual(['created', 'approval_requested', 'approved', 'sent', 'cancelled']);
      }
    }
    // and one cancelled before any approval is never approved
    const alert = await pending('medium');
    expect((await call('POST', `/${alert.id}/cancel`, people.publisher.token)).status).toBe(200);
    const late = await call('POST', `/${alert.id}/approve`, people.approver.token, {});
    expect([late.status, late.body.code]).toEqual([409, 'invalid_alert_status']);
    expect(await dispatchQueued(alert.id)).toBe(false);
  });

  it("holds a CAP source's automatic send under capAutomatic: any approver may approve it; its update waits, its cancel ends it", async () => {
    await policy({ mode: 'off', capAutomatic: true });
    // Two sources following the same feed: each takes the same warning as an alert of its own.
    const pollNew = async (name: string) => {
      const source = await call<CapSource>('POST', '/admin/cap-sources', people.admin.token, {
        name,
        url: feed.url,
        intervalSeconds: 60,
        mode: 'send',
        channels: ['push'],
      });
      expect(source.status).toBe(201);
      const poll = () => call<CapPollResult>('POST', `/admin/cap-sources/${source.body.id}/poll`, people.admin.token);
      expect((await poll()).body).toMatchObject({ created: 1 });
      const list = await call<Page<AdminAlert>>('GET', '?pageSize=100', people.viewer.token);
      const ids = new Set(
        (await api.db.query<{ alert_id: string }>(`SELECT alert_id FROM alerts.cap_source_messages WHERE source_id = $1`, [source.body.id])).map(
          (r) => r.alert_id,
        ),
      );
      return { alert: list.body.items.find((a) => ids.has(a.id))!, poll };
    };
    feed.doc = 'tornado-warning.xml';
    const first = await pollNew('Test NWS office');
    expect(first.alert).toMatchObject({ status: 'pending_approval', createdBy: null, approval: { reason: 'cap', requestedBy: null, decision: null } });
    expect(await dispatchQueued(first.alert.id)).toBe(false);
    const approved = await call<AdminAlert>('POST', `/${first.alert.id}/approve`, people.approver.token, {});
    expect([approved.status, approved.body.status]).toEqual([200, 'active']);
    expect(await dispatchQueued(first.alert.id)).toBe(true);

    const second = await pollNew('Test NWS office, again');
    expect(second.alert.status).toBe('pending_approval');
    feed.doc = 'tornado-update.xml';
    expect((await second.poll()).body).toMatchObject({ updated: 0 });
    expect(await call<AdminAlert>('GET', `/${second.alert.id}`, people.viewer.token).then((r) => [r.body.status, r.body.title])).toEqual([
      'pending_approval',
      second.alert.title,
    ]);
    feed.doc = 'tornado-cancel.xml';
    expect((await second.poll()).body).toMatchObject({ cancelled: 1 });
    expect((await call<AdminAlert>('GET', `/${second.alert.id}`, people.viewer.token)).body.status).toBe('cancelled');
    expect(await dispatchQueued(second.alert.id)).toBe(false);
  });
  // ---------------------------------------------------------------- approving is a send: the audience guard (issue #38)

  /** Places of their own, 300 km apart and away from the other tests' alerts, so each test's counts are its own. */
  let places = 0;
  const newPlace = () => destination({ lat: 40.2, lng: -104.9 }, 300 * ++places, 90);
  let phones = 0;
  /** Someone at `home` who follows weather alerts by SMS. */
  const subscriber = async (home: { lat: number; lng: number }) => {
    const token = await api.identity.token({ id: randomUUID(), email: `reader-${randomUUID().slice(0, 8)}@example.test` });
    const saved = await call('PUT', '/me/preferences', token, {
      alertTypes: ['weather'] as PreferenceAlertType[],
      severityThreshold: 'low',
      home,
      radiusMiles: 25,
      methods: { push: false, sms: true, email: false, voice: true },
      phoneNumber: `+1720555${String(++phones).padStart(4, '0')}`,
    });
    expect(saved.status).toBe(200);
  };
  const withToken = (token: string) => ({ [AUDIENCE_TOKEN_HEADER]: token });
  const countOf = async (id: string, token: string, query = '') => {
    const res = await call<AlertAudience>('GET', `/${id}/audience${query}`, token);
    expect(res.status).toBe(200);
    return res.body;
  };
  /** A 409 of the guard: its code, and the audience as it is now (with a token to send on). */
  const refused = (res: { status: number; body: unknown }, code: string, message?: string) => {
    const body = res.body as ApiErrorBody & { details: { audience: AlertAudience } };
    expect([res.status, body.code]).toEqual([409, code]);
    if (message) expect(body.message).toBe(message);
    expect(body.details.audience.token).toEqual(expect.any(String));
    return body.details.audience;
  };
  const statusOf = async (id: string) => (await call<AdminAlert>('GET', `/${id}`, people.viewer.token)).body.status;

  it('approving sends: counted as a draft is, a stale count is refused with the new one and it stays pending; the fresh one sends', async () => {
    await policy({ mode: 'all', capAutomatic: false });
    const place = newPlace();
    await subscriber(place);
    const body = alertBody('high', { lat: place.lat, lng: place.lng, channels: ['sms'], draft: true });
    const draft = (await call<AdminAlert>('POST', '', people.author.token, body)).body;
    const ofDraft = await countOf(draft.id, people.author.token);
    expect((await call('POST', `/${draft.id}/send`, people.author.token, {})).status).toBe(202);

    const counted = await countOf(draft.id, people.approver.token);
    expect(counted).toMatchObject({ recipients: 1, concerned: 1, channels: { sms: { recipients: 1 } } });
    await subscriber(place); // someone subscribes while the approver reads

    const stale = await call('POST', `/${draft.id}/approve`, people.approver.token, { note: 'Checked' }, withToken(counted.token));
    const fresh = refused(
      stale,
      'audience_changed',
      'The audience changed since you checked: this alert would now reach 2 people, not 1. Check and send again.',
    );
    expect(fresh).toMatchObject({ recipients: 2, channels: { sms: { recipients: 2 } } });
    expect(await statusOf(draft.id)).toBe('pending_approval');
    expect(await dispatchQueued(draft.id)).toBe(false);
    expect(await actionsOf(draft.id)).not.toContain('approved');

    // the author is refused as the author, whatever their token says; the draft's count was of another request
    const own = await call('POST', `/${draft.id}/approve`, people.author.token, {}, withToken(fresh.token));
    expect([own.status, own.body.code]).toEqual([403, 'approval_by_author']);
    refused(await call('POST', `/${draft.id}/approve`, people.approver.token, {}, withToken(ofDraft.token)), 'audience_preview_mismatch');
    const forged = await call('POST', `/${draft.id}/approve`, people.approver.token, {}, withToken('not-a-token'));
    expect([forged.status, forged.body.code]).toEqual([400, 'invalid_audience_token']);
    expect(await statusOf(draft.id)).toBe('pending_approval');

    const approved = await call<AdminAlert>('POST', `/${draft.id}/approve`, people.approver.token, { note: 'Checked' }, withToken(fresh.token));
    expect([approved.status, approved.body.status]).toEqual([200, 'active']);
    expect(approved.body.approval).toMatchObject({ decision: 'approved', decidedBy: people.approver.id, note: 'Checked' });
    expect(await dispatchQueued(draft.id)).toBe(true);
    // sent: nothing more to count for its first send, and a token for it approves nothing
    expect((await call('GET', `/${draft.id}/audience`, people.approver.token)).body.code).toBe('invalid_alert_status');
    const late = await call('POST', `/${draft.id}/approve`, people.approver2.token, {}, withToken(fresh.token));
    expect([late.status, late.body.code]).toEqual([409, 'invalid_alert_status']);
  });

  it('break-glass sends too: the reason first, then the count; an alert for everyone is counted with everyone=true', async () => {
    await policy({ mode: 'all', capAutomatic: false });
    const res = await create('critical', people.publisher.token, { lat: undefined, lng: undefined, radiusKm: undefined, everyone: true, channels: ['sms'] });
    expect(res.status).toBe(202);
    const alert = res.body;
    const noChoice = await call('GET', `/${alert.id}/audience`, people.publisher.token);
    expect([noChoice.status, noChoice.body.code]).toEqual([400, 'area_required']);
    const counted = await countOf(alert.id, people.publisher.token, '?everyone=true');
    await subscriber(newPlace()); // anywhere: everyone is everywhere

    const reason = 'The chlorine cloud is moving and no approver answers';
    const short = await call('POST', `/${alert.id}/break-glass`, people.publisher.token, { reason: 'now!' }, withToken(counted.token));
    expect([short.status, short.body.code]).toEqual([400, 'break_glass_reason_required']);
    const fresh = refused(await call('POST', `/${alert.id}/break-glass`, people.publisher.token, { reason }, withToken(counted.token)), 'audience_changed');
    expect(fresh.recipients).toBe(counted.recipients + 1);
    expect(await statusOf(alert.id)).toBe('pending_approval');
    expect(await actionsOf(alert.id)).not.toContain('break_glass');

    const sent = await call<AdminAlert>('POST', `/${alert.id}/break-glass`, people.publisher.token, { reason }, withToken(fresh.token));
    expect([sent.status, sent.body.status]).toEqual([200, 'active']);
    expect(sent.body.breakGlass).toMatchObject({ by: people.publisher.id, reason });
    expect(await dispatchQueued(alert.id)).toBe(true);
  });

  it('counts a scheduled alert as it would go out now; approved ahead of its time with a token, it is scheduled', async () => {
    await policy({ mode: 'all', capAutomatic: false });
    const place = newPlace();
    await subscriber(place);
    const sendAt = new Date(Date.now() + 3600_000).toISOString();
    const held = await create('medium', people.author.token, { lat: place.lat, lng: place.lng, channels: ['sms'], sendAt });
    expect([held.status, held.body.status]).toEqual([202, 'pending_approval']);
    const counted = await countOf(held.body.id, people.approver.token);
    expect(counted.recipients).toBe(1);
    const approved = await call<AdminAlert>('POST', `/${held.body.id}/approve`, people.approver.token, {}, withToken(counted.token));
    expect([approved.status, approved.body.status]).toEqual([200, 'scheduled']);
    expect(await dispatchQueued(held.body.id)).toBe(false);
    expect((await countOf(held.body.id, people.publisher.token)).recipients).toBe(1);
  });
});

import { randomUUID } from 'node:crypto';
import { AlertAuditEntry, Role, TEST_MARKER, TestGroup, TestGroupMembership, TestSchedule } from '@beacon/contracts';
import { jsonClient, RunningService, startTestService, waitFor } from '@beacon/testing';
import { alertsService } from '../service';
import { dispatcherService } from '../dispatcher.service';
import { SweepHandler } from '../maintenance/sweep.handler';
import { DispatchStack } from '../testing/dispatch-stack';
import { validateCap } from '../testing/cap-schema';
import type { ReceivedMail } from '../testing/fake-smtp';

jest.setTimeout(180_000);

const NY = 'America/New_York';

/** What a reader of the mail sees: its Subject with RFC 2047 words decoded, and its text/plain part. */
function readMail(m: ReceivedMail): { subject: string; text: string } {
  const bytes = (s: string) =>
    Buffer.from(
      s.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
      'latin1',
    );
  const word = (_: string, enc: string, text: string) =>
    (enc.toUpperCase() === 'B' ? Buffer.from(text, 'base64') : bytes(text.replace(/_/g, ' '))).toString('utf8');
  const subject = (m.subject ?? '').replace(/=\?utf-8\?([bq])\?(.*?)\?=\s*/gi, word);
  // the text/plain part: its headers, a blank line, then the body up to the next boundary
  const part = /Content-Type: text\/plain[^]*?\r?\n\r?\n([^]*?)\r?\n--/i.exec(m.raw);
  const headers = /Content-Type: text\/plain[^]*?\r?\n\r?\n/i.exec(m.raw)![0];
  const body = part![1];
  const text = /base64/i.test(headers) ? Buffer.from(body, 'base64').toString('utf8') : bytes(body).toString('utf8');
  return { subject, text: text.replace(/\r\n/g, '\n') };
}

/**
 * The recurring test alert to the staff test group (issue #38) on the API and the dispatcher over real PostgreSQL,
 * Redis and fake providers: staff opt themselves in, an admin schedules it, the sweep sends each run once (two
 * dispatchers sweeping at once, and after a restart), to the opted-in staff only, marked TEST on every channel, with a
 * CAP message of status Test. The clock is the database's: a run comes due by moving next_run_at into the past.
 */
describe('the recurring test alert', () => {
  const stack = new DispatchStack();
  let alerts: RunningService<unknown>;
  let dispatchers: RunningService<unknown>[] = [];
  const call = jsonClient(() => alerts.url);

  interface Person {
    id: string;
    email: string;
    token: string;
    phone: string;
    subscriptionId: string | null;
  }
  const people: Record<string, Person> = {};

  /** A person of `role` whose preferences reach them on `methods` (push: a browser subscribed to the fake service). */
  async function person(name: string, role: Role, methods: { push?: boolean; sms?: boolean; email?: boolean }, phone: string): Promise<Person> {
    const id = randomUUID();
    const email = `${name}@beacon.test`;
    const token = await stack.identity.token({ id, email, role });
    const prefs = { alertTypes: ['weather'], methods: { push: false, sms: false, email: false, ...methods }, phoneNumber: phone };
    expect((await call('PUT', '/me/preferences', token, prefs)).status).toBe(200);
    let subscriptionId: string | null = null;
    if (methods.push) {
      const sub = stack.push.subscribe();
      expect((await call('POST', '/me/push-subscriptions', token, sub.json)).status).toBe(201);
      subscriptionId = sub.id;
    }
    return (people[name] = { id, email, token, phone, subscriptionId });
  }

  const startDispatchers = async (n: number) => {
    dispatchers = [];
    for (let i = 0; i < n; i++) dispatchers.push(await startTestService(dispatcherService, stack.vars));
  };

  beforeAll(async () => {
    // A long interval: the schedulers' own sweeps stay out of the way, and the test sweeps itself.
    await stack.start({ PUBLIC_URL: 'http://localhost:8080', SWEEP_INTERVAL_SECONDS: '3600' });
    alerts = await startTestService(alertsService, stack.vars);
    await startDispatchers(2);
    await person('admin', 'admin', { push: true, sms: true, email: true }, '+16025550101');
    await person('viewer', 'viewer', { sms: true }, '+16025550102');
    await person('publisher', 'publisher', { email: true }, '+16025550103');
    // staff who never opt in, and a member of the public: never sent a test
    await person('approver', 'approver', { push: true, sms: true, email: true }, '+16025550104');
    await person('resident', 'user', { push: true, sms: true, email: true }, '+16025550105');
  });

  afterAll(async () => {
    await stack.close(...dispatchers, alerts);
  });

  const schedule = async () => (await call<TestSchedule>('GET', '/admin/settings/test-schedule', people.admin.token)).body;
  const setSchedule = (body: Record<string, unknown>, who = people.admin) => call<TestSchedule>('PUT', '/admin/settings/test-schedule', who.token, body);
  const group = async () => (await call<TestGroup>('GET', '/admin/test-group', people.admin.token)).body;
  const optIn = (who: Person, member: boolean) => call<TestGroupMembership>('PUT', '/admin/test-group/me', who.token, { member });
  const comeDue = () => stack.db.query(`UPDATE alerts.test_schedule SET next_run_at = now() - interval '1 second'`);
  const sweepAll = () => Promise.all(dispatchers.map((d) => d.app.get(SweepHandler).sweep()));
  const testAlertsOfSchedule = async (): Promise<string[]> =>
    (await stack.db.query(`SELECT id FROM alerts.alerts WHERE source = 'test' AND created_by IS NULL ORDER BY created_at`)).map((r: { id: string }) => r.id);
  const deliveries = (alertId: string): Promise<{ user_id: string; channel: string; status: string }[]> =>
    stack.db.query(`SELECT user_id, channel, status FROM alerts.alert_deliveries WHERE alert_id = $1 ORDER BY user_id, channel`, [alertId]);
  const allSent = (alertId: string, n: number) =>
    waitFor(`the ${n} deliveries sent`, async () => {
      const rows = await deliveries(alertId);
      return rows.length === n && rows.every((d) => d.status === 'sent' || d.status === 'delivered') ? rows : null;
    });
  /** Local weekday and HH:MM of an instant in `timeZone`. */
  const localWhen = (iso: string, timeZone: string) =>
    new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'long', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(iso));
  const nameOf = (userId: string) => Object.entries(people).find(([, p]) => p.id === userId)?.[0] ?? userId;
  const capOf = (id: string, token: string | null) =>
    fetch(`${alerts.url}/admin/test-alerts/${id}/cap.xml`, { headers: token ? { authorization: `Bearer ${token}` } : {} });

  it('is off by default; an admin schedules it weekly at a local time in a time zone, and sees the next run', async () => {
    expect(await schedule()).toMatchObject({ frequency: 'off', nextRunAt: null, lastRun: null, channels: [] });
    // only an admin reads or changes it
    expect((await call('GET', '/admin/settings/test-schedule', people.viewer.token)).status).toBe(403);
    expect((await setSchedule({ frequency: 'daily', channels: ['sms'] }, people.publisher)).status).toBe(403);

    const refused: [Record<string, unknown>, string][] = [
      [{ frequency: 'weekly', weekday: 3, time: '10:00', timeZone: 'Mars/Olympus', channels: ['sms'] }, 'invalid_time_zone'],
      [{ frequency: 'weekly', weekday: 3, time: '10:00', timeZone: NY, channels: [] }, 'test_channels_required'],
      [{ frequency: 'weekly', weekday: 7, time: '10:00', timeZone: NY, channels: ['sms'] }, 'validation_failed'],
      [{ frequency: 'weekly', weekday: 3, time: '24:00', timeZone: NY, channels: ['sms'] }, 'validation_failed'],
      [{ frequency: 'hourly', channels: ['sms'] }, 'validation_failed'],
      [{ frequency: 'daily', channels: ['pager'] }, 'validation_failed'],
    ];
    for (const [body, code] of refused) {
      const res = await setSchedule(body);
      expect([res.status, res.body, body]).toEqual([400, expect.objectContaining({ code }), body]);
    }
    // a channel turned off in the settings cannot be tested
    expect((await call('PUT', '/admin/settings', people.admin.token, { email: { enabled: false } })).status).toBe(200);
    const off = await setSchedule({ frequency: 'daily', time: '09:00', timeZone: NY, channels: ['sms', 'email'] });
    expect([off.status, off.body]).toEqual([
      400,
      expect.objectContaining({ code: 'test_channel_disabled', message: expect.stringMatching(/^Email is turned off/) }),
    ]);
    expect((await call('PUT', '/admin/settings', people.admin.token, { email: { enabled: true } })).status).toBe(200);
    expect((await schedule()).frequency).toBe('off');

    const saved = await setSchedule({ frequency: 'weekly', weekday: 3, time: '10:00', timeZone: NY, channels: ['push', 'sms', 'email'] });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({
      frequency: 'weekly',
      weekday: 3,
      time: '10:00',
      timeZone: NY,
      channels: ['push', 'sms', 'email'],
      updatedBy: 'admin@beacon.test',
    });
    const next = saved.body.nextRunAt!;
    expect(Date.parse(next)).toBeGreaterThan(Date.now());
    expect(Date.parse(next)).toBeLessThanOrEqual(Date.now() + 7 * 24 * 3600_000);
    expect(localWhen(next, NY)).toBe('Wednesday 10:00');
    expect(await schedule()).toEqual(saved.body);
  });

  it('has the staff who opted themselves in as its audience; an admin sees the list and can take someone out', async () => {
    // a member of the public is not staff
    expect((await optIn(people.resident, true)).status).toBe(403);
    expect((await call('PUT', '/admin/test-group/me', people.viewer.token, {})).body.code).toBe('validation_failed');

    for (const who of [people.admin, people.viewer, people.publisher]) {
      const res = await optIn(who, true);
      expect([res.status, res.body.member]).toEqual([200, true]);
    }
    expect((await call<TestGroupMembership>('GET', '/admin/test-group/me', people.viewer.token)).body).toMatchObject({
      member: true,
      joinedAt: expect.any(String),
    });
    expect((await call<TestGroupMembership>('GET', '/admin/test-group/me', people.approver.token)).body).toEqual({ member: false, joinedAt: null });
    // the list is the admins'
    expect((await call('GET', '/admin/test-group', people.viewer.token)).status).toBe(403);
    expect((await group()).members).toEqual([
      { userId: people.admin.id, email: 'admin@beacon.test', joinedAt: expect.any(String), reachableBy: ['push', 'sms', 'email'] },
      { userId: people.viewer.id, email: 'viewer@beacon.test', joinedAt: expect.any(String), reachableBy: ['sms'] },
      { userId: people.publisher.id, email: 'publisher@beacon.test', joinedAt: expect.any(String), reachableBy: ['email'] },
    ]);

    // leaving by oneself, being taken out by an admin (only an admin)
    expect((await optIn(people.viewer, false)).body).toEqual({ member: false, joinedAt: null });
    expect((await call('DELETE', `/admin/test-group/${people.publisher.id}`, people.viewer.token)).status).toBe(403);
    const removed = await call<TestGroup>('DELETE', `/admin/test-group/${people.publisher.id}`, people.admin.token);
    expect(removed.status).toBe(200);
    expect(removed.body.members.map((m) => m.userId)).toEqual([people.admin.id]);
    const again = await call('DELETE', `/admin/test-group/${people.publisher.id}`, people.admin.token);
    expect([again.status, again.body.code]).toEqual([404, 'test_group_member_not_found']);
    expect((await call('DELETE', '/admin/test-group/not-a-user', people.admin.token)).body.code).toBe('test_group_member_not_found');

    // both come back for the runs below
    for (const who of [people.viewer, people.publisher]) expect((await optIn(who, true)).status).toBe(200);
    expect((await group()).members).toHaveLength(3);
  });

  it('goes out once when due, however many dispatchers sweep, to the opted-in staff only, marked TEST on every channel', async () => {
    const before = await schedule();
    expect(await testAlertsOfSchedule()).toEqual([]);
    await comeDue();
    await Promise.all([sweepAll(), sweepAll()]);
    const made = await testAlertsOfSchedule();
    expect(made).toHaveLength(1);
    const [id] = made;

    // admin: push, SMS, e-mail; viewer: SMS; publisher: e-mail. Nobody else.
    const rows = await allSent(id, 5);
    expect(rows.map((d) => `${nameOf(d.user_id)} ${d.channel}`).sort()).toEqual(['admin email', 'admin push', 'admin sms', 'publisher email', 'viewer sms']);
    await Promise.all([sweepAll(), sweepAll()]);
    expect(await testAlertsOfSchedule()).toHaveLength(1);

    // every channel's text starts with the TEST marker
    const pushes = stack.push.for(people.admin.subscriptionId!).filter((p) => p.payload?.alertId === id);
    expect(pushes).toHaveLength(1);
    expect(pushes[0].payload).toMatchObject({
      title: `${TEST_MARKER}Scheduled test alert`,
      body: `${TEST_MARKER}This is a test of Beacon's alerting. No action is needed.`,
    });
    const texts = stack.sms.received.filter((c) => c.body.title?.includes('Scheduled test alert'));
    expect(texts.flatMap((c) => c.body.recipients).sort()).toEqual([people.admin.phone, people.viewer.phone].sort());
    for (const c of texts) {
      expect(c.body.title.startsWith(TEST_MARKER)).toBe(true);
      expect(c.body.message.startsWith(TEST_MARKER)).toBe(true);
    }
    const mails = stack.smtp.received.filter((m) => readMail(m).subject.includes('Scheduled test alert'));
    expect(mails.flatMap((m) => m.to).sort()).toEqual([people.admin.email, people.publisher.email].sort());
    for (const m of mails) {
      const { subject, text } = readMail(m);
      expect(subject).toBe(`${TEST_MARKER}Scheduled test alert`);
      expect(text.startsWith(`${TEST_MARKER}Scheduled test alert\n\n${TEST_MARKER}This is a test of Beacon's alerting.`)).toBe(true);
    }

    // Beacon made and sent it, in the audit trail; the schedule says so and moved on to the following Wednesday
    const trail = (await call<AlertAuditEntry[]>('GET', `/${id}/audit`, people.admin.token)).body;
    expect(trail.map((e) => [e.action, e.actorId])).toEqual([
      ['created', null],
      ['sent', null],
    ]);
    expect(trail[0].details).toMatchObject({ source: 'test', schedule: expect.any(String) });
    const after = await schedule();
    expect(after.lastRun).toEqual({ at: expect.any(String), alertId: id, recipients: 3, skipped: null });
    expect(after.nextRunAt).toBe(before.nextRunAt);
    expect(localWhen(after.nextRunAt!, NY)).toBe('Wednesday 10:00');

    // its CAP says Test, for admins only, and it is in no public feed
    const cap = await capOf(id, people.admin.token);
    expect(cap.status).toBe(200);
    expect(cap.headers.get('content-type')).toMatch(/^application\/cap\+xml/);
    const xml = await cap.text();
    expect(xml).toContain('<status>Test</status>');
    expect(validateCap(xml)).toEqual([]);
    expect((await capOf(id, people.viewer.token)).status).toBe(403);
    expect((await fetch(`${alerts.url}/cap/alerts/${id}.xml`)).status).toBe(404);
    expect(await (await fetch(`${alerts.url}/cap/alerts.atom`)).text()).not.toContain(id);
    // an alert that is not a test has no test CAP
    expect((await capOf(randomUUID(), people.admin.token)).status).toBe(404);
  });

  it('goes out once after a restart of the API and every dispatcher: the database holds the schedule', async () => {
    for (const d of dispatchers) await d.close();
    await alerts.close();
    alerts = await startTestService(alertsService, stack.vars);
    await startDispatchers(2);
    const before = (await testAlertsOfSchedule()).length;
    await comeDue();
    await Promise.all([sweepAll(), sweepAll()]);
    const made = await testAlertsOfSchedule();
    expect(made).toHaveLength(before + 1);
    await allSent(made.at(-1)!, 5);
    await sweepAll();
    expect(await testAlertsOfSchedule()).toHaveLength(before + 1);
  });

  it('sends nothing when nobody is in the group, and nothing at all once turned off', async () => {
    const members = (await group()).members;
    for (const m of members) expect((await call('DELETE', `/admin/test-group/${m.userId}`, people.admin.token)).status).toBe(200);
    const before = (await testAlertsOfSchedule()).length;
    await comeDue();
    await sweepAll();
    const skipped = await schedule();
    expect(skipped.lastRun).toEqual({ at: expect.any(String), alertId: null, recipients: 0, skipped: 'no_members' });
    expect(Date.parse(skipped.nextRunAt!)).toBeGreaterThan(Date.now());

    expect((await optIn(people.admin, true)).status).toBe(200);
    const off = await setSchedule({ frequency: 'off' });
    expect(off.body).toMatchObject({ frequency: 'off', nextRunAt: null, channels: ['push', 'sms', 'email'] });
    await sweepAll();
    expect(await testAlertsOfSchedule()).toHaveLength(before);
  });

  it('marks the one-off Send Test Alert TEST on every channel too, and its CAP says Test', async () => {
    const res = await call<{ channels: string[]; alert: { id: string; source: string } }>('POST', '/admin/settings/test-alert', people.admin.token);
    expect(res.status).toBe(200);
    expect(res.body.channels).toEqual(['push', 'sms', 'email']);
    const { id } = res.body.alert;
    const rows = await allSent(id, 3);
    expect(new Set(rows.map((d) => d.user_id))).toEqual(new Set([people.admin.id]));
    const push = stack.push.for(people.admin.subscriptionId!).find((p) => p.payload?.alertId === id)!;
    expect(push.payload).toMatchObject({ title: `${TEST_MARKER}Test alert`, body: `${TEST_MARKER}This is a test of Beacon's alerting. No action is needed.` });
    const sms = stack.sms.received.find((c) => c.body.recipients.includes(people.admin.phone) && c.body.title === `${TEST_MARKER}Test alert`)!;
    expect(sms.body.message.startsWith(TEST_MARKER)).toBe(true);
    const mail = stack.smtp.received.map(readMail).find((m) => m.subject === `${TEST_MARKER}Test alert`)!;
    expect(mail.text.startsWith(`${TEST_MARKER}Test alert`)).toBe(true);
    expect(await (await capOf(id, people.admin.token)).text()).toContain('<status>Test</status>');
  });
});

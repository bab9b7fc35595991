import { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { AdminAlert } from '@beacon/contracts';
import { RunningService, startTestService, jsonClient, waitFor } from '@beacon/testing';
import { alertsService } from './service';
import { assertCompiledDispatcher, startCompiledDispatcher } from './testing/compiled-worker';
import { DispatchStack } from './testing/dispatch-stack';

const USERS = 60;
/**
 * What a killed worker may have sent without recording yet, and so what the next one repeats: one send per lane, i.e.
 * CHANNEL_CONCURRENCY jobs x PUSH_REQUEST_CONCURRENCY pushes, x EMAIL_MAX_CONNECTIONS mails, x one SMS call (of at
 * most SMS_BATCH_SIZE recipients). Batches are larger than that, so repeating a whole batch would break the bound.
 */
const CONCURRENCY = 2;
const REPEATABLE = { push: CONCURRENCY * 3, email: CONCURRENCY * 2, smsRecipients: CONCURRENCY * 5 };

/**
 * The real compiled dispatcher as a child process, killed with SIGKILL in the middle of a dispatch and
 * started again: every eligible user ends with exactly one delivery per channel, nothing is lost, and the
 * only repeated provider calls are those in flight at the kill, each repeated with its original key.
 */
jest.setTimeout(120_000);

describe('a dispatcher killed mid-dispatch', () => {
  const stack = new DispatchStack();
  const { push, sms, smtp } = stack;
  let alerts: RunningService<unknown>;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    assertCompiledDispatcher();
    await stack.start();
    alerts = await startTestService(alertsService, stack.vars);
  });

  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await stack.close(alerts);
  });

  function startWorker() {
    const worker = startCompiledDispatcher({
      ...stack.vars,
      JOB_LOCK_MS: '2000',
      CHANNEL_CONCURRENCY: String(CONCURRENCY),
      PUSH_REQUEST_CONCURRENCY: '3',
      PUSH_BATCH_SIZE: '20',
      SMS_BATCH_SIZE: '5',
      EMAIL_BATCH_SIZE: '12',
      EMAIL_MAX_CONNECTIONS: '2',
    });
    children.push(worker.child);
    return worker;
  }

  const call = jsonClient(() => alerts.url);

  it('leaves every eligible user with exactly one delivery per channel', async () => {
    const users: { id: string; email: string; phone: string; subscriptionId: string }[] = [];
    for (let i = 0; i < USERS; i++) {
      const id = randomUUID();
      const email = `crash-${i}@example.test`;
      const token = await stack.identity.token({ id, email });
      const phone = `+1480555${String(i).padStart(4, '0')}`;
      expect(
        (await call('PUT', '/me/preferences', token, { alertTypes: ['traffic'], methods: { push: true, sms: true, email: true }, phoneNumber: phone })).status,
      ).toBe(200);
      const sub = push.subscribe();
      expect((await call('POST', '/me/push-subscriptions', token, sub.json)).status).toBe(201);
      users.push({ id, email, phone, subscriptionId: sub.id });
    }
    const admin = await stack.identity.token({ role: 'admin' });

    push.delayMs = 40; // keep the push batches in flight long enough to be interrupted
    const first = startWorker();
    await first.ready;
    const { body: alert } = await call<AdminAlert>('POST', '', admin, {
      title: 'Wrong-way driver on Loop 101',
      message: 'A wrong-way driver was reported on Loop 101 northbound.',
      category: 'traffic',
      severity: 'critical',
      channels: ['push', 'sms', 'email'],
      everyone: true,
    });
    const total = USERS * 3;

    await waitFor('the first worker to be part-way through', () => push.received.filter((r) => r.payload?.alertId === alert.id).length >= 12);
    first.child.kill('SIGKILL');
    expect(await first.exited).toBeNull(); // killed by the signal, not exited
    const [{ done }] = await stack.db.query(
      `SELECT count(*) FILTER (WHERE status IN ('sent','failed'))::int AS done FROM alerts.alert_deliveries WHERE alert_id = $1`,
      [alert.id],
    );
    expect(done).toBeLessThan(total); // really interrupted mid-dispatch

    push.delayMs = 0;
    const second = startWorker();
    await second.ready;
    await waitFor(
      'every delivery to be sent',
      async () => {
        const [{ n }] = await stack.db.query(`SELECT count(*)::int AS n FROM alerts.alert_deliveries WHERE alert_id = $1 AND status = 'sent'`, [alert.id]);
        return n === total;
      },
      60_000,
    );

    // Exactly one delivery row per user and channel.
    const rows = await stack.db.query<{ id: string; user_id: string; channel: string }>(
      `SELECT id, user_id, channel FROM alerts.alert_deliveries WHERE alert_id = $1`,
      [alert.id],
    );
    expect(rows.length).toBe(total);
    for (const u of users) for (const ch of ['push', 'sms', 'email']) expect(rows.filter((r) => r.user_id === u.id && r.channel === ch)).toHaveLength(1);

    // Push: every subscriber reached; a repeat only for a request in flight at the kill, with the same key.
    const byKey = new Map<string, string[]>();
    for (const r of push.received.filter((x) => x.payload?.alertId === alert.id && x.status === 201)) {
      byKey.set(r.idempotencyKey!, [...(byKey.get(r.idempotencyKey!) ?? []), r.subscriptionId]);
    }
    const pushRows = rows.filter((r) => r.channel === 'push');
    expect([...byKey.keys()].sort()).toEqual(pushRows.map((r) => r.id).sort());
    for (const subs of byKey.values()) expect(new Set(subs).size).toBe(1);
    const repeats = [...byKey.values()].reduce((n, subs) => n + subs.length - 1, 0);
    expect(repeats).toBeLessThanOrEqual(REPEATABLE.push);

    // SMS: every phone covered; a repeated call (same batch key) carries exactly the same recipients.
    const smsByKey = new Map<string, string[]>();
    let smsRepeated = 0;
    for (const c of sms.received.filter((x) => x.body.title === 'Wrong-way driver on Loop 101')) {
      const seen = smsByKey.get(c.idempotencyKey!);
      if (seen) {
        expect(c.body.recipients).toEqual(seen);
        smsRepeated += c.body.recipients.length;
      }
      smsByKey.set(c.idempotencyKey!, c.body.recipients);
    }
    expect([...smsByKey.values()].flat().sort()).toEqual(users.map((u) => u.phone).sort());
    expect(smsRepeated).toBeLessThanOrEqual(REPEATABLE.smsRecipients);

    // Email: one distinct Message-ID per email delivery, repeated only for the mails in flight.
    const mails = smtp.received.filter((m) => m.subject?.includes('Loop 101')).map((m) => m.idempotencyKey);
    expect([...new Set(mails)].sort()).toEqual(
      rows
        .filter((r) => r.channel === 'email')
        .map((r) => r.id)
        .sort(),
    );
    expect(mails.length - new Set(mails).size).toBeLessThanOrEqual(REPEATABLE.email);

    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  });
});

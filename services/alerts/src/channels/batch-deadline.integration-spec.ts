import { randomUUID } from 'node:crypto';
import { AdminAlert } from '@beacon/contracts';
import { RunningService, startTestService, jsonClient, waitFor } from '@beacon/testing';
import { alertsService } from '../service';
import { dispatcherService } from '../dispatcher.service';
import { DispatchStack } from '../testing/dispatch-stack';
import { sendHeldNow } from '../testing/held-deliveries';

jest.setTimeout(60_000);

/**
 * A channel batch stops starting sends at its deadline: the rest stay pending (not failed, no attempt counted)
 * and the same job runs again for them, so no job outlives the deployment's shutdown grace however slow the provider.
 */
describe('channel batch deadline', () => {
  const stack = new DispatchStack();
  const { smtp } = stack;
  let alerts: RunningService<unknown>;
  let dispatcher: RunningService<unknown>;

  beforeAll(async () => {
    await stack.start({
      PUBLIC_URL: 'http://localhost:8080',
      EMAIL_BATCH_SIZE: '8',
      CHANNEL_BATCH_DEADLINE_SECONDS: '1',
      CHANNEL_SEND_GRACE_SECONDS: '10',
      SWEEP_INTERVAL_SECONDS: '3600',
    });
    alerts = await startTestService(alertsService, stack.vars);
    dispatcher = await startTestService(dispatcherService, stack.vars);
  });

  afterAll(async () => {
    await stack.close(dispatcher, alerts);
  });

  const call = jsonClient(() => alerts.url);

  it('an email batch slower than its deadline leaves the unsent pending, then finishes in the next run, each message once', async () => {
    const emails: string[] = [];
    for (let i = 0; i < 8; i++) {
      const email = `slow-${i}@example.test`;
      const token = await stack.identity.token({ id: randomUUID(), email });
      expect((await call('PUT', '/me/preferences', token, { alertTypes: ['weather'], methods: { push: false, email: true } })).status).toBe(200);
      emails.push(email);
    }
    // Five connections, 1.5 s a message, a 1 s deadline: five messages start, the other three wait for the next run.
    smtp.delayMs = 1500;
    const admin = await stack.identity.token({ id: randomUUID(), role: 'admin' });
    const sent = await call<AdminAlert>('POST', '', admin, {
      title: 'Monsoon storms',
      message: 'Strong storms with blowing dust this evening.',
      category: 'weather',
      severity: 'high',
      channels: ['email'],
      everyone: true,
    });
    expect(sent.status).toBe(201);
    const alertId = sent.body.id;
    // e-mails wait for the e-mail digest's hour (issue #40): the hour comes now, all eight in one held batch
    expect(await sendHeldNow(stack, [alertId])).toBe(8);
    const rows = () =>
      stack.db.query<{ status: string; attempts: number; error: string | null }>(
        `SELECT status, attempts, error FROM alerts.alert_deliveries WHERE alert_id = $1`,
        [alertId],
      );

    // Between the runs: five sent; the other three back to pending (a batch without a deadline holds them all in
    // 'sending' until its last message is answered), not failed, and their claim not counted as an attempt.
    const cut = await waitFor(
      'the first run to end at its deadline',
      async () => {
        const r = await rows();
        return r.filter((d) => d.status === 'sent').length === 5 && r.filter((d) => d.status === 'pending').length === 3 ? r : null;
      },
      30_000,
      20,
    );
    expect(cut.filter((d) => d.status === 'pending').map((d) => d.attempts)).toEqual([0, 0, 0]);

    const done = await waitFor('every delivery sent', async () => {
      const r = await rows();
      return r.length === 8 && r.every((d) => d.status === 'sent') ? r : null;
    });
    expect(done.map((d) => d.attempts)).toEqual(Array(8).fill(1));
    const mails = smtp.received.filter((m) => m.subject?.includes('Monsoon storms'));
    expect(mails.flatMap((m) => m.to).sort()).toEqual(emails.sort());
  });
});

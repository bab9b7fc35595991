import { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { AdminAlert } from '@beacon/contracts';
import { RunningService, startTestService, jsonClient, TestSmtpRelay } from '@beacon/testing';
import { alertsService } from './service';
import { assertCompiledDispatcher, startCompiledDispatcher } from './testing/compiled-worker';
import { DispatchStack } from './testing/dispatch-stack';
import { waitFor } from './testing/wait';

jest.setTimeout(150_000);

interface Row {
  email: string;
  status: string;
  attempts: number;
  error: string | null;
}

/**
 * The e-mail channel through a relay that requires STARTTLS (a self-signed certificate the dispatcher trusts through
 * NODE_EXTRA_CA_CERTS, as an operator's private CA would be) and AUTH, with the relay's real RCPT TO replies: a 450 is
 * retried until the relay accepts, a 550 fails the delivery at once. Then the relay goes down (connections dropped,
 * nothing listening) while an alert goes out, and comes back on the same port: every e-mail arrives.
 */
describe('e-mail through an SMTP relay with STARTTLS and AUTH', () => {
  const relay = new TestSmtpRelay();
  const stack = new DispatchStack();
  let alerts: RunningService<unknown>;
  const children: ChildProcess[] = [];
  let vars: Record<string, string>;

  beforeAll(async () => {
    assertCompiledDispatcher();
    await relay.start();
    await stack.start({ SMTP_URL: relay.url });
    vars = stack.vars;
    alerts = await startTestService(alertsService, vars);
  });

  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await stack.close(alerts);
    await relay.close();
  });

  const call = jsonClient(() => alerts.url);
  const deliveries = (alertId: string) =>
    stack.db.query<Row>(
      `SELECT u.email, d.status, d.attempts, d.error FROM alerts.alert_deliveries d JOIN alerts.user_preferences u ON u.user_id = d.user_id
       WHERE d.alert_id = $1 AND d.channel = 'email' ORDER BY u.email`,
      [alertId],
    );

  it('signs in over TLS, retries 4xx, fails 5xx, and survives the relay restarting', async () => {
    const addresses = ['a-ok@example.test', 'b-ok@example.test', 'c-busy@example.test', 'd-nobody@example.test'];
    for (const email of addresses) {
      const token = await stack.identity.token({ id: randomUUID(), email });
      expect((await call('PUT', '/me/preferences', token, { alertTypes: ['weather'], methods: { push: false, sms: false, email: true } })).status).toBe(200);
    }
    const admin = await stack.identity.token({ role: 'admin' });
    relay.refuse('c-busy@example.test', 450, '4.2.1 Mailbox busy, try again later', 2);
    relay.refuse('d-nobody@example.test', 550, '5.1.1 No such mailbox here');

    // An e-mail per job, so one refused recipient fails or retries only its own delivery.
    const worker = startCompiledDispatcher({
      ...vars,
      NODE_EXTRA_CA_CERTS: relay.certificate.certFile,
      EMAIL_BATCH_SIZE: '1',
      EMAIL_MAX_CONNECTIONS: '2',
      CHANNEL_RETRY_BASE_MS: '200',
      CHANNEL_RETRY_MAX_DELAY_SECONDS: '1',
      SWEEP_INTERVAL_SECONDS: '1',
    });
    children.push(worker.child);
    await worker.ready;

    const send = async (title: string) => {
      const { status, body } = await call<AdminAlert>('POST', '', admin, {
        title,
        message: 'Details inside.',
        category: 'weather',
        severity: 'high',
        channels: ['email'],
      });
      expect(status).toBe(201);
      return body;
    };

    const first = await send('Heat warning for Phoenix');
    const settled = (rows: Row[]) => rows.length === 4 && rows.every((r) => r.status === 'sent' || r.status === 'failed');
    const rows = await waitFor('every e-mail delivery to settle', async () => ((r) => (settled(r) ? r : null))(await deliveries(first.id)), 60_000);
    expect(rows.map((r) => [r.email, r.status])).toEqual([
      ['a-ok@example.test', 'sent'],
      ['b-ok@example.test', 'sent'],
      ['c-busy@example.test', 'sent'],
      ['d-nobody@example.test', 'failed'],
    ]);
    // 450 twice, retried, then accepted; 550 once, never retried, its reply kept as the delivery's error
    expect(rows[2].attempts).toBe(3);
    expect(rows[3].attempts).toBe(1);
    expect(rows[3].error).toMatch(/550/);
    expect(relay.refused.filter((r) => r === '450 c-busy@example.test')).toHaveLength(2);
    expect(relay.refused.filter((r) => r === '550 d-nobody@example.test')).toHaveLength(1);
    const firstMails = relay.received.filter((m) => m.subject?.includes('Heat warning'));
    expect(firstMails.map((m) => m.to[0]).sort()).toEqual(['a-ok@example.test', 'b-ok@example.test', 'c-busy@example.test']);
    for (const m of firstMails) expect(m).toMatchObject({ user: relay.user, secure: true });

    // The relay goes down (open connections dropped) while the next alert goes out, and comes back on its port.
    await relay.stop();
    const second = await send('Heat warning extended');
    await waitFor('the e-mails to fail for now', async () => (await deliveries(second.id)).some((r) => r.attempts >= 1 && r.status === 'pending'), 30_000);
    await relay.start();
    // every delivery settled: the three sent, and the refused one, which may be the last to be retried
    await waitFor(
      'the e-mails to arrive after the relay is back',
      async () => ((r) => r.filter((d) => d.status === 'sent').length === 3 && settled(r))(await deliveries(second.id)),
      60_000,
    );
    const secondMails = relay.received.filter((m) => m.subject?.includes('Heat warning extended'));
    expect(secondMails.map((m) => m.to[0]).sort()).toEqual(['a-ok@example.test', 'b-ok@example.test', 'c-busy@example.test']);
    for (const m of secondMails) expect(m).toMatchObject({ user: relay.user, secure: true });
    expect((await deliveries(second.id)).find((r) => r.email === 'd-nobody@example.test')!.status).toBe('failed');

    worker.child.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
  });
});

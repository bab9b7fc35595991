import { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AdminAlert } from '@beacon/contracts';
import { CountingListener, RunningService, startTestService, jsonClient, TestSmtpRelay, waitFor } from '@beacon/testing';
import { alertsService } from './service';
import { assertCompiledDispatcher, startCompiledDispatcher } from './testing/compiled-worker';
import { DispatchStack } from './testing/dispatch-stack';
import { sendHeldNow } from './testing/held-deliveries';
import { AlertsApi } from './testing/alerts-api';

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
        everyone: true,
      });
      expect(status).toBe(201);
      // e-mails wait for the e-mail digest's hour (issue #40): the hour comes now
      expect(await sendHeldNow(stack, [body.id])).toBe(4);
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

/**
 * The relay URL's query string went to nodemailer whole, while the SSRF rule checked only the URL's host: `url`
 * replaced the host, `proxy` connected elsewhere first, `sendmail`/`path` spawned a program. Only an allow-list of
 * options is taken; anything else is refused with 400 on save and on Test Connection, and nothing is connected to or
 * run. Test Connection has a deadline of its own.
 */
describe('the mail relay URL: only allowed options, nothing reached through them (real sockets)', () => {
  const relay = new TestSmtpRelay();
  const internal = new CountingListener();
  const silent = new CountingListener();
  const api = new AlertsApi();
  const { call } = api;
  let dir: string;
  let program: string;
  let marker: string;

  beforeAll(async () => {
    await Promise.all([relay.start(), internal.start(), silent.start()]);
    dir = mkdtempSync(join(tmpdir(), 'beacon-sendmail-'));
    marker = join(dir, 'spawned');
    program = join(dir, 'fake-sendmail');
    writeFileSync(program, `#!/bin/sh\ntouch ${marker}\ncat >/dev/null\n`);
    chmodSync(program, 0o755);
    // the relay and the silent one are allow-listed as a local relay would be; the internal port is not
    await api.start({ WEBHOOK_ALLOW_HOSTS: `127.0.0.1:${relay.port},127.0.0.1:${silent.port}`, MAIL_RELAY_TEST_TIMEOUT_SECONDS: '1' });
  });

  afterAll(async () => {
    await api.close();
    await Promise.all([relay.close(), internal.close(), silent.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  const relayBase = () => `smtp://${relay.user}:${relay.password}@127.0.0.1:${relay.port}/`;
  const hostile = () => [
    [`?url=${encodeURIComponent(`smtp://127.0.0.1:${internal.port}`)}`, 'url'],
    [`?proxy=http://127.0.0.1:${internal.port}`, 'proxy'],
    [`?sendmail=true&path=${program}`, 'sendmail'],
  ];

  it('refuses url, proxy and sendmail in the query string on save and on Test Connection; nothing is reached or run', async () => {
    const admin = await api.identity.token({ role: 'admin' });
    for (const [query, key] of hostile()) {
      const url = `${relayBase()}${query}`;
      const refused = { statusCode: 400, code: 'smtp_option_not_allowed', message: expect.stringContaining(`may not set "${key}"`) };
      const saved = await call('PUT', '/admin/settings', admin, { email: { enabled: true, url } });
      expect(saved.status).toBe(400);
      expect(saved.body).toEqual(refused);
      const tested = await call('POST', '/admin/settings/test-email', admin, { url });
      expect(tested.status).toBe(400);
      expect(tested.body).toEqual(refused);
    }
    // nothing was saved: the settings still show the relay from the environment
    expect((await call<{ email: { url: string } }>('GET', '/admin/settings', admin)).body.email.url).not.toMatch(/url=|proxy=|sendmail=/);
    // a connection would already have been counted when the answer came (the check answers after connecting)
    expect(internal.connections).toBe(0);
    expect(existsSync(marker)).toBe(false);
  });

  it('takes the allowed options, typed, and still signs in', async () => {
    const admin = await api.identity.token({ role: 'admin' });
    const ok = await call('POST', '/admin/settings/test-email', admin, { url: `${relay.url}&tls.rejectUnauthorized=false&name=beacon.test` });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ ok: true });
    const typo = await call('POST', '/admin/settings/test-email', admin, { url: `${relay.url}&ignoreTLS=yes` });
    expect(typo.status).toBe(400);
    expect(typo.body).toMatchObject({ code: 'invalid_url', message: expect.stringContaining('ignoreTLS must be true or false') });
  });

  it('still refuses a relay host that is, or resolves to, a private address', async () => {
    const admin = await api.identity.token({ role: 'admin' });
    for (const url of [`smtp://127.0.0.1:${internal.port}`, `smtp://localhost:${internal.port}`]) {
      for (const [method, path, body] of [
        ['PUT', '/admin/settings', { email: { url } }],
        ['POST', '/admin/settings/test-email', { url }],
      ] as const) {
        const res = await call(method, path, admin, body);
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ code: 'private_address' });
      }
    }
    expect(internal.connections).toBe(0);
  });

  it('gives up on a relay that never greets at the deadline: 502 mail_relay_timeout, naming it', async () => {
    const admin = await api.identity.token({ role: 'admin' });
    const res = await call('POST', '/admin/settings/test-email', admin, { url: `smtp://127.0.0.1:${silent.port}` });
    expect(res.status).toBe(502);
    expect(res.body).toEqual({
      statusCode: 502,
      code: 'mail_relay_timeout',
      message: `Mail relay 127.0.0.1 did not finish the check (connect, TLS, greeting and sign-in) within 1 s`,
      details: { timeoutSeconds: 1 },
    });
    expect(silent.connections).toBe(1);
  });
});

import { AddressInfo, createServer, Server as NetServer } from 'node:net';
import nodemailer from 'nodemailer';
import { SMTPServer } from 'smtp-server';
import { smtpFailure } from './email.sender';

/** smtpFailure on the errors nodemailer really raises, from a local SMTP server that answers by recipient. */
describe('smtpFailure', () => {
  let smtp: SMTPServer;
  let silent: NetServer;
  let smtpPort: number;
  let silentPort: number;

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onRcptTo: (address, _session, callback) => {
        const code = Number(/^(\d{3})@/.exec(address.address)?.[1] ?? 250);
        if (code === 250) return callback();
        callback(Object.assign(new Error(`rejected with ${code}`), { responseCode: code }));
      },
      onData: (stream, _session, callback) => {
        stream.resume();
        stream.on('end', () => callback());
      },
    });
    await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', () => r()));
    smtpPort = (smtp.server.address() as AddressInfo).port;
    // Accepts connections and never greets: a server that hangs.
    silent = createServer(() => undefined);
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    silentPort = (silent.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await new Promise<void>((r) => smtp.close(() => r()));
    await new Promise((r) => silent.close(r));
  });

  async function failureOf(to: string, port = smtpPort, options: Record<string, unknown> = {}) {
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true, ...options } as never);
    try {
      await transport.sendMail({ from: 'alerts@beacon.local', to, subject: 'Test', text: 'Test' });
      return null;
    } catch (e) {
      return { failure: smtpFailure(e), error: e as Error & { responseCode?: number; code?: string } };
    } finally {
      transport.close();
    }
  }

  it('a message the server accepts does not fail', async () => {
    expect(await failureOf('250@example.test')).toBeNull();
  });

  it.each([550, 553, 554])('a %i reply is final', async (code) => {
    const f = await failureOf(`${code}@example.test`);
    expect(f?.error.responseCode).toBe(code);
    expect(f?.failure).toBe('permanent');
  });

  it.each([421, 450, 451, 452])('a %i reply is "try again later"', async (code) => {
    const f = await failureOf(`${code}@example.test`);
    expect(f?.error.responseCode).toBe(code);
    expect(f?.failure).toBe('transient');
  });

  it('a refused connection is retried', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const f = await failureOf('250@example.test', port);
    expect(f?.error.code).toBe('ESOCKET');
    expect(f?.failure).toBe('transient');
  });

  it('a server that never greets times out and is retried', async () => {
    const f = await failureOf('250@example.test', silentPort, { greetingTimeout: 200 });
    expect(f?.error.code).toBe('ETIMEDOUT');
    expect(f?.failure).toBe('transient');
  });

  it('a message with no valid recipient is final', async () => {
    const f = await failureOf('not an address');
    expect(f?.error.code).toBe('EENVELOPE');
    expect(f?.failure).toBe('permanent');
  });
});

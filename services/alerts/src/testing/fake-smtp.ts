import { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  messageId: string | undefined;
  idempotencyKey: string | undefined;
  subject: string | undefined;
  raw: string;
}

const header = (raw: string, name: string) => new RegExp(`^${name}:\\s*(.+)$`, 'im').exec(raw.split(/\r?\n\r?\n/)[0])?.[1]?.trim();

/** A local SMTP server (smtp-server) that accepts and records every message. */
export class FakeSmtp {
  private server?: SMTPServer;
  readonly received: ReceivedMail[] = [];
  /** How long the server takes to accept each message (a slow provider). */
  delayMs = 0;
  /** Connections opened so far, open now, and the most open at once. */
  connections = 0;
  open = 0;
  peakOpen = 0;
  url = '';

  async start() {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onConnect: (_session, callback) => {
        this.connections += 1;
        this.peakOpen = Math.max(this.peakOpen, ++this.open);
        callback();
      },
      onClose: () => {
        this.open -= 1;
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString();
          this.received.push({
            to: session.envelope.rcptTo.map((r) => r.address),
            messageId: header(raw, 'Message-ID'),
            idempotencyKey: header(raw, 'Idempotency-Key'),
            subject: header(raw, 'Subject'),
            raw,
          });
          // The answer (250) comes after delayMs; the message is received either way.
          setTimeout(() => callback(), this.delayMs);
        });
      },
    });
    this.server.on('error', () => undefined); // connections reset by a killed client
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', () => r()));
    this.url = `smtp://127.0.0.1:${(this.server.server.address() as AddressInfo).port}`;
    return this;
  }

  async close() {
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }
}

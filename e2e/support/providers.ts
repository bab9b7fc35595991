import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';

export interface SmsCall {
  title: string;
  message: string;
  priority: string;
  recipients: string[];
  type: string;
  /** The language the text is in (en when the alert has none in the person's). */
  language?: string;
}

/**
 * A local SMS webhook the system under test can reach (127.0.0.1 is allow-listed in e2e). Answers 200 at once, or,
 * while `refusing` is set, 400 (a provider that refuses every message: the deliveries fail for good), or, while
 * `downForSeconds` is set, 503 with that Retry-After (a provider down for now: the deliveries are retried then).
 */
export async function startSmsWebhook() {
  const calls: SmsCall[] = [];
  const state: { refusing: boolean; downForSeconds: number | null } = { refusing: false, downForSeconds: null };
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      try {
        calls.push(JSON.parse(body));
      } catch {
        // a test POST without JSON still counts as reachable
      }
      res.setHeader('content-type', 'application/json');
      if (state.downForSeconds !== null) {
        res.statusCode = 503;
        res.setHeader('retry-after', String(state.downForSeconds));
        res.end(JSON.stringify({ error: 'temporarily unavailable' }));
        return;
      }
      if (state.refusing) {
        res.statusCode = 400;
        res.end(JSON.stringify({ error: 'account suspended' }));
        return;
      }
      res.end(JSON.stringify({ messageId: `sms-${calls.length}`, status: 'sent' }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/sms`,
    calls,
    state,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** One e-mail as the local relay received it: the envelope, and the decoded subject and bodies. */
export interface ReceivedMail {
  to: string[];
  subject: string;
  text: string;
  html: string;
}

/**
 * A local SMTP relay the system under test can send through (127.0.0.1 is allow-listed in e2e): plain SMTP, no
 * sign-in, every message accepted and kept decoded (subject, text and HTML parts), so a journey can read what a
 * person was sent. `url` is what Admin Settings' e-mail relay takes.
 */
export async function startSmtpSink() {
  const { SMTPServer } = await import('smtp-server');
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData: (stream, session, callback) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), ...decodeMail(Buffer.concat(chunks).toString('latin1')) });
        callback();
      });
    },
  });
  server.on('error', () => undefined);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}?ignoreTLS=true`,
    mails,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** A message's header block as name (lower case) to value, folded lines unfolded. */
function headersOf(block: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of block.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const at = line.indexOf(':');
    if (at > 0) headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
  }
  return headers;
}

/** A body in its transfer encoding (quoted-printable, base64, 7/8 bit; the raw bytes held as latin1) as UTF-8 text. */
function decodeBody(body: string, encoding = ''): string {
  const e = encoding.toLowerCase();
  if (e === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  const bytes =
    e === 'quoted-printable' ? body.replace(/=\r?\n/g, '').replace(/=([0-9A-Fa-f]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))) : body;
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** A header with RFC 2047 encoded words (=?UTF-8?Q?...?= or ?B?), as text. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_, _charset: string, kind: string, text: string) =>
      kind.toUpperCase() === 'B' ? decodeBody(text, 'base64') : decodeBody(text.replace(/_/g, ' '), 'quoted-printable'),
    );
}

/** The subject and the text and HTML parts of a raw message (a single part, or multipart/alternative or /mixed). */
function decodeMail(raw: string): { subject: string; text: string; html: string } {
  const split = (s: string) => {
    const m = /\r?\n\r?\n/.exec(s);
    return m ? [s.slice(0, m.index), s.slice(m.index + m[0].length)] : [s, ''];
  };
  const found = { text: '', html: '' };
  const walk = (part: string) => {
    const [head, body] = split(part);
    const headers = headersOf(head);
    const type = (headers['content-type'] ?? 'text/plain').toLowerCase();
    const boundary = /boundary="?([^";]+)"?/i.exec(headers['content-type'] ?? '')?.[1];
    if (type.startsWith('multipart/') && boundary) {
      for (const sub of body.split(`--${boundary}`).slice(1)) if (!sub.startsWith('--')) walk(sub.replace(/^\r?\n/, ''));
      return;
    }
    const decoded = decodeBody(body, headers['content-transfer-encoding']);
    if (type.startsWith('text/html')) found.html += decoded;
    else if (type.startsWith('text/plain')) found.text += decoded;
  };
  walk(raw);
  const [head] = split(raw);
  return { subject: decodeWords(headersOf(head).subject ?? ''), ...found };
}

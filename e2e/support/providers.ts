import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';

export interface SmsCall {
  title: string;
  message: string;
  priority: string;
  recipients: string[];
  type: string;
}

/** A local SMS webhook the system under test can reach (127.0.0.1 is allow-listed in e2e). Answers 200 at once. */
export async function startSmsWebhook() {
  const calls: SmsCall[] = [];
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
      res.end(JSON.stringify({ messageId: `sms-${calls.length}`, status: 'sent' }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/sms`,
    calls,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

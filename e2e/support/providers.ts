import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';

export interface SmsCall {
  title: string;
  message: string;
  priority: string;
  recipients: string[];
  type: string;
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

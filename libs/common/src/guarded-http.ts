import { IncomingHttpHeaders, OutgoingHttpHeaders, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { AddressGuard, assertPublicUrl, publicLookup } from './ssrf';

/** Provider answers are short JSON; by default more than this is not read (the rest is cut off). */
export const MAX_RESPONSE_BYTES = 64 * 1024;

export interface GuardedResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body as text, at most `maxBytes` of it. */
  text: string;
  /** The body was longer than `maxBytes`: the rest was not read. */
  truncated: boolean;
}

export interface GuardedRequest extends AddressGuard {
  method: 'GET' | 'POST';
  headers?: OutgoingHttpHeaders;
  body?: string;
  /** The whole call: connection, answer and body. */
  timeoutMs: number;
  /** How much of the body to read at most (MAX_RESPONSE_BYTES). */
  maxBytes?: number;
}

function timeoutError() {
  const e = new Error('timed out');
  e.name = 'TimeoutError';
  return e;
}

/**
 * One request to a user-configured URL that connects only to an address the SSRF rule accepted: the URL is
 * checked (scheme, credentials, IP literal hosts) and the connection resolves the name through publicLookup,
 * so a name that answered a public address at the check and a private one at connect time (DNS rebinding) is
 * refused. fetch cannot be given a lookup without undici's Agent, hence node:http(s). Redirects are not
 * followed. A refusal rejects with the AppError (`private_address`, `unresolvable_host`, `invalid_url`).
 */
export async function guardedRequest(rawUrl: string, req: GuardedRequest): Promise<GuardedResponse> {
  const url = await assertPublicUrl(rawUrl, req.allowHosts, req.resolve);
  const secure = url.protocol === 'https:';
  const body = req.body === undefined ? undefined : Buffer.from(req.body);
  const maxBytes = req.maxBytes ?? MAX_RESPONSE_BYTES;
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (e: Error | null, res?: GuardedResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (e) {
        request.destroy();
        reject(e);
      } else resolve(res!);
    };
    // A fresh connection per call (agent: false): no pooled socket outlives the call or the allow-list it was checked with.
    const request = (secure ? httpsRequest : httpRequest)(
      {
        method: req.method,
        protocol: url.protocol,
        hostname: url.hostname.replace(/^\[|\]$/g, ''),
        port: url.port || (secure ? 443 : 80),
        path: url.pathname + url.search,
        agent: false,
        lookup: publicLookup(url.port, req),
        headers: { ...req.headers, ...(body ? { 'content-length': body.length } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const done = (truncated: boolean) =>
          settle(null, { status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8'), truncated });
        res.on('data', (chunk: Buffer) => {
          const room = maxBytes - size;
          chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
          size += Math.min(chunk.length, room);
          if (chunk.length > room) {
            done(true);
            res.destroy();
          }
        });
        res.on('end', () => done(false));
        res.on('error', (e) => settle(e));
      },
    );
    const timer = setTimeout(() => settle(timeoutError()), req.timeoutMs);
    request.on('error', (e) => settle(e));
    request.end(body);
  });
}

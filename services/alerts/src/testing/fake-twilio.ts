import { createHmac, randomBytes } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { SaxesParser } from 'saxes';

/**
 * X-Twilio-Signature as Twilio documents it ("Validating signatures from Twilio"): the full URL Twilio was given
 * (scheme, host, path and query), followed by each POST parameter's name and value with the names sorted, signed
 * with HMAC-SHA1 keyed by the account's auth token, in base64. Written here on its own, from the documentation, so
 * that the server's validator is checked against an independent reading of it (fake-twilio.spec.ts checks this one
 * against Twilio's own worked example).
 */
export function signAsTwilio(url: string, params: Record<string, string>, authToken: string): string {
  const data = Object.keys(params)
    .sort()
    .reduce((acc, name) => acc + name + params[name], url);
  return createHmac('sha1', authToken).update(data, 'utf8').digest('base64');
}

/** One element of a TwiML document. */
export interface TwimlElement {
  name: string;
  attrs: Record<string, string>;
  /** Its own text (not its children's). */
  text: string;
  children: TwimlElement[];
}

/** Parses TwiML strictly (saxes: an undefined entity or a bare `&` is an error, as in Twilio's parser). */
export function parseTwiml(xml: string): TwimlElement {
  const parser = new SaxesParser();
  const root: TwimlElement = { name: '#document', attrs: {}, text: '', children: [] };
  const stack = [root];
  parser.on('error', (e) => {
    throw e;
  });
  parser.on('opentag', (tag) => {
    const el: TwimlElement = { name: tag.name, attrs: { ...(tag.attributes as Record<string, string>) }, text: '', children: [] };
    stack[stack.length - 1].children.push(el);
    stack.push(el);
  });
  parser.on('text', (t) => {
    stack[stack.length - 1].text += t;
  });
  parser.on('closetag', () => {
    stack.pop();
  });
  parser.write(xml).close();
  if (root.children.length !== 1 || root.children[0].name !== 'Response') throw new Error('TwiML must have one <Response> root');
  return root.children[0];
}

/** Every element named `name` in document order. */
export function twimlElements(el: TwimlElement, name: string): TwimlElement[] {
  return [...(el.name === name ? [el] : []), ...el.children.flatMap((c) => twimlElements(c, name))];
}

/** What a call's TwiML says, in order: each <Say>'s language and text, and whether it is inside the <Gather>. */
export function said(twiml: string): { language: string | undefined; text: string; inGather: boolean }[] {
  const out: { language: string | undefined; text: string; inGather: boolean }[] = [];
  const walk = (el: TwimlElement, inGather: boolean) => {
    if (el.name === 'Say') out.push({ language: el.attrs.language, text: el.text, inGather });
    for (const c of el.children) walk(c, inGather || el.name === 'Gather');
  };
  walk(parseTwiml(twiml), false);
  return out;
}

export interface FakeTwilioMessage {
  sid: string;
  to: string;
  from: string;
  body: string;
  statusCallback: string | null;
  /** Every form parameter as posted. */
  params: Record<string, string>;
  /** Date.now() when it was accepted. */
  at: number;
}

export interface FakeTwilioCall {
  sid: string;
  to: string;
  from: string;
  twiml: string | null;
  statusCallback: string | null;
  statusCallbackEvent: string | null;
  timeout: number | null;
  params: Record<string, string>;
  at: number;
}

/** A scripted answer to the next POST of a message or call: a status, with a Retry-After or Twilio's code if wanted. */
export type FakeTwilioAnswer = number | { status: number; retryAfter?: string; code?: number; message?: string };

export interface FakeTwilioOptions {
  accountSid: string;
  authToken: string;
  /** Keep every accepted message and call in `messages` / `calls` (tests read them). A benchmark counts through the callbacks instead. Default true. */
  keepRecords?: boolean;
  onMessage?: (m: FakeTwilioMessage, arrivedAt: number) => void;
  onCall?: (c: FakeTwilioCall, arrivedAt: number) => void;
}

/** What Beacon answered a request the fake made as Twilio. */
export interface BeaconAnswer {
  status: number;
  contentType: string | undefined;
  text: string;
}

/** Twilio's E.164 rule: a plus, then up to 15 digits, the first not 0. */
const E164 = /^\+[1-9]\d{1,14}$/;
/** Twilio refuses a Body longer than this (error 21617) and inline TwiML longer than this (error 32018). */
export const TWILIO_BODY_MAX = 1600;
export const TWILIO_TWIML_MAX = 4000;

const SID_CHARS = '0123456789abcdef';
const newSid = (prefix: 'SM' | 'CA') => prefix + Array.from(randomBytes(32), (b) => SID_CHARS[b % 16]).join('');

class TwilioError {
  constructor(
    readonly status: number,
    readonly code: number,
    readonly message: string,
    readonly retryAfter?: string,
  ) {}
}

/**
 * A loopback stand-in for Twilio's REST API (2010-04-01) that checks requests as Twilio documents them and answers as
 * Twilio does: basic auth with the account sid and auth token (401, code 20003), the account sid in the path,
 * form-encoded bodies, To and From in E.164, a Body (at most 1,600 characters) or inline TwiML (well-formed, one
 * <Response>, at most 4,000 characters), an absolute http(s) StatusCallback; 201 with `{ sid, status: 'queued' }`
 * (SM... / CA..., 34 characters). Numbers in `invalidNumbers` are refused with 21211, as a number that cannot be
 * reached is. It also plays the provider's side towards Beacon: status callbacks, keys pressed in a call and inbound
 * SMS, each form-encoded and signed with X-Twilio-Signature.
 */
export class FakeTwilio {
  readonly accountSid: string;
  readonly authToken: string;
  private server?: Server;
  /** The API's base URL (TWILIO_API_URL). */
  url = '';
  readonly messages: FakeTwilioMessage[] = [];
  readonly calls: FakeTwilioCall[] = [];
  /** Answers to the next message or call POSTs, in order; each accepted one is answered 201 once this is empty. */
  script: FakeTwilioAnswer[] = [];
  /** Until this instant (Date.now()) every message or call POST is answered 503: Twilio is down. */
  downUntil = 0;
  /** To numbers Twilio refuses (error 21211). */
  readonly invalidNumbers = new Set<string>();
  /** Requests refused (4xx/5xx), by Twilio error code. */
  readonly refusals: { code: number; status: number; path: string }[] = [];
  private readonly routes: { from: string; to: string }[] = [];

  constructor(private readonly options: FakeTwilioOptions) {
    this.accountSid = options.accountSid;
    this.authToken = options.authToken;
  }

  /** `port`: where the system under test was told the API is (TWILIO_API_URL is fixed at its start); 0 for any. */
  async start(port = 0) {
    this.server = createServer({ keepAliveTimeout: 30_000 }, (req, res) => {
      const arrivedAt = performance.now();
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('error', () => res.destroy());
      req.on('end', () => {
        try {
          this.answer(req, res, Buffer.concat(chunks).toString('utf8'), arrivedAt);
        } catch (e) {
          const err = e instanceof TwilioError ? e : new TwilioError(500, 20500, `Internal Server Error: ${(e as Error).message}`);
          this.refusals.push({ code: err.code, status: err.status, path: req.url ?? '' });
          if (err.retryAfter) res.setHeader('retry-after', err.retryAfter);
          send(res, err.status, { code: err.code, message: err.message, more_info: `https://www.twilio.com/docs/errors/${err.code}`, status: err.status });
        }
      });
    });
    await new Promise<void>((r) => this.server!.listen(port, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /**
   * Requests the fake makes to URLs under `publicBase` (Beacon's PUBLIC_URL, which Twilio is given) go to `actualBase`
   * (where the service under test listens), as through the reverse proxy in front of Beacon; the signature stays over
   * the public URL, which is what Twilio signs.
   */
  route(publicBase: string, actualBase: string) {
    this.routes.push({ from: publicBase.replace(/\/+$/, ''), to: actualBase.replace(/\/+$/, '') });
  }

  private answer(req: IncomingMessage, res: ServerResponse, raw: string, arrivedAt: number) {
    const path = (req.url ?? '').split('?')[0];
    const m = /^\/2010-04-01\/Accounts\/([^/]+?)(?:\/(Messages|Calls))?\.json$/.exec(path);
    if (!m) throw new TwilioError(404, 20404, `The requested resource ${path} was not found`);
    this.authenticate(req, decodeURIComponent(m[1]));
    const resource = m[2];
    if (!resource) {
      if (req.method !== 'GET') throw new TwilioError(405, 20004, 'Method not allowed');
      return send(res, 200, { sid: this.accountSid, status: 'active', friendly_name: 'Beacon test account', type: 'Full' });
    }
    if (req.method !== 'POST') throw new TwilioError(405, 20004, 'Method not allowed');
    if (!String(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded'))
      throw new TwilioError(400, 20001, 'The request body must be form-encoded (application/x-www-form-urlencoded)');
    const params = Object.fromEntries(new URLSearchParams(raw));
    this.scripted();
    if (resource === 'Messages') {
      const msg = this.message(params);
      if (this.options.keepRecords !== false) this.messages.push(msg);
      send(res, 201, { sid: msg.sid, account_sid: this.accountSid, to: msg.to, from: msg.from, body: msg.body, status: 'queued', num_segments: '1' });
      this.options.onMessage?.(msg, arrivedAt);
    } else {
      const call = this.call(params);
      if (this.options.keepRecords !== false) this.calls.push(call);
      send(res, 201, { sid: call.sid, account_sid: this.accountSid, to: call.to, from: call.from, status: 'queued', direction: 'outbound-api' });
      this.options.onCall?.(call, arrivedAt);
    }
  }

  private authenticate(req: IncomingMessage, pathSid: string) {
    const header = String(req.headers.authorization ?? '');
    const [scheme, encoded] = header.split(' ');
    const [sid, ...token] = scheme === 'Basic' && encoded ? Buffer.from(encoded, 'base64').toString('utf8').split(':') : [];
    if (sid !== this.accountSid || token.join(':') !== this.authToken) throw new TwilioError(401, 20003, 'Authenticate');
    // Credentials of one account used on another's resources.
    if (pathSid !== this.accountSid) throw new TwilioError(403, 20003, 'Authenticate');
  }

  /** The scripted answer of this request, or 503 while down; null to accept it. */
  private scripted() {
    if (Date.now() < this.downUntil) throw new TwilioError(503, 20503, 'Service Unavailable');
    const next = this.script.shift();
    if (next === undefined) return;
    const a = typeof next === 'number' ? { status: next } : next;
    if (a.status < 300) return;
    const code = a.code ?? (a.status === 429 ? 20429 : a.status >= 500 ? 20500 : 21211);
    throw new TwilioError(
      a.status,
      code,
      a.message ?? (a.status === 429 ? 'Too Many Requests' : a.status >= 500 ? 'Service Unavailable' : 'Bad Request'),
      a.retryAfter,
    );
  }

  private numbers(params: Record<string, string>, missingTo: number, missingFrom: number) {
    const { To: to, From: from } = params;
    if (!to) throw new TwilioError(400, missingTo, "A 'To' phone number is required.");
    if (!from) throw new TwilioError(400, missingFrom, "A 'From' phone number is required.");
    if (!E164.test(to) || this.invalidNumbers.has(to)) throw new TwilioError(400, 21211, `The 'To' number ${to} is not a valid phone number.`);
    if (!E164.test(from)) throw new TwilioError(400, 21212, `The 'From' number ${from} is not a valid phone number, shortcode, or alphanumeric sender ID.`);
    return { to, from };
  }

  private callbackUrl(params: Record<string, string>, code: number): string | null {
    const url = params.StatusCallback;
    if (url === undefined) return null;
    try {
      const u = new URL(url);
      if (u.protocol === 'http:' || u.protocol === 'https:') return url;
    } catch {
      // refused below
    }
    throw new TwilioError(400, code, `The StatusCallback URL ${url} is not a valid URL.`);
  }

  private message(params: Record<string, string>): FakeTwilioMessage {
    const { to, from } = this.numbers(params, 21604, 21603);
    const body = params.Body;
    if (!body) throw new TwilioError(400, 21602, 'Message body is required.');
    if ([...body].length > TWILIO_BODY_MAX) throw new TwilioError(400, 21617, 'The concatenated message body exceeds the 1600 character limit.');
    return { sid: newSid('SM'), to, from, body, statusCallback: this.callbackUrl(params, 21609), params, at: Date.now() };
  }

  private call(params: Record<string, string>): FakeTwilioCall {
    const { to, from } = this.numbers(params, 21201, 21213);
    const twiml = params.Twiml ?? null;
    if (!twiml && !params.Url) throw new TwilioError(400, 21205, 'Url, Twiml or ApplicationSid parameter is required.');
    if (twiml) {
      if (twiml.length > TWILIO_TWIML_MAX) throw new TwilioError(400, 32018, 'Twiml size exceeded maximum allowed value of 4000 characters');
      try {
        parseTwiml(twiml);
      } catch (e) {
        throw new TwilioError(400, 12100, `Document parse failure: ${(e as Error).message}`);
      }
    }
    const timeout = params.Timeout === undefined ? null : Number(params.Timeout);
    if (timeout !== null && !(Number.isInteger(timeout) && timeout >= 1 && timeout <= 600))
      throw new TwilioError(400, 21216, 'Timeout must be between 1 and 600 seconds.');
    return {
      sid: newSid('CA'),
      to,
      from,
      twiml,
      statusCallback: this.callbackUrl(params, 21626),
      statusCallbackEvent: params.StatusCallbackEvent ?? null,
      timeout,
      params,
      at: Date.now(),
    };
  }

  // ---------------------------------------------------------------- the provider's side, towards Beacon

  /** POSTs `params` form-encoded to `url`, signed as Twilio signs (over `url` itself, the public one). */
  async post(url: string, params: Record<string, string>, signature = signAsTwilio(url, params, this.authToken)): Promise<BeaconAnswer> {
    const route = this.routes.find((r) => url === r.from || url.startsWith(`${r.from}/`) || url.startsWith(`${r.from}?`));
    const target = route ? route.to + url.slice(route.from.length) : url;
    const res = await fetch(target, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': signature,
        'user-agent': 'TwilioProxy/1.1',
        'i-twilio-idempotency-token': randomBytes(8).toString('hex'),
      },
      body: new URLSearchParams(params).toString(),
      redirect: 'manual',
    });
    return { status: res.status, contentType: res.headers.get('content-type') ?? undefined, text: await res.text() };
  }

  /** A message's status callback (delivered, undelivered, failed, or an intermediate one such as sent). */
  messageStatus(msg: FakeTwilioMessage, status: 'queued' | 'sent' | 'delivered' | 'undelivered' | 'failed', errorCode?: number): Promise<BeaconAnswer> {
    if (!msg.statusCallback) throw new Error(`message ${msg.sid} was sent without a StatusCallback`);
    return this.post(msg.statusCallback, {
      AccountSid: this.accountSid,
      ApiVersion: '2010-04-01',
      From: msg.from,
      MessageSid: msg.sid,
      MessageStatus: status,
      SmsSid: msg.sid,
      SmsStatus: status,
      To: msg.to,
      ...(errorCode !== undefined ? { ErrorCode: String(errorCode) } : {}),
    });
  }

  /** A call's status callback: the final statuses, or a progress event (initiated, ringing, in-progress). */
  callStatus(
    call: FakeTwilioCall,
    status: 'initiated' | 'ringing' | 'in-progress' | 'completed' | 'no-answer' | 'busy' | 'failed' | 'canceled',
    o: { answeredBy?: string; durationSeconds?: number; sequence?: number } = {},
  ): Promise<BeaconAnswer> {
    if (!call.statusCallback) throw new Error(`call ${call.sid} was placed without a StatusCallback`);
    return this.post(call.statusCallback, {
      AccountSid: this.accountSid,
      ApiVersion: '2010-04-01',
      CallSid: call.sid,
      CallStatus: status,
      CallbackSource: 'call-progress-events',
      Called: call.to,
      Caller: call.from,
      Direction: 'outbound-api',
      From: call.from,
      SequenceNumber: String(o.sequence ?? 0),
      Timestamp: new Date().toUTCString(),
      To: call.to,
      ...(status === 'completed' ? { CallDuration: String(o.durationSeconds ?? 24), Duration: String(Math.ceil((o.durationSeconds ?? 24) / 60)) } : {}),
      ...(o.answeredBy ? { AnsweredBy: o.answeredBy } : {}),
    });
  }

  /** The person pressed `digits` during the call: posted to the <Gather>'s action in the call's TwiML, as its method says. */
  pressKey(call: FakeTwilioCall, digits: string): Promise<BeaconAnswer> {
    if (!call.twiml) throw new Error(`call ${call.sid} has no inline TwiML`);
    const [gather] = twimlElements(parseTwiml(call.twiml), 'Gather');
    if (!gather?.attrs.action) throw new Error(`call ${call.sid}'s TwiML has no <Gather action>`);
    if ((gather.attrs.method ?? 'POST').toUpperCase() !== 'POST') throw new Error('the fake posts Gather results only with method POST');
    return this.post(gather.attrs.action, {
      AccountSid: this.accountSid,
      ApiVersion: '2010-04-01',
      CallSid: call.sid,
      CallStatus: 'in-progress',
      Called: call.to,
      Caller: call.from,
      Digits: digits,
      Direction: 'outbound-api',
      FinishedOnKey: '',
      From: call.from,
      To: call.to,
      msg: 'Gather End',
    });
  }

  /** An SMS someone sent to Beacon's number, posted to `url` (the number's messaging webhook). */
  inboundSms(url: string, from: string, to: string, body: string): Promise<BeaconAnswer> {
    const sid = newSid('SM');
    return this.post(url, {
      AccountSid: this.accountSid,
      ApiVersion: '2010-04-01',
      Body: body,
      From: from,
      MessageSid: sid,
      NumMedia: '0',
      NumSegments: '1',
      SmsMessageSid: sid,
      SmsSid: sid,
      SmsStatus: 'received',
      To: to,
    });
  }

  async close() {
    this.server?.closeAllConnections();
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }
}

function send(res: ServerResponse, status: number, body: unknown) {
  res.statusCode = status;
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.end(JSON.stringify(body));
}

import { createHmac } from 'node:crypto';
import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { FakeTwilio, parseTwiml, said, signAsTwilio, twimlElements } from './fake-twilio';

const SID = 'AC0123456789abcdef0123456789abcdef';
const TOKEN = 'the-auth-token';

describe('signAsTwilio', () => {
  it("gives Twilio's documented signature for its worked example", () => {
    // https://www.twilio.com/docs/usage/security#validating-requests: the example's URL, POST parameters and token.
    const params = { CallSid: 'CA1234567890ABCDE', Caller: '+12349013030', Digits: '1234', From: '+12349013030', To: '+18005551212' };
    expect(signAsTwilio('https://mycompany.com/myapp.php?foo=1&bar=2', params, '12345')).toBe('0/KCTR6DLpKmkAf8muzZqo1nDgQ=');
  });

  it('sorts the parameters by name whatever order they come in, and covers the query', () => {
    const a = signAsTwilio('https://x.test/cb?d=1', { b: '2', a: '1' }, TOKEN);
    expect(a).toBe(signAsTwilio('https://x.test/cb?d=1', { a: '1', b: '2' }, TOKEN));
    expect(a).not.toBe(signAsTwilio('https://x.test/cb?d=2', { a: '1', b: '2' }, TOKEN));
  });
});

describe('parseTwiml / said', () => {
  it('reads the <Say>s in order, with their language and whether the <Gather> holds them', () => {
    const xml =
      '<Response><Gather numDigits="1" action="https://b.test/g?d=1&amp;x=2" method="POST"><Say language="es-US">Hola &amp; adiós</Say></Gather><Say language="es-US">Adiós.</Say></Response>';
    expect(said(xml)).toEqual([
      { language: 'es-US', text: 'Hola & adiós', inGather: true },
      { language: 'es-US', text: 'Adiós.', inGather: false },
    ]);
    expect(twimlElements(parseTwiml(xml), 'Gather')[0].attrs).toEqual({ numDigits: '1', action: 'https://b.test/g?d=1&x=2', method: 'POST' });
  });

  it('refuses what Twilio cannot parse', () => {
    expect(() => parseTwiml('<Response><Say>Fish & chips</Say></Response>')).toThrow();
    expect(() => parseTwiml('<Say>no response root</Say>')).toThrow(/Response/);
  });
});

describe('FakeTwilio', () => {
  const twilio = new FakeTwilio({ accountSid: SID, authToken: TOKEN });
  /** Beacon's side: records what the fake posts to it and answers 200 with TwiML. */
  let beacon: Server;
  let beaconUrl: string;
  const posted: { url: string; headers: IncomingMessage['headers']; body: string }[] = [];

  beforeAll(async () => {
    await twilio.start();
    beacon = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        posted.push({ url: req.url!, headers: req.headers, body });
        res.setHeader('content-type', 'text/xml');
        res.end('<Response/>');
      });
    });
    await new Promise<void>((r) => beacon.listen(0, '127.0.0.1', r));
    beaconUrl = `http://127.0.0.1:${(beacon.address() as AddressInfo).port}`;
    twilio.route('https://beacon.example.org', beaconUrl);
  });

  afterAll(async () => {
    await twilio.close();
    await new Promise((r) => beacon.close(r));
  });

  beforeEach(() => {
    posted.length = 0;
    twilio.script = [];
    twilio.downUntil = 0;
  });

  const auth = (sid = SID, token = TOKEN) => `Basic ${Buffer.from(`${sid}:${token}`).toString('base64')}`;
  async function post(resource: 'Messages' | 'Calls', params: Record<string, string>, o: { sid?: string; authorization?: string; json?: boolean } = {}) {
    const res = await fetch(`${twilio.url}/2010-04-01/Accounts/${o.sid ?? SID}/${resource}.json`, {
      method: 'POST',
      headers: {
        authorization: o.authorization ?? auth(),
        'content-type': o.json ? 'application/json' : 'application/x-www-form-urlencoded',
      },
      body: o.json ? JSON.stringify(params) : new URLSearchParams(params).toString(),
    });
    return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as Record<string, unknown> };
  }
  const sms = {
    To: '+16025550101',
    From: '+15005550006',
    Body: 'Wrong-way driver on I-10',
    StatusCallback: 'https://beacon.example.org/api/alerts/providers/twilio/sms/status?d=d-1',
  };
  const TWIML =
    '<Response><Gather numDigits="1" action="https://beacon.example.org/api/alerts/providers/twilio/voice/gather?d=d-2" method="POST"><Say>Hi</Say></Gather></Response>';
  const voice = {
    To: '+16025550102',
    From: '+15005550006',
    Twiml: TWIML,
    StatusCallback: 'https://beacon.example.org/api/alerts/providers/twilio/voice/status?d=d-2',
    Timeout: '30',
  };

  it('accepts a message as Twilio does: 201, a 34-character SM sid, queued; and records it', async () => {
    const res = await post('Messages', sms);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'queued', to: sms.To, from: sms.From, account_sid: SID });
    expect(res.body.sid).toMatch(/^SM[0-9a-f]{32}$/);
    expect(twilio.messages.at(-1)).toMatchObject({ sid: res.body.sid, to: sms.To, from: sms.From, body: sms.Body, statusCallback: sms.StatusCallback });
  });

  it('accepts a call with inline TwiML: a CA sid; and records it', async () => {
    const res = await post('Calls', voice);
    expect(res.status).toBe(201);
    expect(res.body.sid).toMatch(/^CA[0-9a-f]{32}$/);
    expect(twilio.calls.at(-1)).toMatchObject({ sid: res.body.sid, to: voice.To, twiml: TWIML, timeout: 30, statusCallback: voice.StatusCallback });
  });

  it('answers the account with basic auth, and 401 code 20003 for a wrong token', async () => {
    const ok = await fetch(`${twilio.url}/2010-04-01/Accounts/${SID}.json`, { headers: { authorization: auth() } });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ sid: SID, status: 'active' });
    const bad = await fetch(`${twilio.url}/2010-04-01/Accounts/${SID}.json`, { headers: { authorization: auth(SID, 'wrong') } });
    expect(bad.status).toBe(401);
    expect(await bad.json()).toMatchObject({ code: 20003, status: 401 });
    expect((await post('Messages', sms, { authorization: 'Bearer x' })).body).toMatchObject({ code: 20003 });
  });

  it("refuses another account's path with these credentials", async () => {
    const res = await post('Messages', sms, { sid: 'ACffffffffffffffffffffffffffffffff' });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe(20003);
  });

  it.each([
    ['a JSON body', sms, { json: true }, 400, 20001],
    ['no To', { ...sms, To: '' }, {}, 400, 21604],
    ['a To not in E.164', { ...sms, To: '602-555-0101' }, {}, 400, 21211],
    ['a From not in E.164', { ...sms, From: '5005550006' }, {}, 400, 21212],
    ['no Body', { ...sms, Body: '' }, {}, 400, 21602],
    ['a Body over 1,600 characters', { ...sms, Body: 'x'.repeat(1601) }, {}, 400, 21617],
    ['a StatusCallback that is not a URL', { ...sms, StatusCallback: 'beacon/status' }, {}, 400, 21609],
  ] as const)('refuses a message with %s', async (_what, params, o, status, code) => {
    const before = twilio.messages.length;
    const res = await post('Messages', params, o);
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({ code, status, more_info: `https://www.twilio.com/docs/errors/${code}` });
    expect(twilio.messages).toHaveLength(before);
  });

  it.each([
    ['neither Twiml nor Url', { ...voice, Twiml: '' }, 21205],
    ['TwiML that does not parse', { ...voice, Twiml: '<Response><Say>Fish & chips</Say></Response>' }, 12100],
    ['TwiML over 4,000 characters', { ...voice, Twiml: `<Response><Say>${'x'.repeat(4000)}</Say></Response>` }, 32018],
    ['a Timeout out of range', { ...voice, Timeout: '0' }, 21216],
  ] as const)('refuses a call with %s', async (_what, params, code) => {
    const res = await post('Calls', params);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(code);
  });

  it("refuses a number it was told cannot be reached with 21211, naming it as Twilio's message does", async () => {
    twilio.invalidNumbers.add('+16025550199');
    const res = await post('Messages', { ...sms, To: '+16025550199' });
    expect(res).toMatchObject({ status: 400, body: { code: 21211, message: "The 'To' number +16025550199 is not a valid phone number." } });
  });

  it('answers from its script (with Retry-After), and 503 while down', async () => {
    twilio.script = [{ status: 429, retryAfter: '3' }, 503];
    expect(await post('Messages', sms)).toMatchObject({ status: 429, retryAfter: '3', body: { code: 20429 } });
    expect(await post('Messages', sms)).toMatchObject({ status: 503, body: { code: 20500 } });
    expect((await post('Messages', sms)).status).toBe(201);
    twilio.downUntil = Date.now() + 60_000;
    expect((await post('Calls', voice)).status).toBe(503);
  });

  it('without records, counts through its callbacks only', async () => {
    const seen: string[] = [];
    const counting = new FakeTwilio({
      accountSid: SID,
      authToken: TOKEN,
      keepRecords: false,
      onMessage: (m) => seen.push(m.to),
      onCall: (c) => seen.push(c.to),
    });
    await counting.start();
    try {
      for (const [resource, params] of [
        ['Messages', sms],
        ['Calls', voice],
      ] as const) {
        const res = await fetch(`${counting.url}/2010-04-01/Accounts/${SID}/${resource}.json`, {
          method: 'POST',
          headers: { authorization: auth(), 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams(params).toString(),
        });
        expect(res.status).toBe(201);
      }
      expect(seen).toEqual([sms.To, voice.To]);
      expect(counting.messages).toHaveLength(0);
      expect(counting.calls).toHaveLength(0);
    } finally {
      await counting.close();
    }
  });

  /** The signature a receiver computes: HMAC-SHA1 of the public URL + sorted name/value pairs, written out here again. */
  function expectSignedAsTwilio(p: (typeof posted)[number], publicUrl: string) {
    const params = Object.fromEntries(new URLSearchParams(p.body));
    const data =
      publicUrl +
      Object.keys(params)
        .sort()
        .map((k) => k + params[k])
        .join('');
    expect(p.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(p.headers['x-twilio-signature']).toBe(createHmac('sha1', TOKEN).update(data).digest('base64'));
    return params;
  }

  it("posts a message's status to its StatusCallback, form-encoded and signed over the public URL", async () => {
    await post('Messages', sms);
    const msg = twilio.messages.at(-1)!;
    const answer = await twilio.messageStatus(msg, 'undelivered', 30003);
    expect(answer.status).toBe(200);
    expect(posted[0].url).toBe('/api/alerts/providers/twilio/sms/status?d=d-1');
    expect(expectSignedAsTwilio(posted[0], sms.StatusCallback)).toMatchObject({
      MessageSid: msg.sid,
      MessageStatus: 'undelivered',
      ErrorCode: '30003',
      AccountSid: SID,
      To: sms.To,
      From: sms.From,
    });
  });

  it("posts a call's status, and a key pressed to the <Gather>'s action", async () => {
    await post('Calls', voice);
    const call = twilio.calls.at(-1)!;
    await twilio.callStatus(call, 'completed', { durationSeconds: 31 });
    await twilio.pressKey(call, '1');
    expect(expectSignedAsTwilio(posted[0], voice.StatusCallback)).toMatchObject({ CallSid: call.sid, CallStatus: 'completed', CallDuration: '31' });
    expect(posted[1].url).toBe('/api/alerts/providers/twilio/voice/gather?d=d-2');
    expect(expectSignedAsTwilio(posted[1], 'https://beacon.example.org/api/alerts/providers/twilio/voice/gather?d=d-2')).toMatchObject({
      CallSid: call.sid,
      Digits: '1',
    });
  });

  it('posts an inbound SMS to the URL it is given', async () => {
    const url = 'https://beacon.example.org/api/alerts/providers/twilio/sms/inbound';
    const answer = await twilio.inboundSms(url, '+16025550101', '+15005550006', 'SAFE');
    expect(answer).toMatchObject({ status: 200, text: '<Response/>' });
    const params = expectSignedAsTwilio(posted[0], url);
    expect(params).toMatchObject({ From: '+16025550101', To: '+15005550006', Body: 'SAFE', AccountSid: SID });
    expect(params.MessageSid).toMatch(/^SM[0-9a-f]{32}$/);
  });
});

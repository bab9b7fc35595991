import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import type { AlertsDeliveryEnv } from '../config/delivery-env';
import { FakeTwilio } from '../testing/fake-twilio';
import { ProviderError } from './provider-error';
import { maskNumbers, TWILIO_CALL_EVENTS, TwilioClient, twilioErrorText } from './twilio.client';

const ACCOUNT = { accountSid: 'AC0123456789abcdef0123456789abcdef', authToken: 'token-123' };
const CALLBACK = 'https://beacon.example.org/api/alerts/providers/twilio/sms/status?d=d-1';
const TWIML = '<Response><Say language="en-US">Hello</Say></Response>';

const clientFor = (url: string, allowHosts = ['127.0.0.1']) => new TwilioClient({ TWILIO_API_URL: url, webhookAllowHosts: allowHosts } as AlertsDeliveryEnv);

async function failureOf(p: Promise<unknown>): Promise<ProviderError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(ProviderError);
    return e as ProviderError;
  }
  throw new Error('expected a ProviderError');
}

describe('TwilioClient against the fake Twilio API', () => {
  const twilio = new FakeTwilio(ACCOUNT);
  let client: TwilioClient;

  beforeAll(async () => {
    await twilio.start();
    client = clientFor(`${twilio.url}/`);
  });
  afterAll(() => twilio.close());
  beforeEach(() => {
    twilio.script = [];
    twilio.invalidNumbers.clear();
  });

  it('sends a message: form-encoded To, From, Body, StatusCallback; the sid and status back', async () => {
    const res = await client.sendMessage({ ...ACCOUNT, from: '+15005550006', to: '+16025550101', body: 'Storm & hail', statusCallback: CALLBACK });
    expect(res).toEqual({ sid: expect.stringMatching(/^SM[0-9a-f]{32}$/), status: 'queued' });
    expect(twilio.messages.at(-1)!.params).toEqual({ To: '+16025550101', From: '+15005550006', Body: 'Storm & hail', StatusCallback: CALLBACK });
  });

  it('places a call with inline TwiML, the call events, the ring time', async () => {
    const res = await client.placeCall({ ...ACCOUNT, from: '+15005550006', to: '+16025550101', twiml: TWIML, statusCallback: CALLBACK, timeoutSeconds: 30 });
    expect(res.sid).toMatch(/^CA[0-9a-f]{32}$/);
    expect(twilio.calls.at(-1)!.params).toEqual({
      To: '+16025550101',
      From: '+15005550006',
      Twiml: TWIML,
      StatusCallback: CALLBACK,
      StatusCallbackMethod: 'POST',
      StatusCallbackEvent: TWILIO_CALL_EVENTS,
      Timeout: '30',
    });
  });

  it('fetches the account', async () => {
    expect(await client.fetchAccount(ACCOUNT)).toEqual({ sid: ACCOUNT.accountSid, status: 'active', friendlyName: 'Beacon test account' });
  });

  it("a bad number is permanent, with Twilio's code and message and the number masked", async () => {
    twilio.invalidNumbers.add('+16025550199');
    const e = await failureOf(client.sendMessage({ ...ACCOUNT, from: '+15005550006', to: '+16025550199', body: 'x', statusCallback: CALLBACK }));
    expect(e).toMatchObject({ failure: 'permanent', status: 400 });
    expect(e.message).toBe("Twilio error 21211: The 'To' number [number] is not a valid phone number. (HTTP 400)");
    expect(e.message).not.toContain('5550199');
  });

  it('a wrong auth token is permanent (20003)', async () => {
    const e = await failureOf(client.fetchAccount({ ...ACCOUNT, authToken: 'wrong' }));
    expect(e).toMatchObject({ failure: 'permanent', status: 401 });
    expect(e.message).toBe('Twilio error 20003: Authenticate (HTTP 401)');
  });

  it('429 and 503 are transient and keep their Retry-After', async () => {
    twilio.script = [{ status: 429, retryAfter: '7' }, { status: 503, retryAfter: '2' }, 500];
    const send = () => client.sendMessage({ ...ACCOUNT, from: '+15005550006', to: '+16025550101', body: 'x', statusCallback: CALLBACK });
    expect(await failureOf(send())).toMatchObject({
      failure: 'transient',
      status: 429,
      retryAfterMs: 7000,
      message: 'Twilio error 20429: Too Many Requests (HTTP 429)',
    });
    expect(await failureOf(send())).toMatchObject({ failure: 'transient', status: 503, retryAfterMs: 2000 });
    expect(await failureOf(send())).toMatchObject({ failure: 'transient', status: 500, retryAfterMs: undefined });
  });

  it('an API URL the address guard refuses is permanent, and nothing is sent', async () => {
    const before = twilio.messages.length;
    const e = await failureOf(
      clientFor(twilio.url, []).sendMessage({ ...ACCOUNT, from: '+15005550006', to: '+16025550101', body: 'x', statusCallback: CALLBACK }),
    );
    expect(e.failure).toBe('permanent');
    expect(e.message).toMatch(/^Twilio API URL refused: /);
    expect(twilio.messages).toHaveLength(before);
  });
});

describe('TwilioClient against answers that are not Twilio', () => {
  let server: Server;
  let base: string;

  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        if (req.url!.includes('/hang/')) return; // never answers
        if (req.url!.includes('/html/')) {
          res.statusCode = 502;
          res.end('<html>Bad gateway for +16025550101</html>');
          return;
        }
        res.statusCode = 201;
        res.end('{"status":"queued"}');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  const message = { ...ACCOUNT, from: '+15005550006', to: '+16025550101', body: 'x', statusCallback: CALLBACK };

  it("a proxy's page is transient and says only the status (never the body it echoed)", async () => {
    const e = await failureOf(clientFor(`${base}/html`).sendMessage(message));
    expect(e).toMatchObject({ failure: 'transient', status: 502, message: 'Twilio answered 502' });
  });

  it('an accepted request without a sid is an unknown outcome: transient', async () => {
    expect(await failureOf(clientFor(base).sendMessage(message))).toMatchObject({ failure: 'transient', message: 'Twilio answered 201 without a sid' });
  });

  it('a request unanswered past its deadline is transient', async () => {
    const client = clientFor(`${base}/hang`);
    client.timeoutMs = 200;
    expect(await failureOf(client.sendMessage(message))).toMatchObject({ failure: 'transient', message: 'Twilio call failed: timed out' });
  });
});

describe('twilioErrorText', () => {
  it('masks numbers in any form, keeps the error code', () => {
    expect(maskNumbers('To +1 (602) 555-0101 and 6025550102, code 21211')).toBe('To [number] and [number], code 21211');
    expect(twilioErrorText({ status: 400, text: '{"code":21610,"message":"Attempt to send to unsubscribed recipient +16025550101"}', truncated: false })).toBe(
      'Twilio error 21610: Attempt to send to unsubscribed recipient [number] (HTTP 400)',
    );
  });
});

import { connect, ClientHttp2Session } from 'node:http2';
import { encryptPayload, signVapidJwt } from '../channels/web-push.crypto';
import { newVapidKeyPair, vapidSigningKey } from '../keys/server-keys';
import { FakePushOptions, FakePushService } from './fake-push-service';
import { ThrowawayCertificate, throwawayCertificate } from '@beacon/testing';

/**
 * The flow-control windows the fake push service grants a client. With node's default (64 KiB per connection) a
 * sender with hundreds of ~1 KB payloads in flight on one connection has only some 60 on the wire, and nghttp2 lets
 * newer streams overtake a stream whose body is waiting for window: a few waited past the sender's 10 s time-out and
 * were sent twice in the 1M benchmark. Real front doors grant far more (Google's: 1 MiB per stream and connection).
 */
describe('FakePushService flow-control windows', () => {
  let cert: ThrowawayCertificate;
  const services: FakePushService[] = [];
  const sessions: ClientHttp2Session[] = [];

  beforeAll(() => {
    cert = throwawayCertificate();
  });

  afterEach(async () => {
    for (const s of sessions.splice(0)) s.destroy();
    await Promise.all(services.splice(0).map((s) => s.close()));
  });

  afterAll(() => cert.remove());

  /** The windows a client may send in: per stream (the SETTINGS) and for the whole connection (after its WINDOW_UPDATE). */
  async function windowsGranted(options: FakePushOptions = {}) {
    const service = await new FakePushService({ tls: { key: cert.key, cert: cert.cert }, ...options }).start();
    services.push(service);
    const session = connect(service.origin, { ca: cert.cert });
    sessions.push(session);
    await new Promise<void>((resolve, reject) => {
      session.once('remoteSettings', () => resolve());
      session.once('error', reject);
    });
    // The server's WINDOW_UPDATE follows its SETTINGS; a ping's answer comes after both.
    await new Promise<void>((resolve, reject) => session.ping((e) => (e ? reject(e) : resolve())));
    return { stream: session.remoteSettings.initialWindowSize, connection: session.state.remoteWindowSize };
  }

  it("grants 1 MiB per stream and per connection when asked to, as Google's front ends do (the benchmark's setting)", async () => {
    expect(await windowsGranted({ windowBytes: 1 << 20 })).toEqual({ stream: 1 << 20, connection: 1 << 20 });
  });

  it("keeps node's default 64 KiB otherwise (a push service that keeps the defaults)", async () => {
    expect(await windowsGranted()).toEqual({ stream: 65_535, connection: 65_535 });
  });
});

/** The fake stands for a push service's front door, which verifies a sender's VAPID token once, not per message. */
describe('FakePushService VAPID checks', () => {
  let service: FakePushService;
  const { publicKey, privateKey } = newVapidKeyPair();
  const signingKey = vapidSigningKey(publicKey, privateKey);
  const authorization = (audience: string) =>
    `vapid t=${signVapidJwt(signingKey, audience, 'mailto:ops@beacon.local', Math.floor(Date.now() / 1000) + 3600)}, k=${publicKey}`;

  beforeEach(async () => {
    service = await new FakePushService({ keepReceived: true }).start();
  });
  afterEach(() => service.close());

  const post = (subscription: ReturnType<FakePushService['subscribe']>['json'], headers: Record<string, string>) =>
    fetch(subscription.endpoint, {
      method: 'POST',
      headers: { ttl: '60', 'content-encoding': 'aes128gcm', ...headers },
      body: encryptPayload(Buffer.from('{"title":"Wrong-way driver"}'), subscription.keys),
    }).then((r) => r.status);

  it('verifies a token once, however many requests carry it at once, and accepts them all', async () => {
    const checks = jest.spyOn(service as unknown as { checkVapid: (h: string) => Promise<boolean> }, 'checkVapid');
    const { json } = service.subscribe();
    const header = authorization(service.origin);
    const statuses = await Promise.all(Array.from({ length: 50 }, () => post(json, { authorization: header })));
    expect(statuses).toEqual(Array(50).fill(201));
    expect(await post(json, { authorization: header })).toBe(201);
    expect(checks).toHaveBeenCalledTimes(1);
  });

  it('refuses a token for another audience every time, without keeping it', async () => {
    const checks = jest.spyOn(service as unknown as { checkVapid: (h: string) => Promise<boolean> }, 'checkVapid');
    const { json } = service.subscribe();
    const header = authorization('https://push.example.com');
    expect(await post(json, { authorization: header })).toBe(401);
    expect(await post(json, { authorization: header })).toBe(401);
    expect(await post(json, {})).toBe(401);
    expect(checks).toHaveBeenCalledTimes(2);
  });
});

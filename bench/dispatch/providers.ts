import { createECDH } from 'node:crypto';
import { Agent, request as httpsRequest } from 'node:https';
import { connect as connectH2 } from 'node:http2';
import webpush from 'web-push';
import { FakePushService, FakeSubscriptionKeys } from '../../services/alerts/src/testing/fake-push-service';
import { FakeSmsWebhook } from '../../services/alerts/src/testing/fake-sms-webhook';
import { FakeTwilio } from '../../services/alerts/src/testing/fake-twilio';
import { Population } from './population';

/** The Twilio account the benchmark's fake answers for (saved in the benchmark database's admin settings). */
export const BENCH_TWILIO = { accountSid: 'AC00000000000000000000000000be4c40', authToken: 'bench-auth-token', from: '+15005550006' } as const;

/** Arrivals of one phase at the fake providers: per-subscriber counts, arrival times, rejections. */
export class ArrivalLog {
  readonly push: Uint8Array;
  readonly sms: Uint8Array;
  readonly voice: Uint8Array;
  /** ms after the phase's start, one entry per push message, SMS recipient or phone call. */
  readonly pushTimes: number[] = [];
  readonly smsTimes: number[] = [];
  readonly voiceTimes: number[] = [];
  smsCalls = 0;
  refused = 0;
  unknown = 0;

  constructor(
    size: number,
    readonly startedAt: number,
  ) {
    this.push = new Uint8Array(size);
    this.sms = new Uint8Array(size);
    this.voice = new Uint8Array(size);
  }
}

/**
 * The fake push service (the dispatcher tests' own, in counting mode: VAPID checked and cached, one payload in
 * DECRYPT_EVERY decrypted with the subscriber's key), the fake SMS webhook and the fake Twilio API (voice calls, each
 * request checked as Twilio documents it, TwiML parsed), all answering at once and counting what they receive per
 * subscriber, into whichever phase is current.
 */
export class Providers {
  readonly push: FakePushService;
  readonly sms: FakeSmsWebhook;
  readonly twilio: FakeTwilio;
  current: ArrivalLog | null = null;

  constructor(
    private readonly population: Population,
    private readonly tls: { key: string; cert: string } | undefined,
    decryptEvery: number,
  ) {
    const keys = population.keyPool.map((k) => {
      const ecdh = createECDH('prime256v1');
      ecdh.setPrivateKey(k.privateKey);
      return ecdh;
    });
    const resolve = (id: string): FakeSubscriptionKeys | undefined => {
      if (!/^\d+$/.test(id) || Number(id) >= population.size || !population.subscribed(Number(id))) return undefined;
      const i = Number(id);
      // The auth secret (an HMAC) is made only for the payloads the service decrypts.
      return {
        ecdh: keys[i % keys.length],
        get auth() {
          return population.pushKeys(i).auth;
        },
      };
    };
    this.push = new FakePushService({
      // As Google's front ends (FCM's push endpoints) grant: 100 streams per connection, 1 MiB flow-control windows.
      maxConcurrentStreams: 100,
      windowBytes: 1 << 20,
      keepReceived: false,
      decryptEvery,
      resolve,
      tls,
      onPush: (p, at) => {
        const log = this.current;
        if (!log) return;
        if (p.status !== 201) {
          log.refused++;
          return;
        }
        const i = Number(p.subscriptionId);
        if (log.push[i] < 255) log.push[i]++;
        log.pushTimes.push(at - log.startedAt);
      },
    });
    this.sms = new FakeSmsWebhook({
      keepReceived: false,
      onSms: (call, at) => {
        const log = this.current;
        if (!log) return;
        log.smsCalls++;
        for (const phone of call.body.recipients ?? []) {
          const i = Population.indexOfPhone(phone);
          if (!(i < this.population.size) || this.population.phone(i) !== phone) {
            log.unknown++;
            continue;
          }
          if (log.sms[i] < 255) log.sms[i]++;
          log.smsTimes.push(at - log.startedAt);
        }
      },
    });
    this.twilio = new FakeTwilio({
      accountSid: BENCH_TWILIO.accountSid,
      authToken: BENCH_TWILIO.authToken,
      keepRecords: false,
      onCall: (call, at) => {
        const log = this.current;
        if (!log) return;
        const i = Population.indexOfPhone(call.to);
        if (!(i < this.population.size) || this.population.phone(i) !== call.to) {
          log.unknown++;
          return;
        }
        if (log.voice[i] < 255) log.voice[i]++;
        log.voiceTimes.push(at - log.startedAt);
      },
      // SMS goes through the webhook in this benchmark: a message here is one nobody should have had.
      onMessage: () => {
        if (this.current) this.current.unknown++;
      },
    });
  }

  async start() {
    await Promise.all([this.push.start(), this.sms.start(), this.twilio.start()]);
    return this;
  }

  /**
   * Warms the fakes up before any phase is measured, as the front door of a real push service or SMS gateway, which
   * has been serving for months, is: `pushes` requests over HTTP/2 and a fifth of that over HTTP/1.1 (valid VAPID
   * tokens, payloads that decrypt, the decryption sample included) and `smsCalls` webhook calls, counted in no phase.
   * Without it the first phase pays for the stand-ins' own JIT compilation (at 100k, about half the CPU the fake push
   * service spends there) and the second does not.
   */
  async warmUp({ pushes = 20_000, smsCalls = 200, voiceCalls = 500 }: { pushes?: number; smsCalls?: number; voiceCalls?: number } = {}) {
    if (this.current) throw new Error('warm up the providers before a phase, not during one');
    const vapid = webpush.generateVAPIDKeys();
    const subscribers: number[] = [];
    for (let i = 0; i < this.population.size && subscribers.length < 64; i++) if (this.population.subscribed(i)) subscribers.push(i);
    // A few distinct requests, sent again and again: making one costs the web-push library about half a millisecond.
    const prepared = subscribers.map((i) => {
      const { p256dh, auth } = this.population.pushKeys(i);
      const r = webpush.generateRequestDetails(
        { endpoint: `${this.push.origin}/push/${i}`, keys: { p256dh, auth } },
        JSON.stringify({ alertId: 'warm-up', deliveryId: `warm-up-${i}`, title: 'Warm-up', body: 'x'.repeat(200), severity: 'critical' }),
        { vapidDetails: { subject: 'mailto:bench@beacon.local', ...vapid }, TTL: 60 },
      );
      return { path: new URL(r.endpoint).pathname, headers: r.headers as Record<string, string>, body: r.body as Buffer };
    });
    const ca = this.tls?.cert;
    const failed: string[] = [];
    const each = async (n: number, concurrency: number, send: (k: number) => Promise<number>) => {
      let next = 0;
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (next < n) {
            const status = await send(next++);
            if (status >= 300 && failed.length < 3) failed.push(String(status));
          }
        }),
      );
    };
    const h2 = connectH2(this.push.origin, { ca });
    try {
      await each(pushes, 100, (k) => {
        const p = prepared[k % prepared.length];
        return new Promise((resolve, reject) => {
          const stream = h2.request({ ':method': 'POST', ':path': p.path, ...p.headers });
          stream.on('response', (h) => resolve(Number(h[':status'])));
          stream.on('error', reject);
          stream.resume();
          stream.end(p.body);
        });
      });
    } finally {
      h2.close();
    }
    const agent = new Agent({ keepAlive: true, maxSockets: 20, ca });
    try {
      await each(Math.ceil(pushes / 5), 20, (k) => {
        const p = prepared[k % prepared.length];
        return new Promise((resolve, reject) => {
          const req = httpsRequest(`${this.push.origin}${p.path}`, { method: 'POST', headers: p.headers, agent }, (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          });
          req.on('error', reject);
          req.end(p.body);
        });
      });
    } finally {
      agent.destroy();
    }
    const phones: string[] = [];
    for (let i = 0; i < this.population.size && phones.length < 500; i++) {
      const phone = this.population.phone(i);
      if (phone) phones.push(phone);
    }
    await each(smsCalls, 4, async () => {
      const res = await fetch(this.sms.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          type: 'warm-up',
          title: 'Warm-up',
          message: 'x',
          priority: 'high',
          recipients: phones,
          timestamp: new Date().toISOString(),
          source: 'beacon',
        }),
      });
      await res.arrayBuffer();
      return res.status;
    });
    const authorization = `Basic ${Buffer.from(`${BENCH_TWILIO.accountSid}:${BENCH_TWILIO.authToken}`).toString('base64')}`;
    const twiml = `<Response><Gather numDigits="1" action="https://beacon.example.org/gather?d=warm-up" method="POST"><Say language="en-US">${'Warm-up. '.repeat(40)}</Say></Gather></Response>`;
    await each(voiceCalls, 8, async (k) => {
      const res = await fetch(`${this.twilio.url}/2010-04-01/Accounts/${BENCH_TWILIO.accountSid}/Calls.json`, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ To: phones[k % phones.length] ?? '+14800000000', From: BENCH_TWILIO.from, Twiml: twiml, Timeout: '30' }).toString(),
      });
      await res.arrayBuffer();
      return res.status;
    });
    if (failed.length) throw new Error(`the fake providers refused warm-up requests (${failed.join(', ')})`);
  }

  async close() {
    await Promise.all([this.push.close(), this.sms.close(), this.twilio.close()]);
  }
}

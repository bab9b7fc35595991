import { createECDH } from 'node:crypto';
import { FakePushService, FakeSubscriptionKeys } from '../../services/alerts/src/testing/fake-push-service';
import { FakeSmsWebhook } from '../../services/alerts/src/testing/fake-sms-webhook';
import { Population } from './population';

/** Arrivals of one phase at the fake providers: per-subscriber counts, arrival times, rejections. */
export class ArrivalLog {
  readonly push: Uint8Array;
  readonly sms: Uint8Array;
  /** ms after the phase's start, one entry per push message or SMS recipient. */
  readonly pushTimes: number[] = [];
  readonly smsTimes: number[] = [];
  smsCalls = 0;
  refused = 0;
  unknown = 0;

  constructor(
    size: number,
    readonly startedAt: number,
  ) {
    this.push = new Uint8Array(size);
    this.sms = new Uint8Array(size);
  }
}

/**
 * The fake push service (the dispatcher tests' own, in counting mode: VAPID checked and cached, one payload in
 * DECRYPT_EVERY decrypted with the subscriber's key) and the fake SMS webhook, both answering at once and
 * counting what they receive per subscriber, into whichever phase is current.
 */
export class Providers {
  readonly push: FakePushService;
  readonly sms: FakeSmsWebhook;
  current: ArrivalLog | null = null;

  constructor(
    private readonly population: Population,
    tls: { key: string; cert: string } | undefined,
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
  }

  async start() {
    await Promise.all([this.push.start(), this.sms.start()]);
    return this;
  }

  async close() {
    await Promise.all([this.push.close(), this.sms.close()]);
  }
}

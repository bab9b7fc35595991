import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { ChannelBatch, JobName, JobPayloads, PUSH_TTL_SECONDS, pushAndroidChannel, pushPriority } from '@beacon/contracts';
import type { Job } from 'bullmq';
import { AppError, assertPublicUrl, OnJob } from '@beacon/common';
import { ServerKeys } from '../keys/server-keys';
import { classifyStatus, networkFailure, ProviderError, retryAfterOf } from '../providers/provider-error';
import { pushEndpointRefusal } from '../push/push-endpoint-policy';
import { DispatcherEnv } from '../config/dispatcher-env.dto';
import { ChannelBatchRunner, ChannelSender, mapLimit, SendWindow } from './channel-batch.runner';
import { ChannelMessage, SendTargetsRepository } from './send-targets.repository';
import type { Outcome } from '../deliveries/deliveries.repository';
import { DIGEST_URL, digestPushBody, digestTitle, isDigest, PUSH_DIGEST_MAX_IDS } from './digest';
import { PushHttpClient } from './push-http';
import { encryptPayload, VapidTokenCache } from './web-push.crypto';

/** The JSON the service worker (web/public/push-sw.js) receives, decrypted, in its push event. */
export interface PushPayload {
  /** The alert, or a digest's most severe alert. */
  alertId: string;
  /** A digest's alerts, most severe first, at most PUSH_DIGEST_MAX_IDS (absent for a single alert). */
  alertIds?: string[];
  deliveryId: string;
  title: string;
  body: string;
  severity: string;
  category: string;
  type: string;
  url: string;
  priority: 10 | 5;
  ttl: number;
  channel: string;
  icon: string;
  badge: string;
  requireInteraction: boolean;
  receipt: { url: string; delivered: string; ack: string };
}

const ORIGIN_CHECK_TTL_MS = 5 * 60_000;

/**
 * Web Push (RFC 8030) with VAPID and aes128gcm payloads, over keep-alive connections. One request per subscription; a delivery is sent
 * when any of the user's browsers accepted it. 404/410 remove that subscription. Each request carries the
 * delivery id as Idempotency-Key and the alert as Topic, so a repeat after a crash replaces, not adds.
 */
@Injectable()
export class PushSender implements ChannelSender, OnApplicationShutdown {
  private readonly logger = new Logger('PushSender');
  private vapid?: VapidTokenCache;
  private readonly checkedOrigins = new Map<string, number>();
  private readonly http: PushHttpClient;

  constructor(
    private readonly targets: SendTargetsRepository,
    private readonly keys: ServerKeys,
    private readonly runner: ChannelBatchRunner,
    private readonly env: DispatcherEnv,
  ) {
    this.http = new PushHttpClient(env.PUSH_MAX_SOCKETS, { http2: env.PUSH_HTTP2, allowHosts: env.webhookAllowHosts });
  }

  @OnJob(JobName.PushSend)
  handle(data: JobPayloads[JobName.PushSend], job: Job) {
    return this.runner.run(data, job, this);
  }

  async send(messages: ChannelMessage[], _batch: ChannelBatch, window: SendWindow): Promise<Outcome[]> {
    const targets = await this.targets.pushTargets(messages.map((m) => m.id), this.env.PUSH_SUBSCRIPTIONS_PER_USER);
    const vapid = await this.vapidCache();
    const prepared = new Map<string, { body: Buffer; headers: Record<string, string> }>();
    for (const m of messages) {
      const lead = m.alerts[0];
      prepared.set(m.id, {
        body: Buffer.from(JSON.stringify(await this.payload(m))),
        headers: {
          'content-encoding': 'aes128gcm',
          'content-type': 'application/octet-stream',
          ttl: String(PUSH_TTL_SECONDS),
          urgency: lead.severity === 'critical' ? 'high' : 'normal',
          // A repeat replaces what the push service still holds: per alert, or per digest.
          topic: (isDigest(m) ? m.id : lead.id).replace(/-/g, ''),
        },
      });
    }

    const results = await mapLimit(targets, this.env.PUSH_REQUEST_CONCURRENCY, async (t) => {
      if (Date.now() >= window.deadline) return { t, failure: 'deferred' as const, error: 'batch deadline passed before this request' };
      // Not called at all, and a failure like any other: the row is retired once it has kept failing, so an operator
      // who narrowed PUSH_ENDPOINT_HOSTS by mistake has PUSH_RETIRE_HOURS to widen it again before anything is lost.
      const policy = pushEndpointRefusal(t.endpoint, this.env);
      if (policy) return { t, failure: 'permanent' as const, error: `push endpoint refused: ${policy.message}` };
      try {
        const url = new URL(t.endpoint);
        await this.checkOrigin(url);
        // A fresh sender key pair per message (RFC 8291); the VAPID header is signed once per origin.
        const { body: plain, headers } = prepared.get(t.delivery_id)!;
        const body = encryptPayload(plain, { p256dh: t.p256dh, auth: t.auth });
        const res = await this.http.post(url, { ...headers, authorization: vapid.authorization(url.origin), 'idempotency-key': t.delivery_id }, body, this.env.PUSH_TIMEOUT_MS);
        const failure = classifyStatus(res.status, true);
        return { t, failure, error: failure ? `push service answered ${res.status}` : '', retryAfterMs: retryAfterOf(res.status, res.retryAfter) };
      } catch (e) {
        const err = e instanceof AppError ? refused(e) : networkFailure(e, 'push request failed');
        return { t, failure: err.failure, error: err.message };
      }
    });

    await this.targets.removeSubscriptions(results.filter((r) => r.failure === 'gone').map((r) => r.t.subscription_id));
    await this.targets.markSubscriptionsUsed(results.filter((r) => r.failure === null).map((r) => r.t.subscription_id));
    const failed = results.filter((r) => r.failure === 'transient' || r.failure === 'permanent').map((r) => r.t.subscription_id);
    const retired = await this.targets.recordSubscriptionFailures(failed, { failures: this.env.PUSH_RETIRE_FAILURES, hours: this.env.PUSH_RETIRE_HOURS });
    if (retired.length) this.logger.log(`retired ${retired.length} push endpoint(s) that kept failing`);

    const byDelivery = new Map<string, typeof results>();
    for (const r of results) {
      const list = byDelivery.get(r.t.delivery_id);
      if (list) list.push(r);
      else byDelivery.set(r.t.delivery_id, [r]);
    }
    return messages.map((d): Outcome => {
      const mine = byDelivery.get(d.id) ?? [];
      if (!mine.length) return { id: d.id, ok: false, failure: 'permanent', error: 'no push subscription' };
      if (mine.some((r) => r.failure === null)) return { id: d.id, ok: true };
      // A subscription not tried yet may still take it.
      if (mine.some((r) => r.failure === 'deferred')) return { id: d.id, ok: false, failure: 'deferred', error: 'batch deadline passed before this request' };
      const transient = mine.filter((r) => r.failure === 'transient');
      if (transient.length) {
        // The user's browsers may use several push services: wait for the one that asked for longest.
        const asked = transient.map((r) => r.retryAfterMs).filter((ms): ms is number => ms !== undefined);
        return { id: d.id, ok: false, failure: 'transient', error: transient[0].error, retryAfterMs: asked.length ? Math.max(...asked) : undefined };
      }
      const permanent = mine.find((r) => r.failure === 'permanent');
      return { id: d.id, ok: false, failure: permanent ? 'permanent' : 'gone', error: permanent?.error ?? 'push subscription expired (404/410); removed' };
    });
  }

  onApplicationShutdown() {
    this.http.close();
  }

  private async payload(m: ChannelMessage): Promise<PushPayload> {
    return pushPayload(m, {
      url: `${this.env.PUBLIC_URL.replace(/\/$/, '')}/api/alerts/deliveries/${m.id}/receipt`,
      delivered: await this.keys.receiptToken(m.id, 'delivered'),
      ack: await this.keys.receiptToken(m.id, 'ack'),
    });
  }

  private async vapidCache() {
    if (!this.vapid) {
      const { privateKey, publicKey } = await this.keys.vapid();
      this.vapid = new VapidTokenCache(privateKey, publicKey, this.env.VAPID_SUBJECT);
    }
    return this.vapid;
  }

  /**
   * Endpoints are user-supplied URLs: a bad scheme or a private target fails here, once per origin every few
   * minutes, before any encryption. It does not pin the address: PushHttpClient checks every connection.
   */
  private async checkOrigin(url: URL) {
    const origin = url.origin;
    if ((this.checkedOrigins.get(origin) ?? 0) > Date.now()) return;
    try {
      await assertPublicUrl(url.href, this.env.webhookAllowHosts);
    } catch (e) {
      throw e instanceof AppError ? refused(e) : e;
    }
    this.checkedOrigins.set(origin, Date.now() + ORIGIN_CHECK_TTL_MS);
  }
}

/** The SSRF guard's refusal (when checked or when connecting) fails the subscription at once. */
function refused(e: AppError) {
  return new ProviderError('permanent', `push endpoint refused: ${e.message}`);
}

/** What the service worker receives for one message: a single alert, or a digest (see web/public/push-sw.js). */
export function pushPayload(m: ChannelMessage, receipt: PushPayload['receipt']): PushPayload {
  const alert = m.alerts[0];
  const digest = isDigest(m);
  return {
    alertId: alert.id,
    ...(digest ? { alertIds: m.alerts.slice(0, PUSH_DIGEST_MAX_IDS).map((a) => a.id) } : {}),
    deliveryId: m.id,
    title: digest ? digestTitle(m.alerts) : alert.title,
    body: digest ? digestPushBody(m.alerts) : alert.message,
    severity: alert.severity,
    category: alert.category,
    type: alert.type,
    url: digest ? DIGEST_URL : `/alerts/${alert.id}`,
    priority: pushPriority(alert.severity),
    ttl: PUSH_TTL_SECONDS,
    channel: pushAndroidChannel(alert.severity),
    icon: '/icon-192.png',
    badge: '/icon-192.png',
    requireInteraction: alert.severity === 'critical',
    receipt,
  };
}

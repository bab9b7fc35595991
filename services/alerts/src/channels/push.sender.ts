import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { ChannelBatch, JobName, JobPayloads, PUSH_TTL_SECONDS, pushAndroidChannel, pushPriority } from '@beacon/contracts';
import type { Job } from 'bullmq';
import { AppError, assertPublicUrl, observeProvider, OnJob } from '@beacon/common';
import { ServerKeys } from '../keys/server-keys';
import { classifyStatus, networkFailure, ProviderError, retryAfterOf } from '../providers/provider-error';
import { PushEndpointRefusal, pushUrlRefusal } from '../push/push-endpoint-policy';
import { DispatcherEnv } from '../config/dispatcher-env.dto';
import { ChannelHealthRepository } from '../settings/channel-health.repository';
import { recordChannelError } from './channel-errors';
import { ChannelBatchRunner, ChannelSender, SendWindow, sendEach, Settle } from './channel-batch.runner';
import { ChannelMessage, PushTarget, SendTargetsRepository } from './send-targets.repository';
import type { Outcome } from '../deliveries/deliveries.repository';
import { DIGEST_URL, digestPushBody, digestTitle, isDigest, PUSH_DIGEST_MAX_IDS } from './digest';
import { PushHttpClient } from './push-http';
import { encryptPayload, VapidTokenCache, WEB_PUSH_ECDH } from './web-push.crypto';

/** The JSON the service worker (web/public/push-sw.js) receives, decrypted, in its push event. */
export interface PushPayload {
  /** The alert, or a digest's most severe alert. */
  alertId: string;
  /** A digest's alerts, most severe first, at most PUSH_DIGEST_MAX_IDS (absent for a single alert). */
  alertIds?: string[];
  deliveryId: string;
  title: string;
  body: string;
  /** The language title and body are in: the recipient's, or English (a digest: its lead alert's). */
  lang: string;
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
const MAX_CACHED_ORIGINS = 1000;

/**
 * Web Push (RFC 8030) with VAPID and aes128gcm payloads, over keep-alive connections. One request per subscription;
 * a delivery is sent when any of the user's browsers accepted it, and a browser whose push service failed
 * transiently is retried on its own (the ones that accepted are remembered and not sent it again). 404/410 remove
 * that subscription. Each request carries the delivery id as Idempotency-Key and the alert as Topic, so a repeat
 * after a crash replaces, not adds.
 */
@Injectable()
export class PushSender implements ChannelSender, OnApplicationShutdown {
  private readonly logger = new Logger('PushSender');
  private vapid?: VapidTokenCache;
  private readonly checkedOrigins = new Map<string, number>();
  private readonly originPolicies = new Map<string, PushEndpointRefusal | null>();
  private readonly http: PushHttpClient;

  constructor(
    private readonly targets: SendTargetsRepository,
    private readonly keys: ServerKeys,
    private readonly runner: ChannelBatchRunner,
    private readonly env: DispatcherEnv,
    private readonly channelHealth: ChannelHealthRepository,
  ) {
    this.http = new PushHttpClient(env.PUSH_MAX_SOCKETS, { http2: env.PUSH_HTTP2, allowHosts: env.webhookAllowHosts });
    if (WEB_PUSH_ECDH.implementation === 'native') this.logger.log('Web Push encryption: native, one call per message (libs/webpush-native)');
    else this.logger.warn(`Web Push encryption: node:crypto, about twice the CPU per push (native addon: ${WEB_PUSH_ECDH.reason})`);
  }

  @OnJob(JobName.PushSend)
  handle(data: JobPayloads[JobName.PushSend], job: Job) {
    return this.runner.run(data, job, this);
  }

  async send(messages: ChannelMessage[], _batch: ChannelBatch, window: SendWindow, settle: Settle): Promise<void> {
    const targets = await this.targets.pushTargets(
      messages.filter((m) => m.recipient.push_enabled).map((m) => m.userId),
      this.env.PUSH_SUBSCRIPTIONS_PER_USER,
    );
    const vapid = await this.vapidCache();
    const health = { gone: [] as string[], recovered: [] as string[], failed: [] as string[] };
    const refusals: string[] = [];

    // A lane is one message: its requests to the user's browsers go together, and its outcome is settled before the
    // lane takes the next message.
    await sendEach(messages, this.env.PUSH_REQUEST_CONCURRENCY, settle, async (m): Promise<Outcome> => {
      if (!m.recipient.push_enabled) return { id: m.id, ok: false, failure: 'withdrawn', error: 'the user turned push alerts off' };
      const reached = m.pushAccepted.length > 0;
      const all = targets.get(m.userId) ?? [];
      const mine = reached ? all.filter((t) => !m.pushAccepted.includes(t.subscription_id)) : all;
      if (!mine.length) return reached ? { id: m.id, ok: true } : { id: m.id, ok: false, failure: 'permanent', error: 'no push subscription' };
      if (Date.now() >= window.deadline) return { id: m.id, ok: false, failure: 'deferred', error: 'batch deadline passed before this request' };
      const request = await this.prepare(m);
      const results = await Promise.all(mine.map((t) => this.post(t, m.id, request, vapid)));
      for (const r of results) {
        if (r.failure === null) {
          if (r.t.failing) health.recovered.push(r.t.subscription_id);
        } else if (r.failure === 'gone') health.gone.push(r.t.subscription_id);
        else health.failed.push(r.t.subscription_id);
      }
      const outcome = outcomeOf(m.id, results, reached);
      if (!outcome.ok && outcome.failure === 'permanent') refusals.push(outcome.error);
      return outcome;
    });

    await this.recordHealth(health);
    // The last refusal of the batch (a push service's status, or the endpoint policy's): what provider health shows.
    if (refusals.length) await recordChannelError(this.channelHealth, 'push', refusals[refusals.length - 1]);
  }

  /** One request to one browser's push service; its failure classified, never thrown. */
  private async post(
    t: PushTarget,
    messageId: string,
    request: { body: Buffer; headers: Record<string, string> },
    vapid: VapidTokenCache,
  ): Promise<PushResult> {
    // Not called at all, and a failure like any other: the row is retired once it has kept failing, so an operator
    // who narrowed PUSH_ENDPOINT_HOSTS by mistake has PUSH_RETIRE_HOURS to widen it again before anything is lost.
    let url: URL;
    try {
      url = new URL(t.endpoint);
    } catch {
      return { t, failure: 'permanent', error: 'push endpoint refused: The push endpoint is not a valid URL' };
    }
    const policy = this.policyFor(url);
    if (policy) return { t, failure: 'permanent', error: `push endpoint refused: ${policy.message}` };
    try {
      await this.checkOrigin(url);
      // A fresh sender key pair per message (RFC 8291); the VAPID header is signed once per origin.
      const body = encryptPayload(request.body, { p256dh: t.p256dh, auth: t.auth });
      const res = await observeProvider(
        'push',
        () =>
          this.http.post(url, { ...request.headers, authorization: vapid.forOrigin(url.origin), 'idempotency-key': messageId }, body, this.env.PUSH_TIMEOUT_MS),
        (r) => r.status,
      );
      const failure = classifyStatus(res.status, true);
      return { t, failure, error: failure ? `push service answered ${res.status}` : '', retryAfterMs: retryAfterOf(res.status, res.retryAfter) };
    } catch (e) {
      const err = e instanceof AppError ? refused(e) : networkFailure(e, 'push request failed');
      return { t, failure: err.failure, error: err.message };
    }
  }

  private async prepare(m: ChannelMessage) {
    const lead = m.alerts[0];
    return {
      body: Buffer.from(JSON.stringify(await this.payload(m))),
      headers: {
        'content-encoding': 'aes128gcm',
        'content-type': 'application/octet-stream',
        ttl: String(PUSH_TTL_SECONDS),
        urgency: lead.severity === 'critical' ? 'high' : 'normal',
        // A repeat replaces what the push service still holds: per alert, or per digest.
        topic: (isDigest(m) ? m.id : lead.id).replace(/-/g, ''),
      },
    };
  }

  /**
   * Subscriptions' health after the batch: gone ones removed, failing ones that took the message cleared, the others'
   * failures counted (and retired past the limit). Best effort: the deliveries' outcomes are already written, and a
   * browser that is gone answers 410 again.
   */
  private async recordHealth(health: { gone: string[]; recovered: string[]; failed: string[] }) {
    try {
      await this.targets.removeSubscriptions(health.gone);
      await this.targets.clearSubscriptionFailures(health.recovered);
      const retired = await this.targets.recordSubscriptionFailures(health.failed, {
        failures: this.env.PUSH_RETIRE_FAILURES,
        hours: this.env.PUSH_RETIRE_HOURS,
      });
      if (retired.length) this.logger.log(`retired ${retired.length} push endpoint(s) that kept failing`);
    } catch (e) {
      this.logger.warn(`push subscriptions' health not recorded: ${(e as Error).message}`);
    }
  }

  onApplicationShutdown() {
    this.http.close();
  }

  private async payload(m: ChannelMessage): Promise<PushPayload> {
    return pushPayload(m, { url: `${this.env.PUBLIC_URL.replace(/\/$/, '')}/api/alerts/deliveries/${m.id}/receipt`, ...(await this.keys.receiptTokens(m.id)) });
  }

  private async vapidCache() {
    if (!this.vapid) {
      const { privateKey, publicKey } = await this.keys.vapid();
      this.vapid = new VapidTokenCache(privateKey, publicKey, this.env.VAPID_SUBJECT);
    }
    return this.vapid;
  }

  /** The endpoint policy's answer for this URL's origin (it reads nothing else), decided once per origin. */
  private policyFor(url: URL) {
    let answer = this.originPolicies.get(url.origin);
    if (answer === undefined) {
      // Endpoints are user-supplied: a flood of distinct origins must not grow the map without bound.
      if (this.originPolicies.size >= MAX_CACHED_ORIGINS) this.originPolicies.clear();
      this.originPolicies.set(url.origin, (answer = pushUrlRefusal(url, this.env)));
    }
    return answer;
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

interface PushResult {
  t: PushTarget;
  failure: 'transient' | 'permanent' | 'gone' | null;
  error: string;
  retryAfterMs?: number;
}

/**
 * A message's outcome from its requests to the user's browsers (and whether one took it on an earlier attempt): any
 * transient failure is retried, for those browsers only (`accepted` keeps the others from a repeat); otherwise it
 * is sent if any browser took it, and fails with the browsers' own reasons if none did.
 */
export function outcomeOf(id: string, results: PushResult[], reachedBefore: boolean): Outcome {
  const accepted = results.filter((r) => r.failure === null).map((r) => r.t.subscription_id);
  const transient = results.filter((r) => r.failure === 'transient');
  if (transient.length) {
    // The user's browsers may use several push services: wait for the one that asked for longest.
    const asked = transient.map((r) => r.retryAfterMs).filter((ms): ms is number => ms !== undefined);
    return { id, ok: false, failure: 'transient', error: transient[0].error, retryAfterMs: asked.length ? Math.max(...asked) : undefined, accepted };
  }
  if (accepted.length || reachedBefore) return { id, ok: true, accepted };
  const permanent = results.find((r) => r.failure === 'permanent');
  return { id, ok: false, failure: permanent ? 'permanent' : 'gone', error: permanent?.error ?? 'push subscription expired (404/410); removed' };
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
    lang: alert.language ?? 'en',
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

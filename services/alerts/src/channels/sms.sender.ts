import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { Job } from 'bullmq';
import { ChannelBatch, JobName, JobPayloads, priorityOfSeverity } from '@beacon/contracts';
import { ProviderError } from '../providers/provider-error';
import { postWebhook } from '../providers/webhook.client';
import { channelProblem } from '../settings/channel-readiness';
import { SettingsRepository } from '../settings/settings.repository';
import { DispatcherEnv } from '../config/dispatcher-env.dto';
import { BatchRefused, ChannelBatchRunner, ChannelSender, SendWindow, Settle } from './channel-batch.runner';
import { ChannelMessage, SendableAlert } from './send-targets.repository';
import type { Outcome } from '../deliveries/deliveries.repository';
import { DIGEST_URL, digestSmsText, digestTitle } from './digest';
import { textKey } from './alert-text';
import { observeProvider, OnJob } from '@beacon/common';

/** Why an SMS did not go out to a number that replied STOP (the per-recipient report shows it). */
export const STOPPED_BY_REPLY = 'the number replied STOP';

/** Spec: the SMS webhook call times out after 30 s. */
export const SMS_TIMEOUT_MS = 30_000;

/**
 * SMS through the configured webhook (n8n or similar): ONE call per batch with every recipient, the
 * spec's payload, and the batch's deterministic key as Idempotency-Key, so a retried call is the same call.
 * A batch of released held deliveries may carry digests: one call per distinct text (per set of alerts).
 */
@Injectable()
export class SmsSender implements ChannelSender {
  constructor(
    private readonly settings: SettingsRepository,
    private readonly runner: ChannelBatchRunner,
    private readonly env: DispatcherEnv,
  ) {}

  @OnJob(JobName.SmsSend)
  handle(data: JobPayloads[JobName.SmsSend], job: Job) {
    return this.runner.run(data, job, this);
  }

  async send(messages: ChannelMessage[], batch: ChannelBatch, window: SendWindow, settle: Settle): Promise<void> {
    const settings = await this.settings.get();
    const problem = channelProblem(settings, 'sms');
    if (problem) throw new BatchRefused(problem);
    const { webhook } = settings;

    const phone = (m: ChannelMessage) => (m.recipient.sms_enabled && !m.recipient.sms_stopped ? m.recipient.phone_number : null);
    await Promise.all(
      messages
        .filter((m) => !phone(m))
        .map((m): Outcome =>
          !m.recipient.sms_enabled
            ? { id: m.id, ok: false, failure: 'withdrawn', error: 'the user turned SMS alerts off' }
            : m.recipient.sms_stopped
              ? { id: m.id, ok: false, failure: 'withdrawn', error: STOPPED_BY_REPLY }
              : { id: m.id, ok: false, failure: 'permanent', error: 'no phone number' },
        )
        .map(settle),
    );

    const calls = new Map<string, ChannelMessage[]>();
    for (const m of messages) {
      if (!phone(m)) continue;
      // One call per text: the same alerts, carried the same way (an update, new ...), in the same languages.
      const key = textKey(m.alerts);
      const group = calls.get(key);
      if (group) group.push(m);
      else calls.set(key, [m]);
    }
    for (const [key, group] of calls) {
      // A digest batch makes one call per set of alerts, one after another: none starts past the deadline.
      if (Date.now() >= window.deadline) {
        await Promise.all(group.map((m) => settle({ id: m.id, ok: false, failure: 'deferred', error: 'batch deadline passed before this call' })));
        continue;
      }
      const plain = key === batch.alertId;
      let outcomes: Outcome[];
      try {
        const messageId = await this.call(
          webhook.url,
          group[0].alerts,
          group.map((m) => phone(m)!),
          batch,
          plain ? '' : key,
        );
        outcomes = group.map((m) => ({ id: m.id, ok: true, delivered: messageId.delivered, messageId: messageId.id }));
      } catch (e) {
        const refused = e instanceof ProviderError && e.failure !== 'transient';
        // One call is the whole batch: it fails or is retried as a whole, as before digests.
        if (calls.size === 1) throw refused ? new BatchRefused(e.message) : e;
        const retryAfterMs = e instanceof ProviderError ? e.retryAfterMs : undefined;
        outcomes = group.map((m) => ({ id: m.id, ok: false, failure: refused ? 'permanent' : 'transient', error: (e as Error).message, retryAfterMs }));
      }
      // The call's outcome is written before the next call starts (see ChannelSender).
      await Promise.all(outcomes.map(settle));
    }
  }

  /** One webhook call; `digestKey` (the set of alerts) keeps each call of a batch its own idempotency key. */
  private async call(url: string, alerts: SendableAlert[], recipients: string[], batch: ChannelBatch, digestKey: string) {
    const alert = alerts[0];
    const digest = alerts.length > 1;
    const payload = {
      type: alert.type,
      title: digest ? digestTitle(alerts) : alert.title,
      message: digest ? digestSmsText(alerts, `${this.env.PUBLIC_URL.replace(/\/$/, '')}${DIGEST_URL}`) : alert.message,
      language: alert.language ?? 'en',
      priority: priorityOfSeverity(alert.severity),
      recipients,
      // The alerts' send time, not now: a retried call carries the very same body.
      timestamp: new Date(Math.max(...alerts.map((a) => new Date(a.sent_at ?? a.created_at).getTime()))).toISOString(),
      source: 'beacon',
    };
    const suffix = digestKey ? `:${createHash('sha256').update(digestKey).digest('base64url').slice(0, 16)}` : '';
    const res = await observeProvider('sms', () =>
      postWebhook(url, payload, {
        timeoutMs: SMS_TIMEOUT_MS,
        idempotencyKey: `sms:${batch.alertId}:${batch.batch}${suffix}`,
        allowHosts: this.env.webhookAllowHosts,
      }),
    );
    return {
      id: typeof res.body?.messageId === 'string' ? res.body.messageId : `sms-${batch.alertId}-${batch.batch}${suffix}`,
      delivered: res.body?.status === 'delivered',
    };
  }
}

import { Injectable } from '@nestjs/common';
import type { Job } from 'bullmq';
import { ChannelBatch, JobName, JobPayloads, priorityOfSeverity } from '@beacon/contracts';
import { ProviderError } from '../../../alerts/src/providers/provider-error';
import { postWebhook } from '../../../alerts/src/providers/webhook.client';
import { OnJob } from '../../../alerts/src/queue/job-registry';
import { SettingsRepository } from '../../../alerts/src/settings/settings.repository';
import { DispatcherEnv } from '../config/env.dto';
import { BatchRefused, ChannelBatchRunner, ChannelSender } from './channel-batch.runner';
import { ClaimedDelivery, DeliveryStateRepository, Outcome, SendableAlert } from './delivery-state.repository';

/** Spec: the SMS webhook call times out after 30 s. */
export const SMS_TIMEOUT_MS = 30_000;

/**
 * SMS through the configured webhook (n8n or similar): ONE call per batch with every recipient, the
 * spec's payload, and the batch's deterministic key as Idempotency-Key, so a retried call is the same call.
 */
@Injectable()
export class SmsSender implements ChannelSender {
  constructor(
    private readonly state: DeliveryStateRepository,
    private readonly settings: SettingsRepository,
    private readonly runner: ChannelBatchRunner,
    private readonly env: DispatcherEnv,
  ) {}

  @OnJob(JobName.SmsSend)
  handle(data: JobPayloads[JobName.SmsSend], job: Job) {
    return this.runner.run(data, job, this);
  }

  async send(alert: SendableAlert, deliveries: ClaimedDelivery[], batch: ChannelBatch): Promise<Outcome[]> {
    const { webhook } = await this.settings.get();
    if (!webhook.enabled) throw new BatchRefused('SMS webhook is disabled in admin settings');
    if (!webhook.url) throw new BatchRefused('N8N webhook URL not configured');

    const contacts = await this.state.contacts(deliveries.map((d) => d.id));
    const phone = new Map(contacts.map((c) => [c.delivery_id, c.phone_number]));
    const reachable = deliveries.filter((d) => phone.get(d.id));
    const outcomes: Outcome[] = deliveries
      .filter((d) => !phone.get(d.id))
      .map((d) => ({ id: d.id, ok: false, failure: 'permanent', error: 'no phone number' }));
    if (!reachable.length) return outcomes;

    const payload = {
      type: alert.type,
      title: alert.title,
      message: alert.message,
      priority: priorityOfSeverity(alert.severity),
      recipients: reachable.map((d) => phone.get(d.id)!),
      // The alert's send time, not now: a retried call carries the very same body.
      timestamp: new Date(alert.sent_at ?? alert.created_at).toISOString(),
      source: 'beacon',
    };
    try {
      const res = await postWebhook(webhook.url, payload, {
        timeoutMs: SMS_TIMEOUT_MS,
        idempotencyKey: `sms:${batch.alertId}:${batch.batch}`,
        allowHosts: this.env.webhookAllowHosts,
      });
      const messageId = typeof res.body?.messageId === 'string' ? res.body.messageId : `sms-${batch.alertId}-${batch.batch}`;
      const delivered = res.body?.status === 'delivered';
      return outcomes.concat(reachable.map((d) => ({ id: d.id, ok: true, delivered, messageId })));
    } catch (e) {
      if (e instanceof ProviderError && e.failure !== 'transient') throw new BatchRefused(e.message);
      throw e;
    }
  }
}

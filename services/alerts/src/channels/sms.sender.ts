import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { Job } from 'bullmq';
import { ChannelBatch, JobName, JobPayloads, priorityOfSeverity } from '@beacon/contracts';
import { ProviderError } from '../providers/provider-error';
import { postWebhook } from '../providers/webhook.client';
import { TwilioClient } from '../providers/twilio.client';
import { ChannelHealthRepository } from '../settings/channel-health.repository';
import { AdminSettings, SettingsRepository } from '../settings/settings.repository';
import { DispatcherEnv } from '../config/dispatcher-env.dto';
import { BatchRefused, ChannelBatchRunner, ChannelSender, SendWindow, Settle } from './channel-batch.runner';
import { ChannelMessage, SendableAlert } from './send-targets.repository';
import type { Outcome } from '../deliveries/deliveries.repository';
import { DIGEST_URL, digestLanguage, digestSmsText, digestTitle } from './digest';
import { withSmsStop } from './external-recipient';
import { textKey } from './alert-text';
import { providerCallbackUrl } from './callback-urls';
import { recordChannelError, settingsToSend } from './channel-errors';
import { sendThroughTwilio } from './twilio-outcome';
import { observeProvider, OnJob } from '@beacon/common';

/** Why an SMS did not go out to a number that replied STOP (the per-recipient report shows it). */
export const STOPPED_BY_REPLY = 'the number replied STOP';

/** Spec: the SMS webhook call times out after 30 s. */
export const SMS_TIMEOUT_MS = 30_000;

/**
 * What an SMS says: its title and text (a digest: how many alerts, and each in turn), as the webhook carries them; to
 * an external contact (no account, issue #42), ending with how to stop them.
 */
function smsText(alerts: SendableAlert[], publicUrl: string, external = false): { title: string; message: string } {
  const digest = alerts.length > 1;
  const text = {
    title: digest ? digestTitle(alerts) : alerts[0].title,
    message: digest ? digestSmsText(alerts, `${publicUrl.replace(/\/$/, '')}${DIGEST_URL}`) : alerts[0].message,
  };
  return external ? withSmsStop(text, digest ? digestLanguage(alerts) : alerts[0].language) : text;
}

/** What makes two SMS the same text: their alerts as textKey says, and whether they go to an external contact. */
const smsKey = (m: ChannelMessage) => `${textKey(m.alerts)}${m.recipient.external ? ':external' : ''}`;

/** The one text of an SMS sent as a single message (Twilio's Body): the title, a blank line, the text. */
const smsBody = (text: { title: string; message: string }) => `${text.title}\n\n${text.message}`;

/**
 * SMS through the provider chosen in Admin Settings. The generic webhook (n8n or similar): ONE call per batch with
 * every recipient, the spec's payload, and the batch's deterministic key as Idempotency-Key, so a retried call is
 * the same call; a batch of released held deliveries may carry digests: one call per distinct text (per set of
 * alerts). The payload names each delivery and where to post its receipt (`deliveries`, `callbackUrl`). Twilio: one
 * Messages request per message, with a StatusCallback naming the delivery. Either way a message the provider took is
 * `sent`; only a receipt makes it delivered.
 */
@Injectable()
export class SmsSender implements ChannelSender {
  constructor(
    private readonly settings: SettingsRepository,
    private readonly runner: ChannelBatchRunner,
    private readonly env: DispatcherEnv,
    private readonly twilio: TwilioClient,
    private readonly health: ChannelHealthRepository,
  ) {}

  @OnJob(JobName.SmsSend)
  handle(data: JobPayloads[JobName.SmsSend], job: Job) {
    return this.runner.run(data, job, this);
  }

  async send(messages: ChannelMessage[], batch: ChannelBatch, window: SendWindow, settle: Settle): Promise<void> {
    const settings = await settingsToSend(this.settings, this.health, 'sms');
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
    const reachable = messages.filter((m) => phone(m));
    if (settings.sms?.provider === 'twilio') return this.sendByTwilio(reachable, settings.twilio, window, settle);

    const calls = new Map<string, ChannelMessage[]>();
    for (const m of reachable) {
      // One call per text: the same alerts, carried the same way (an update, new ...), in the same languages, to users or to external contacts.
      const key = smsKey(m);
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
          group.map((m) => ({ id: m.id, to: phone(m)! })),
          batch,
          plain ? '' : key,
          !!group[0].recipient.external,
        );
        // Accepted is all a webhook's answer can say: delivered comes from its receipts only.
        outcomes = group.map((m) => ({ id: m.id, ok: true, messageId }));
      } catch (e) {
        const refused = e instanceof ProviderError && e.failure !== 'transient';
        if (refused) await recordChannelError(this.health, 'sms', webhookFailureText(e));
        // One call is the whole batch: it fails or is retried as a whole, as before digests.
        if (calls.size === 1) throw refused ? new BatchRefused(e.message) : e;
        const retryAfterMs = e instanceof ProviderError ? e.retryAfterMs : undefined;
        outcomes = group.map((m) => ({ id: m.id, ok: false, failure: refused ? 'permanent' : 'transient', error: (e as Error).message, retryAfterMs }));
      }
      // The call's outcome is written before the next call starts (see ChannelSender).
      await Promise.all(outcomes.map(settle));
    }
  }

  /**
   * Twilio: one Messages request per message, in lanes, each outcome written before its lane sends again. Twilio has
   * no idempotency key: a message whose outcome was lost (a crash, a time-out) may go twice, as any SMS gateway's may.
   */
  private async sendByTwilio(messages: ChannelMessage[], twilio: AdminSettings['twilio'], window: SendWindow, settle: Settle) {
    const texts = new Map<string, string>();
    await sendThroughTwilio('sms', messages, window, settle, this.health, (m) => {
      const key = smsKey(m);
      let body = texts.get(key);
      if (body === undefined) texts.set(key, (body = smsBody(smsText(m.alerts, this.env.PUBLIC_URL, m.recipient.external))));
      return () =>
        this.twilio.sendMessage({
          accountSid: twilio.accountSid,
          authToken: twilio.authToken,
          from: twilio.from,
          to: m.recipient.phone_number!,
          body: body!,
          statusCallback: providerCallbackUrl(this.env.PUBLIC_URL, 'twilioSmsStatus', m.id),
        });
    });
  }

  /**
   * One webhook call; `digestKey` (the set of alerts, and whether to external contacts) keeps each call of a batch its
   * own idempotency key.
   */
  private async call(
    url: string,
    alerts: SendableAlert[],
    deliveries: { id: string; to: string }[],
    batch: ChannelBatch,
    digestKey: string,
    external: boolean,
  ) {
    const alert = alerts[0];
    const payload = {
      type: alert.type,
      ...smsText(alerts, this.env.PUBLIC_URL, external),
      language: alert.language ?? 'en',
      priority: priorityOfSeverity(alert.severity),
      recipients: deliveries.map((d) => d.to),
      // The alerts' send time, not now: a retried call carries the very same body.
      timestamp: new Date(Math.max(...alerts.map((a) => new Date(a.sent_at ?? a.created_at).getTime()))).toISOString(),
      source: 'beacon',
      // Where the gateway posts receipts (signed, see the receipts endpoint), each naming its delivery.
      callbackUrl: providerCallbackUrl(this.env.PUBLIC_URL, 'webhookStatus'),
      deliveries,
    };
    const suffix = digestKey ? `:${createHash('sha256').update(digestKey).digest('base64url').slice(0, 16)}` : '';
    const res = await observeProvider('sms', () =>
      postWebhook(url, payload, {
        timeoutMs: SMS_TIMEOUT_MS,
        idempotencyKey: `sms:${batch.alertId}:${batch.batch}${suffix}`,
        allowHosts: this.env.webhookAllowHosts,
      }),
    );
    return typeof res.body?.messageId === 'string' ? res.body.messageId : `sms-${batch.alertId}-${batch.batch}${suffix}`;
  }
}

/** A webhook refusal as provider health shows it: its status, never the body (a gateway may echo the numbers back). */
function webhookFailureText(e: ProviderError): string {
  return e.status ? `Webhook answered ${e.status}` : e.message;
}

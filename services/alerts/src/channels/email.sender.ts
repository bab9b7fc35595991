import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import type { Job } from 'bullmq';
import nodemailer, { Transporter } from 'nodemailer';
import { ChannelBatch, emailSubject, JobName, JobPayloads, messageWords } from '@beacon/contracts';
import { DispatcherEnv } from '../config/dispatcher-env.dto';
import { BatchRefused, ChannelBatchRunner, ChannelSender, SendWindow, sendEach, Settle, withinWindow } from './channel-batch.runner';
import { guardedSmtpOptions } from '../providers/smtp-relay';
import { ChannelHealthRepository } from '../settings/channel-health.repository';
import { SettingsRepository } from '../settings/settings.repository';
import { ChannelMessage, SendableAlert } from './send-targets.repository';
import type { Outcome } from '../deliveries/deliveries.repository';
import { DIGEST_URL, digestLanguage, digestTitle, emailAlertHtml, emailAlertText, emailLink, isDigest } from './digest';
import { textKey } from './alert-text';
import { externalEmailContent } from './external-recipient';
import { recordChannelError, settingsToSend } from './channel-errors';
import { observeProvider, OnJob } from '@beacon/common';

/** SMTP reply codes: 4xx is "try again later", 5xx is final; connection problems are worth a retry. */
export function smtpFailure(e: unknown): 'transient' | 'permanent' {
  const err = e as { responseCode?: number; code?: string };
  if (typeof err.responseCode === 'number') return err.responseCode >= 500 ? 'permanent' : 'transient';
  return err.code === 'EENVELOPE' || err.code === 'EMESSAGE' ? 'permanent' : 'transient';
}

export interface EmailContent {
  subject: string;
  text: string;
  html: string;
}

/**
 * Email over SMTP (nodemailer, pooled connections). The delivery id (a digest's lead) is the Message-ID and
 * Idempotency-Key, and rides in X-Mailgun-Variables so the relay's delivery events (bounces, complaints) name the
 * delivery; a digest lists each alert with its link.
 */
@Injectable()
export class EmailSender implements ChannelSender, OnApplicationShutdown {
  /** The pooled transport, and the relay URL it was made for (the settings screen may change it). */
  private transport?: { url: string; transporter: Transporter };

  constructor(
    private readonly settings: SettingsRepository,
    private readonly runner: ChannelBatchRunner,
    private readonly env: DispatcherEnv,
    private readonly health: ChannelHealthRepository,
  ) {}

  @OnJob(JobName.EmailSend)
  handle(data: JobPayloads[JobName.EmailSend], job: Job) {
    return this.runner.run(data, job, this);
  }

  async send(messages: ChannelMessage[], _batch: ChannelBatch, window: SendWindow, settle: Settle): Promise<void> {
    const settings = await settingsToSend(this.settings, this.health, 'email');
    const { email } = settings;
    const transport = await this.transportFor(email.url).catch(async (e: Error) => {
      if (e instanceof BatchRefused) await recordChannelError(this.health, 'email', e.message);
      throw e;
    });
    const contents = new Map<string, EmailContent>();
    const refusals: string[] = [];

    await sendEach(messages, this.env.EMAIL_MAX_CONNECTIONS, settle, async (m): Promise<Outcome> => {
      if (!m.recipient.email_enabled) return { id: m.id, ok: false, failure: 'withdrawn', error: 'the user turned e-mail alerts off' };
      const to = m.recipient.email;
      if (!to) return { id: m.id, ok: false, failure: 'permanent', error: 'no email address' };
      if (Date.now() >= window.deadline) return { id: m.id, ok: false, failure: 'deferred', error: 'batch deadline passed before this message' };
      // an external contact's e-mail is worded for them (no links that need an account): a text of its own
      const key = `${textKey(m.alerts)}${m.recipient.external ? ':external' : ''}`;
      let content = contents.get(key);
      if (!content) contents.set(key, (content = this.content(m)));
      try {
        const sent = await withinWindow(window, () =>
          observeProvider('email', () =>
            transport.sendMail({
              from: email.from,
              to,
              ...content,
              messageId: `<${m.id}@alerts.beacon>`,
              headers: {
                'Idempotency-Key': m.id,
                'X-Beacon-Alert': m.alerts.map((a) => a.id).join(', '),
                // Mailgun's custom variables, echoed in its events as user-variables (the receipts endpoint reads them).
                // Prepared: as plain JSON, which nodemailer would otherwise MIME-encode (quotes) and Mailgun not read.
                'X-Mailgun-Variables': { prepared: true, value: JSON.stringify({ deliveryId: m.id }) },
              },
              priority: m.alerts[0].severity === 'critical' ? 'high' : 'normal',
            }),
          ),
        );
        if (!sent.done) return { id: m.id, ok: false, failure: 'transient', error: 'SMTP: no answer by the end of the batch; outcome unknown' };
        return { id: m.id, ok: true, messageId: sent.value.messageId };
      } catch (e) {
        const failure = smtpFailure(e);
        if (failure === 'permanent') refusals.push(`SMTP: ${(e as Error).message}`);
        return { id: m.id, ok: false, failure, error: `SMTP: ${(e as Error).message}` };
      }
    });
    // The last refusal of the batch (the relay's reply, addresses masked): what provider health shows.
    if (refusals.length) await recordChannelError(this.health, 'email', refusals[refusals.length - 1]);
  }

  private content(m: ChannelMessage): EmailContent {
    if (m.recipient.external) return externalEmailContent(m);
    const base = this.env.PUBLIC_URL.replace(/\/$/, '');
    const link = (a: SendableAlert) => `${base}/alerts/${a.id}`;
    const lead = m.alerts[0];
    if (!isDigest(m)) {
      const w = messageWords(lead.language);
      return {
        // a test alert's subject starts with its TEST marker (asDelivered), not the severity; the console previews it so (issue #41)
        subject: emailSubject(lead, lead.source === 'test'),
        text: `${emailAlertText(lead)}\n\n${w.viewAlert}: ${link(lead)}\n`,
        html: `${emailAlertHtml(lead)}\n${emailLink(link(lead), w.viewAlert)}`,
      };
    }
    const title = digestTitle(m.alerts);
    const w = messageWords(digestLanguage(m.alerts));
    return {
      subject: `[${w.severities[lead.severity]}] ${title}`,
      text: `${title}, ${w.mostSevereFirst}.\n\n${m.alerts.map((a) => `${emailAlertText(a, w)}\n${w.viewAlert}: ${link(a)}`).join('\n\n----\n\n')}\n\n${w.allAlerts}: ${base}${DIGEST_URL}\n`,
      html: `<h2>${title}</h2>\n${m.alerts.map((a) => `${emailAlertHtml(a, 'h3', w)}\n${emailLink(link(a), w.viewAlert)}`).join('\n<hr>\n')}\n${emailLink(`${base}${DIGEST_URL}`, w.allAlerts)}`,
    };
  }

  /** The pool for `url`; a relay changed in the settings gets a new one, and the old one is closed. */
  private async transportFor(url: string): Promise<Transporter> {
    if (this.transport?.url !== url) {
      // An administrator's URL: a refusal (private address) or a malformed one fails the batch for good.
      const options = await guardedSmtpOptions(url, this.env.EMAIL_MAX_CONNECTIONS, this.env.webhookAllowHosts).catch((e: Error) => {
        throw new BatchRefused(`mail relay refused: ${e.message}`);
      });
      this.transport?.transporter.close();
      this.transport = { url, transporter: nodemailer.createTransport(options as never) };
    }
    return this.transport.transporter;
  }

  onApplicationShutdown() {
    this.transport?.transporter.close();
  }
}

import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import type { Job } from 'bullmq';
import nodemailer, { Transporter } from 'nodemailer';
import { CATEGORY_LABELS, ChannelBatch, JobName, JobPayloads, SEVERITY_STYLES } from '@beacon/contracts';
import { OnJob } from '../../../alerts/src/queue/job-registry';
import { DispatcherEnv } from '../config/env.dto';
import { ChannelBatchRunner, ChannelSender, mapLimit } from './channel-batch.runner';
import { ClaimedDelivery, DeliveryStateRepository, Outcome, SendableAlert } from './delivery-state.repository';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** SMTP reply codes: 4xx is "try again later", 5xx is final; connection problems are worth a retry. */
export function smtpFailure(e: unknown): 'transient' | 'permanent' {
  const err = e as { responseCode?: number; code?: string };
  if (typeof err.responseCode === 'number') return err.responseCode >= 500 ? 'permanent' : 'transient';
  return err.code === 'EENVELOPE' || err.code === 'EMESSAGE' ? 'permanent' : 'transient';
}

/** Email over SMTP (nodemailer, pooled connections). The delivery id is the Message-ID and Idempotency-Key. */
@Injectable()
export class EmailSender implements ChannelSender, OnApplicationShutdown {
  private transport?: Transporter;

  constructor(private readonly state: DeliveryStateRepository, private readonly runner: ChannelBatchRunner, private readonly env: DispatcherEnv) {}

  @OnJob(JobName.EmailSend)
  handle(data: JobPayloads[JobName.EmailSend], job: Job) {
    return this.runner.run(data, job, this);
  }

  async send(alert: SendableAlert, deliveries: ClaimedDelivery[], _batch: ChannelBatch): Promise<Outcome[]> {
    this.transport ??= nodemailer.createTransport(this.env.SMTP_URL, { pool: true, maxConnections: 5, connectionTimeout: 10_000, socketTimeout: 30_000 } as never);
    const contacts = await this.state.contacts(deliveries.map((d) => d.id));
    const email = new Map(contacts.map((c) => [c.delivery_id, c.email]));
    const link = `${this.env.PUBLIC_URL.replace(/\/$/, '')}/alerts/${alert.id}`;
    const severity = SEVERITY_STYLES[alert.severity].label;
    const subject = `[${severity}] ${alert.title}`;
    const where = alert.location_name ? `\nLocation: ${alert.location_name}` : '';
    const text = `${alert.title}\n\n${alert.message}\n\nSeverity: ${severity}\nCategory: ${CATEGORY_LABELS[alert.category]}${where}\n\nView the alert: ${link}\n`;
    const html = `<h2>${escapeHtml(alert.title)}</h2><p>${escapeHtml(alert.message)}</p>
<p><strong>Severity:</strong> ${escapeHtml(severity)}<br><strong>Category:</strong> ${escapeHtml(CATEGORY_LABELS[alert.category])}${
      alert.location_name ? `<br><strong>Location:</strong> ${escapeHtml(alert.location_name)}` : ''}</p>
<p><a href="${escapeHtml(link)}">View the alert</a></p>`;

    return mapLimit(deliveries, 5, async (d): Promise<Outcome> => {
      const to = email.get(d.id);
      if (!to) return { id: d.id, ok: false, failure: 'permanent', error: 'no email address' };
      try {
        const info = await this.transport!.sendMail({
          from: this.env.MAIL_FROM,
          to,
          subject,
          text,
          html,
          messageId: `<${d.id}@alerts.beacon>`,
          headers: { 'Idempotency-Key': d.id, 'X-Beacon-Alert': alert.id },
          priority: alert.severity === 'critical' ? 'high' : 'normal',
        });
        return { id: d.id, ok: true, messageId: info.messageId };
      } catch (e) {
        return { id: d.id, ok: false, failure: smtpFailure(e), error: `SMTP: ${(e as Error).message}` };
      }
    });
  }

  onApplicationShutdown() {
    this.transport?.close();
  }
}

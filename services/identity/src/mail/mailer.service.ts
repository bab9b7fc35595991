import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { createTransport, Transporter } from 'nodemailer';
import { IdentityEnv } from '../config/env.dto';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/**
 * Sends mail over SMTP (SMTP_URL). Without SMTP_URL, development and test write the mail to the log so the
 * demo works; production logs only that a mail could not be sent, never its link.
 */
@Injectable()
export class MailerService implements OnApplicationShutdown {
  private readonly logger = new Logger('Mailer');
  private readonly transport: Transporter | null;
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly env: IdentityEnv) {
    this.transport = env.SMTP_URL ? createTransport(env.SMTP_URL) : null;
    if (!this.transport && env.NODE_ENV === 'production') this.logger.warn('SMTP_URL is not set: confirmation and recovery mails cannot be sent');
  }

  async send(mail: Mail): Promise<void> {
    if (this.transport) {
      await this.transport.sendMail({ from: this.env.MAIL_FROM, ...mail });
      return;
    }
    if (this.env.NODE_ENV === 'production') {
      this.logger.error(`mail "${mail.subject}" not sent: SMTP_URL is not set`);
      return;
    }
    this.logger.log(`mail (no SMTP_URL, development only) to ${mail.to}: ${mail.subject}\n${mail.text}`);
  }

  /**
   * Sends without making the caller wait: responses that must not reveal whether an account exists (recovery)
   * take the same time either way. Failures are logged; shutdown waits for mails in flight.
   */
  sendInBackground(mail: Mail): void {
    const p = this.send(mail)
      .catch((e) => this.logger.error(`mail "${mail.subject}" failed: ${(e as Error).message}`))
      .finally(() => this.pending.delete(p));
    this.pending.add(p);
  }

  async onApplicationShutdown() {
    await Promise.allSettled([...this.pending]);
    this.transport?.close();
  }
}

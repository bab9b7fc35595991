import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { ReplyIntent } from '@beacon/contracts';
import { AuditRepository } from '../alerts/audit.repository';

/** How long after a message a reply from its number still answers it. */
export const REPLY_WINDOW_HOURS = 24;

/**
 * The delivery a reply answers: the message that went to the number (for a digest, the delivery that carried it, so
 * `deliveryId` names every alert it listed), its alert and person, and what Beacon knows of that person.
 */
export interface ReplyTarget {
  deliveryId: string;
  alertId: string;
  userId: string;
  channel: 'sms' | 'voice';
  language: string | null;
  email: string | null;
  phoneNumber: string | null;
}

/** A reply as it is kept: once per provider message (`providerRef`). */
export interface NewReply {
  target: ReplyTarget | null;
  /** The person the number is on file for when no delivery matched (their language answers them). */
  userId: string | null;
  channel: 'sms' | 'voice';
  intent: ReplyIntent;
  phoneNumber: string;
  providerRef: string;
}

/** Replies by SMS and by phone keys, and the numbers that replied STOP (alerts.delivery_replies, alerts.sms_opt_outs). */
@Injectable()
export class RepliesRepository {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly audit: AuditRepository,
  ) {}

  /** The latest SMS or call sent to a person with this number within REPLY_WINDOW_HOURS: what a reply from it answers. */
  async latestSentTo(phoneNumber: string): Promise<ReplyTarget | null> {
    const [row] = await this.ds.query(
      `SELECT l.id AS "deliveryId", l.alert_id AS "alertId", l.user_id AS "userId", l.channel, p.language, p.email, p.phone_number AS "phoneNumber"
       FROM alerts.user_preferences p
       JOIN alerts.alert_deliveries d ON d.user_id = p.user_id
       JOIN alerts.alert_deliveries l ON l.id = coalesce(d.merged_into, d.id)
       WHERE p.phone_number = $1 AND d.channel IN ('sms', 'voice') AND d.sent_at > now() - make_interval(hours => $2)
       ORDER BY d.sent_at DESC, d.id LIMIT 1`,
      [phoneNumber, REPLY_WINDOW_HOURS],
    );
    return row ?? null;
  }

  /** The delivery a call was made for (its Gather action names it), with its person. */
  async target(deliveryId: string): Promise<ReplyTarget | null> {
    const [row] = await this.ds.query(
      `SELECT l.id AS "deliveryId", l.alert_id AS "alertId", l.user_id AS "userId", l.channel, p.language, p.email, p.phone_number AS "phoneNumber"
       FROM alerts.alert_deliveries d
       JOIN alerts.alert_deliveries l ON l.id = coalesce(d.merged_into, d.id)
       LEFT JOIN alerts.user_preferences p ON p.user_id = l.user_id
       WHERE d.id = $1`,
      [deliveryId],
    );
    return row ?? null;
  }

  /** Someone with this number on file (the latest to save it), for the language of an answer that matched no alert. */
  async personWith(phoneNumber: string): Promise<{ userId: string; language: string | null } | null> {
    const [row] = await this.ds.query(
      `SELECT user_id AS "userId", language FROM alerts.user_preferences WHERE phone_number = $1 ORDER BY updated_at DESC LIMIT 1`,
      [phoneNumber],
    );
    return row ?? null;
  }

  /**
   * Keeps the reply, once per provider message, in one transaction with what it changes here: a STOP stores the
   * number's opt-out and stops SMS to everyone with that number (user_preferences.sms_stopped, which the audience SQL
   * reads), a START removes both; a reply matched to an alert is audited on it (channel and intent, no number). The
   * caller answers only after this commits, so a STOP is never lost. Returns false when the provider message was
   * already kept (a provider's retry): then nothing changes.
   */
  async record(reply: NewReply): Promise<boolean> {
    return this.ds.transaction(async (m) => {
      const inserted = await m.query(
        `INSERT INTO alerts.delivery_replies (alert_id, delivery_id, user_id, channel, intent, phone_number, provider_ref)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (provider_ref) DO NOTHING RETURNING id`,
        [
          reply.target?.alertId ?? null,
          reply.target?.deliveryId ?? null,
          reply.target?.userId ?? reply.userId,
          reply.channel,
          reply.intent,
          reply.phoneNumber,
          reply.providerRef,
        ],
      );
      if (!inserted.length) return false;
      if (reply.intent === 'stop') {
        await m.query(`INSERT INTO alerts.sms_opt_outs (phone_number) VALUES ($1) ON CONFLICT (phone_number) DO NOTHING`, [reply.phoneNumber]);
        await m.query(`UPDATE alerts.user_preferences SET sms_stopped = true WHERE phone_number = $1 AND NOT sms_stopped`, [reply.phoneNumber]);
      } else if (reply.intent === 'start') {
        await m.query(`DELETE FROM alerts.sms_opt_outs WHERE phone_number = $1`, [reply.phoneNumber]);
        await m.query(`UPDATE alerts.user_preferences SET sms_stopped = false WHERE phone_number = $1 AND sms_stopped`, [reply.phoneNumber]);
      }
      if (reply.target) {
        const details = { channel: reply.channel, intent: reply.intent, replyId: inserted[0].id as string };
        await this.audit.record(m, [reply.target.alertId], 'reply_received', { id: reply.target.userId }, details);
      }
      return true;
    });
  }

  /**
   * Forgets a kept reply whose I'm Safe or help request could not be recorded, with its audit entry, so that the
   * provider's retry (it retries a failed callback) records it anew rather than finding it kept.
   */
  async forget(providerRef: string): Promise<void> {
    await this.ds.transaction(async (m) => {
      const [rows] = await m.query(`DELETE FROM alerts.delivery_replies WHERE provider_ref = $1 RETURNING id, alert_id`, [providerRef]);
      for (const row of rows as { id: string; alert_id: string | null }[]) {
        if (row.alert_id)
          await m.query(`DELETE FROM alerts.alert_audit WHERE alert_id = $1 AND action = 'reply_received' AND details->>'replyId' = $2`, [
            row.alert_id,
            row.id,
          ]);
      }
    });
  }
}

import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AppError, conflict, JobQueue, notFound } from '@beacon/common';
import { DEFAULT_JOB_OPTIONS, DELIVERY_CHANNELS, DeliveryChannel } from '@beacon/contracts';
import { channelBatchJob } from '../deliveries/channel-batch-job';
import { DeliveriesRepository } from '../deliveries/deliveries.repository';
import { ProgressPublisher } from '../live/progress.publisher';
import { channelProblem } from '../settings/channel-readiness';
import { SettingsRepository } from '../settings/settings.repository';
import { AlertsRepository } from './alerts.repository';
import { Actor, AuditRepository, SYSTEM } from './audit.repository';
import { expiredSql } from '../deliveries/delivery-alerts.repository';

/** Deliveries per job of an operator's action (a retry or a fallback is small next to a dispatch). */
const ACTION_BATCH = 200;

/**
 * Batch numbers of an operator's action: round r's jobs are numbered from r x ACTION_ROUND, far above any dispatch's,
 * so their job ids (and SMS idempotency keys) are new, not the failed jobs' own, which BullMQ keeps and would ignore.
 */
const ACTION_ROUND = 1_000_000;

/**
 * What an operator does about deliveries that did not reach people: retry a channel's failed ones, or send the
 * people nothing reached on another channel. Each changes the rows and writes its audit entry in one transaction
 * (one action per alert at a time), then queues the work; repeating it changes nothing the first did not.
 */
@Injectable()
export class DeliveryActionsService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly alerts: AlertsRepository,
    private readonly deliveryRows: DeliveriesRepository,
    private readonly audit: AuditRepository,
    private readonly settings: SettingsRepository,
    private readonly queue: JobQueue,
    private readonly progress: ProgressPublisher,
  ) {}

  async retryFailed(alertId: string, channel: DeliveryChannel, actor: Actor): Promise<{ retried: number }> {
    await this.sendable(alertId, channel);
    const { ids, round } = await this.act(alertId, (m) => this.deliveryRows.retryFailed(m, alertId, channel), 'retried', actor, { channel });
    await this.enqueue(alertId, channel, ids, round);
    return { retried: ids.length };
  }

  async fallback(alertId: string, channel: DeliveryChannel, actor: Actor): Promise<{ added: number }> {
    const alert = await this.sendable(alertId, channel);
    const { ids, round } = await this.act(alertId, (m) => this.deliveryRows.createFallback(m, { ...alert, channels: [channel] }, channel), 'fallback', actor, {
      channel,
    });
    await this.enqueue(alertId, channel, ids, round);
    return { added: ids.length };
  }

  /**
   * The alert's escalation, when due (the sweep): whoever it reached and has not answered is sent a reminder on each
   * channel that reached them, once (reminded_at is taken in the same transaction as the rows and the audit entry).
   * Null when another sweep already did it, or the alert ended meanwhile.
   */
  async remindUnanswered(alertId: string): Promise<{ people: number; deliveries: number } | null> {
    const done = await this.ds.transaction(async (m) => {
      await m.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`alerts.delivery-action:${alertId}`]);
      const [claimed] = await m.query(
        `UPDATE alerts.alerts a SET reminded_at = now() WHERE a.id = $1 AND a.reminded_at IS NULL AND a.status = 'active' AND NOT ${expiredSql('a')}
         RETURNING a.id`,
        [alertId],
      );
      if (!claimed.length) return null;
      const round = await this.nextRound(m, alertId);
      const rows = await this.deliveryRows.createReminders(m, alertId);
      await m.query(`UPDATE alerts.alerts SET reminders = $2 WHERE id = $1`, [alertId, rows.length]);
      const people = new Set(rows.map((r) => r.user_id)).size;
      await this.audit.record(m, [alertId], 'reminded', SYSTEM, { people, deliveries: rows.length });
      return { rows, people, round };
    });
    if (!done) return null;
    for (const channel of DELIVERY_CHANNELS) {
      const ids = done.rows.filter((r) => r.channel === channel).map((r) => r.id);
      await this.enqueue(alertId, channel, ids, done.round);
    }
    return { people: done.people, deliveries: done.rows.length };
  }

  /** The alert, if it is still going out (in effect, its dispatch done); else the operator is told why not. Its previews' check too. */
  async inEffect(alertId: string) {
    const alert = await this.alerts.findById(alertId);
    if (!alert) throw notFound('Alert', 'alert_not_found');
    if (alert.status !== 'active') throw conflict(`Only an alert in effect can be sent again; this one is ${alert.status}`, 'invalid_alert_status');
    if (alert.recipients === null) throw conflict('This alert is still being dispatched; try again in a moment', 'alert_not_dispatched');
    return alert;
  }

  /** The alert, if it is still going out and `channel` can deliver now; else the operator is told why not. */
  private async sendable(alertId: string, channel: DeliveryChannel) {
    const alert = await this.inEffect(alertId);
    const problem = channelProblem(await this.settings.get(), channel);
    if (problem) throw new AppError(400, 'channel_not_configured', `${problem}: fix it there first.`);
    return alert;
  }

  /** Rows changed and audited in one transaction; `round` numbers this action among the alert's (for its job ids). */
  private async act(
    alertId: string,
    change: (m: EntityManager) => Promise<string[]>,
    action: 'retried' | 'fallback',
    actor: Actor,
    details: Record<string, unknown>,
  ) {
    return this.ds.transaction(async (m) => {
      await m.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`alerts.delivery-action:${alertId}`]);
      const round = await this.nextRound(m, alertId);
      const ids = await change(m);
      if (ids.length) await this.audit.record(m, [alertId], action, actor, { ...details, deliveries: ids.length });
      return { ids, round };
    });
  }

  /** This action's number among the alert's (under the action lock): its jobs are numbered from it. */
  private async nextRound(m: EntityManager, alertId: string): Promise<number> {
    const [{ n }] = await m.query(`SELECT count(*)::int AS n FROM alerts.alert_audit WHERE alert_id = $1 AND action IN ('retried', 'fallback', 'reminded')`, [
      alertId,
    ]);
    return n + 1;
  }

  private async enqueue(alertId: string, channel: DeliveryChannel, ids: string[], round: number) {
    const jobs = [];
    for (let i = 0; i * ACTION_BATCH < ids.length; i++) {
      const plan = { channel, batch: round * ACTION_ROUND + i, notBefore: null, ids: ids.slice(i * ACTION_BATCH, (i + 1) * ACTION_BATCH), stranded: false };
      // Retried like any channel job; the dispatcher's CHANNEL_RETRY_BASE_MS is its own, the default serves here.
      jobs.push(channelBatchJob(alertId, plan, { CHANNEL_RETRY_BASE_MS: DEFAULT_JOB_OPTIONS.backoff.delay }));
    }
    if (jobs.length) await this.queue.addBulk(jobs);
    this.progress.touch(alertId);
  }
}

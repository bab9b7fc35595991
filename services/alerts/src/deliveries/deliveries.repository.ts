import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import {
  DeliveryChannel,
  type DeliveryKind,
  DeliveryReceipt,
  RECEIPTS_DELIVERED,
  RECEIPTS_FAILED,
  VOICE_MAX_ATTEMPTS,
  VOICE_REDIAL_SECONDS,
} from '@beacon/contracts';
import { streamRows } from './cursor';
import { BatchSizes, DeliveryAlert, expiredSql } from './delivery-alerts.repository';
import { channelHoldUntilSql, EligibilityAlert, eligibleUsersSql, reachableOn, SqlParams } from './eligibility.sql';

/** The alert whose audience gets delivery rows: what eligibility and holds read, its id and its channels. */
export type AudienceAlert = EligibilityAlert & Pick<DeliveryAlert, 'id' | 'channels'>;

/**
 * What a delivery carries (AlertRevisions migration): the alert itself, its reminder, an update to someone it reached,
 * the news that an update moved the area away from them, or the all-clear. The contracts' type, which the console's
 * previews compose their text by too.
 */
export type { DeliveryKind };

/** The round of a version's deliveries (an update's, numbered from 2) and of the all-clear's; 0 is the alert, 1 its reminder. */
export const revisionRound = (version: number) => 100 + version;

/**
 * A batch's array parameter (`$1`, of `type`) as the planner should see it in the statements that look a batch's rows up
 * by id: as a value it does not know yet. Given the array itself, PostgreSQL costs `id = ANY(...)` and a join with its
 * `unnest` at one index descent per element, each a random page read, and for a batch of a few hundred ids prefers
 * reading the whole table, or all of an index, once: on a table of one 25,000-delivery alert that took 4.3 ms against
 * 0.7 ms for the probes (a 500-id claim, 7.3 against 2.8 ms in all), and a table of many alerts it reads further. As the
 * output of a sub-select the array is costed as ten elements, and the plan probes the primary key, whatever the table's
 * statistics say (a table that has just grown by an alert's deliveries has none that fit yet).
 */
const batchParam = (param: string, type: 'uuid[]' | 'text[]' = 'uuid[]') => `(SELECT ${param}::${type})::${type}`;
export const ALL_CLEAR_ROUND = 32000;

/** Constant words (the receipts' vocabulary) as an SQL list: never user input. */
const sqlList = (values: readonly string[]) => values.map((v) => `'${v.replace(/'/g, "''")}'`).join(',');

/** A provider's receipt of one delivery (applyReceipts): what it said, why (its reason when failed), and when. */
export interface ReceiptInput {
  deliveryId: string;
  receipt: DeliveryReceipt;
  reason: string | null;
  /** When the provider says it happened; null (or a time to come): now. */
  at: Date | null;
}

/** A row a receipt changed: its alert, the delivery the receipt named (a digest's lead), and whether it is dialled again. */
export interface ReceiptChange {
  id: string;
  alert_id: string;
  /** The delivery the receipt named: the row itself, or the digest it was carried in. */
  lead: string;
  status: string;
  attempts: number;
  /** A call not answered that is dialled again (status pending, next_attempt_at set). */
  redial: boolean;
  /** The named delivery carried others (a digest): its redial gathers them again. */
  digest: boolean;
}

/**
 * The recipient's channel settings and contacts as of the claim, that is as of sending: the user may have changed them
 * since the alert was dispatched (a held digest goes out hours later). Read in the claim's own statement, so that the
 * senders do not look each recipient up again.
 */
export interface RecipientSettings {
  /** The language the user reads alerts in; null when none chosen (alertTextFor). */
  language: string | null;
  push_enabled: boolean;
  sms_enabled: boolean;
  /** The number replied STOP (alerts.sms_opt_outs): no SMS goes to it, whatever sms_enabled says (issue #39). */
  sms_stopped: boolean;
  email_enabled: boolean;
  /** The Voice alerts method: a phone call to phone_number (issue #39). */
  voice_enabled: boolean;
  phone_number: string | null;
  email: string | null;
  /**
   * An external contact of a contact group (issue #42), who has no account: their messages carry no link that needs
   * one (external-recipient.ts). Claims always say; absent is a user.
   */
  external?: boolean;
}

/**
 * What a claim returns beside the delivery's own columns: its user's RecipientSettings (`LEFT JOIN alerts.user_preferences
 * p`) and the devices that already took it (`push_accepted` of the claimed rows, aliased `x`).
 */
const CLAIM_EXTRA_COLUMNS = `p.language, coalesce(p.push_enabled, false) AS push_enabled, coalesce(p.sms_enabled, false) AS sms_enabled,
  coalesce(p.sms_stopped, false) AS sms_stopped, coalesce(p.voice_enabled, false) AS voice_enabled,
  coalesce(p.email_enabled, false) AS email_enabled, p.phone_number, p.email, coalesce(p.external, false) AS external,
  coalesce(x.push_accepted, '{}')::text[] AS push_accepted`;

export interface ClaimedDelivery extends RecipientSettings {
  id: string;
  user_id: string;
  /** How many times a send was started for this delivery, this one included. */
  attempts: number;
  kind: DeliveryKind;
  /** The push subscriptions that already took this delivery (a retry goes to the user's other devices only). */
  push_accepted: string[];
}

/** A held delivery taken for sending: the batch's own, or another alert's joining a digest under `lead`. */
export interface ClaimedHeldDelivery extends ClaimedDelivery {
  alert_id: string;
  /** The delivery whose message carries this one; null for the batch's own rows. */
  lead: string | null;
}

/** The result of one delivery's send. `accepted`: push subscriptions that took the message in this attempt. */
export type Outcome =
  | { id: string; ok: true; delivered?: boolean; messageId?: string | null; accepted?: string[] }
  | { id: string; ok: false; failure: 'transient' | 'permanent' | 'gone'; error: string; retryAfterMs?: number; accepted?: string[] }
  /** Not sent: the batch's deadline passed before its turn (see ChannelBatchRunner). Back to pending, no attempt counted. */
  | { id: string; ok: false; failure: 'deferred'; error: string }
  /** Not sent, and never will be: the user turned the channel off after the alert was dispatched. */
  | { id: string; ok: false; failure: 'withdrawn'; error: string };

/** One channel job's deliveries in an alert's plan (see planBatches). */
export interface BatchPlan {
  channel: DeliveryChannel;
  /** Its number among the alert's batches of this channel: the job id's and the SMS idempotency key's last part. */
  batch: number;
  notBefore: Date | null;
  ids: string[];
  /**
   * Some of its deliveries are stranded (see strandedSql), or, with `idleAfterSeconds`, it is idle: only when
   * planBatches was asked to look.
   */
  stranded: boolean;
}

/**
 * An active, dispatched alert with stranded deliveries, the batch sizes its dispatch planned with (null before they were
 * kept) and the request it was dispatched for (null before that was kept, or when none was named).
 */
export interface AlertWithStranded {
  id: string;
  batch_sizes: BatchSizes | null;
  request_id: string | null;
}

/** Unfinished deliveries of ended alerts that the sweep settled (settleEndedUnmoved), per alert. */
export interface SettledDeliveries {
  alert_id: string;
  /** Left sending by a worker that died: whether they reached the provider is unknown. */
  failed: number;
  /** Still pending: never sent. */
  cancelled: number;
}

/**
 * A delivery (alias d) that no job will move any more, judged from the row alone: still pending or sending
 * (`$after` = REDRIVE_AFTER_SECONDS) after no change for that long, counted from its release for a held one, and not
 * carried by another delivery's digest (merged_into: its lead's batch re-drives it). A live worker writes its claimed
 * rows' outcome within the longest channel job, which the threshold outlasts (DispatcherEnv), so its rows never match.
 */
const strandedSql = (after: string) => `(d.status IN ('pending','sending') AND d.merged_into IS NULL AND ${unmovedSql(after)})`;

/**
 * Of a delivery (d) whose batch has no row a worker is sending: pending, released, and unchanged for `$idle` seconds.
 * Once Redis is known to have lost its data (RedisEpoch), such a batch has no job and no worker left, so it may be
 * queued again long before REDRIVE_AFTER_SECONDS: a worker's claim takes the whole batch at once, so a batch without
 * a sending row is one no worker has started (or one that ended and left rows to retry, whose retry job is gone).
 */
const idlePendingSql = (idle: string) => `(d.status = 'pending' AND d.merged_into IS NULL AND ${unmovedSql(idle)})`;

/** The delivery (d) has not changed for `$after` seconds, counted from its release for a held one. */
const unmovedSql = (after: string) => `greatest(d.updated_at, d.not_before) < now() - make_interval(secs => ${after})`;

/** Why an ended alert's (alias a) deliveries no longer go out, in the words the channel runner uses (whyNot). */
const endedReasonSql = (a = 'a') =>
  `(CASE WHEN ${a}.status = 'all_clear' THEN 'all clear given' WHEN ${a}.status = 'cancelled' THEN 'alert cancelled' ELSE 'alert expired' END)`;

/** A half-open range of user ids, [from, to); an absent end is unbounded. */
export interface UserIdRange {
  from: string | null;
  to: string | null;
}

/** `parts` equal ranges covering every uuid (user ids are random, so each holds about the same number of users). */
export function userIdRanges(parts: number): UserIdRange[] {
  const n = Math.max(1, Math.floor(parts));
  const bounds = Array.from({ length: n - 1 }, (_, i) => {
    const hex = ((BigInt(i + 1) << 128n) / BigInt(n)).toString(16).padStart(32, '0');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  });
  return Array.from({ length: n }, (_, i) => ({ from: i ? bounds[i - 1] : null, to: i < n - 1 ? bounds[i] : null }));
}

/**
 * Every change of an alerts.alert_deliveries row is made here, so the delivery state machine is read in one file:
 *
 *   (none)    -> pending    createForAudience (not_before set when the row is held)
 *   pending   -> sending    claimBatch, claimHeldBatch (sending -> sending too: a re-claim after a crash; a held
 *                           claim also takes the user's other due rows, merged_into = its own row)
 *   sending   -> sent | delivered | failed | pending | read | cancelled
 *                           recordOutcomes (pending: transient failure before the last attempt, or deferred; read:
 *                           read in the app meanwhile; sent: a device of the user's took it, whatever the others did;
 *                           delivered: a receipt came while it was still being sent; failed also when the provider's
 *                           failing receipt came while it was still being sent; cancelled: channel turned off)
 *   pending   -> cancelled  cancelBatch (sending too), cancelPendingForEndedAlerts
 *   sending   -> failed     settleEndedUnmoved (left by a dead worker, its alert ended: outcome unknown; pending -> cancelled)
 *   pending | sending, stranded (no job left to move it) -> the same status, updated_at = now()
 *                           touchStranded, once the sweep has queued its batch again (StrandedDeliveries); the
 *                           re-queued job then claims it like any other (claimBatch, claimHeldBatch)
 *   pending | sent | delivered -> read
 *                           markRead ("I'm Safe"; other statuses keep theirs and only get read_at)
 *   failed    -> pending    retryFailed (an operator's "Retry failed"; out of any digest it was carried in; the
 *                           failed message's receipt cleared, as the new one gets its own)
 *   (none)    -> pending    createFallback (an operator's "send to the unreached by another channel"; fallback = true)
 *   (none)    -> pending    createReminders (round 1: the alert's escalation, for those reached who have not answered)
 *   sent      -> delivered  markDeliveredByReceipt (earlier states only get delivered_at, read by recordOutcomes)
 *   sent | delivered -> delivered | failed
 *                           applyReceipts, a provider's receipt (SMS, e-mail, voice): delivered/answered makes a sent
 *                           row delivered, undelivered/bounced/failed (and a call's last no answer/busy) fails it. The
 *                           first receipt wins; a complaint is only recorded. A row still sending only gets the
 *                           receipt columns (and delivered_at), and recordOutcomes ends it as the receipt said.
 *   sending | sent -> pending
 *                           applyReceipts, a call not answered (no answer, busy) before its last attempt while its
 *                           alert is in effect: redialled after next_attempt_at, its receipt columns cleared
 *   pending   -> pending    markRetryAt, after a transient failure: next_attempt_at, the job's retry time (every
 *                           outcome clears it, so only deliveries waiting for a retry have one)
 *
 * failed, cancelled and read are final; delivered only moves to read, or to failed by a failing receipt when no
 * receipt made it delivered (a webhook that answered "delivered" at once, then reported the message undelivered).
 *
 * 'sending' is written BEFORE the provider call and the outcome AFTER it. A worker killed in between leaves
 * rows in 'sending'; the job is then stalled, BullMQ hands it to another worker, and that worker re-claims
 * those rows and sends them again WITH THE SAME IDEMPOTENCY KEY (the delivery id; the batch key for SMS).
 * Rows that reached sent/failed are never claimed again (but a call not answered, which applyReceipts puts back to
 * pending to be dialled anew), so nothing is lost and nothing that was recorded is sent twice; only calls in flight at the moment of the crash are repeated, and they carry the key the
 * provider (and, for push, the Topic header and the notification tag) uses to show the person one message.
 *
 * The same holds when Redis loses the jobs themselves (a restart without persistence): rows left pending or sending
 * with no change for REDRIVE_AFTER_SECONDS are stranded, and the sweep queues their batch again under the batch's
 * own job id, planned again from the rows with the sizes the dispatch used (planBatches, alerts.batch_sizes). A job
 * of that batch still in Redis makes the add a no-op, so only batches whose job is gone run again; and since a live
 * worker records its claimed rows' outcome well within the threshold, a re-queued batch never re-claims rows a
 * live worker is sending. The one window left: a worker that took the batch's job from a Redis that is then lost,
 * and has not yet run its claim when the sweep's re-queued job runs (milliseconds against the sweep's seconds).
 *
 * Changes that belong with an alert's own (its expiry, a user's read mark) take the caller's EntityManager and
 * run in its transaction.
 */
@Injectable()
export class DeliveriesRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /**
   * One statement: eligible users x the alert's channels the user enabled and can be reached on, inserted
   * as pending deliveries, each with the time it may go out at `at` (digest frequency, quiet weekends, quiet
   * hours; critical alerts are never held, nor are users who chose none of these, so only the others'
   * rows are read for hold_until; an e-mail below critical is always held, into the e-mail digest:
   * emailHoldUntilSql). Rows go in user order, so the unique key's and the user index's pages are
   * written in sequence rather than at random. The first run is a plain insert; a re-run after a crash
   * (rows already there) skips existing rows with ON CONFLICT DO NOTHING, which costs about twice as much per row.
   * With `parts` > 1 the users are split into that many ranges of user id, inserted by concurrent statements on
   * their own connections: PostgreSQL runs one INSERT on one core, and the ranges touch disjoint parts of the
   * unique key. A crash between them leaves some ranges written; the re-run's ON CONFLICT completes the rest.
   * Returns the number of rows inserted.
   */
  async createForAudience(alert: AudienceAlert, parts = 1, at = new Date()): Promise<number> {
    const [{ rerun }] = await this.ds.query(`SELECT EXISTS (SELECT 1 FROM alerts.alert_deliveries WHERE alert_id = $1) AS rerun`, [alert.id]);
    const counts = await Promise.all(userIdRanges(alert.source === 'test' ? 1 : parts).map((range) => this.insertRange(alert, range, rerun, at)));
    return counts.reduce((a, b) => a + b, 0);
  }

  private async insertRange(alert: AudienceAlert, range: UserIdRange, rerun: boolean, at: Date): Promise<number> {
    const params = new SqlParams();
    const eligible = eligibleUsersSql(alert, params);
    const holdUntil = channelHoldUntilSql(alert, params, at, 'c.channel');
    const alertId = params.bind('alert', alert.id, 'uuid');
    const inRange = [
      range.from ? `e.user_id >= ${params.bind('from', range.from, 'uuid')}` : null,
      range.to ? `e.user_id < ${params.bind('to', range.to, 'uuid')}` : null,
    ].filter(Boolean);
    const runner = this.ds.createQueryRunner();
    try {
      const result = await runner.query(
        `WITH e AS (${eligible})
       INSERT INTO alerts.alert_deliveries (alert_id, user_id, channel, not_before)
       SELECT ${alertId}, e.user_id, c.channel, ${holdUntil}
       FROM e CROSS JOIN LATERAL (VALUES
           ('push', ${reachableOn('push')}),
           ('sms', ${reachableOn('sms')}),
           ('email', ${reachableOn('email')}),
           ('voice', ${reachableOn('voice')})) AS c(channel, reachable)
       WHERE c.reachable AND c.channel = ANY(${params.bind('channels', alert.channels, 'text[]')})${inRange.map((c) => ` AND ${c}`).join('')}
       ORDER BY e.user_id, c.channel
       ${rerun ? 'ON CONFLICT (alert_id, user_id, channel, round) DO NOTHING' : ''}`,
        params.values,
        true,
      );
      return result.affected ?? 0;
    } finally {
      await runner.release();
    }
  }

  /**
   * The channel batches of an alert's deliveries, deterministic for a given set of rows and sizes, streamed so memory
   * does not grow with the alert's size: deliveries are read in (user, channel) order through the unique key, grouped
   * per channel and release time, cut every `sizes[channel]`, and numbered per channel in the order they fill, then
   * the remainders. The dispatch, a re-run of it after a crash and the sweep's re-drive all plan the same batches
   * with the same numbers (so the same job ids). With `strandedAfterSeconds`, each batch says whether some of its
   * rows are stranded, and with `idleAfterSeconds` too whether it is idle (idlePendingSql: a pending row unchanged
   * that long, and no row sending); with `round`, only that round's rows are planned (a version's fan-out, see
   * createRevision).
   */
  async planBatches(
    alertId: string,
    sizes: BatchSizes,
    onBatch: (b: BatchPlan) => Promise<void>,
    { strandedAfterSeconds, idleAfterSeconds, round }: { strandedAfterSeconds?: number; idleAfterSeconds?: number; round?: number } = {},
  ): Promise<void> {
    type Open = Omit<BatchPlan, 'batch'> & { idle: boolean; busy: boolean };
    const open = new Map<string, Open>();
    const numbers: Record<DeliveryChannel, number> = { push: 0, sms: 0, email: 0, voice: 0 };
    const emit = ({ idle, busy, ...b }: Open) => onBatch({ ...b, stranded: b.stranded || (idle && !busy), batch: numbers[b.channel]++ });
    const look = strandedAfterSeconds !== undefined;
    const params: unknown[] = [alertId];
    const stranded = look ? strandedSql(`$${params.push(strandedAfterSeconds)}`) : 'false';
    const idle = look && idleAfterSeconds !== undefined ? idlePendingSql(`$${params.push(idleAfterSeconds)}`) : 'false';
    const inRound = round === undefined ? '' : ` AND d.round = $${params.push(round)}`;
    await streamRows<{ id: string; channel: DeliveryChannel; not_before: Date | null; stranded: boolean; idle: boolean; busy: boolean }>(
      this.ds,
      `SELECT d.id, d.channel, d.not_before, ${stranded} AS stranded, ${idle} AS idle, d.status = 'sending' AS busy
       FROM alerts.alert_deliveries d WHERE d.alert_id = $1${inRound} ORDER BY d.user_id, d.channel`,
      params,
      async (rows) => {
        for (const r of rows) {
          const key = `${r.channel}|${r.not_before ? r.not_before.toISOString() : ''}`;
          let b = open.get(key);
          if (!b) open.set(key, (b = { channel: r.channel, notBefore: r.not_before, ids: [], stranded: false, idle: false, busy: false }));
          b.ids.push(r.id);
          b.stranded ||= r.stranded;
          b.idle ||= r.idle;
          b.busy ||= r.busy;
          if (b.ids.length >= sizes[r.channel]) {
            open.delete(key);
            await emit(b);
          }
        }
      },
    );
    for (const key of [...open.keys()].sort()) await emit(open.get(key)!);
  }

  /**
   * Active, dispatched alerts that have stranded deliveries, the longest dispatched first. Only alerts dispatched
   * longer ago than the threshold can have any, and the roll-up says which still have pending or sending rows, so
   * an alert's rows are read only when it may have some.
   */
  async alertsWithStranded(
    afterSeconds: number,
    { idleAfterSeconds, limit = 100 }: { idleAfterSeconds?: number; limit?: number } = {},
  ): Promise<AlertWithStranded[]> {
    const since = Math.min(afterSeconds, idleAfterSeconds ?? afterSeconds);
    const params: unknown[] = [afterSeconds, limit, since];
    const idle = idleAfterSeconds === undefined ? 'false' : idlePendingSql(`$${params.push(idleAfterSeconds)}`);
    return this.ds.query(
      `SELECT a.id, a.batch_sizes, a.dispatch_request_id AS request_id FROM alerts.alerts a
       WHERE a.status = 'active' AND NOT ${expiredSql('a')}
         AND a.dispatched_at < now() - make_interval(secs => $3)
         AND (SELECT sum(c.n) FROM alerts.alert_delivery_counts c WHERE c.alert_id = a.id AND c.status IN ('pending','sending')) > 0
         AND EXISTS (SELECT 1 FROM alerts.alert_deliveries d WHERE d.alert_id = a.id AND (${strandedSql('$1')} OR ${idle}))
       ORDER BY a.dispatched_at LIMIT $2`,
      params,
    );
  }

  /**
   * Unfinished deliveries of alerts that have ended (cancelled, expired, or given the all-clear, whose own deliveries
   * still go out) and that have not moved for `afterSeconds`: the sweep re-drives only active alerts, and a channel job
   * of an ended alert that would have settled them is gone with a Redis that lost its data, or with its worker. Rows
   * left sending may or may not have reached the provider, so they end failed with an "outcome unknown" reason, never
   * sent (the console counts no person as reached who may not have been); rows still pending were never sent and are
   * cancelled, as the alert's end cancels them (cancelPendingForEndedAlerts). A row carried in another delivery's
   * digest (merged_into) follows its lead: it is settled here only once the lead is no longer unfinished (so on the
   * sweep after the one that settled the lead). At most `limit` alerts per call, the longest ended first.
   */
  async settleEndedUnmoved(afterSeconds: number, limit = 100): Promise<SettledDeliveries[]> {
    return this.ds.query(
      `WITH ended AS (
         SELECT a.id, a.status, ${endedReasonSql('a')} AS reason FROM alerts.alerts a
         WHERE (a.status IN ('cancelled', 'expired', 'all_clear') OR (a.status = 'active' AND ${expiredSql('a')}))
           AND (SELECT sum(c.n) FROM alerts.alert_delivery_counts c WHERE c.alert_id = a.id AND c.status IN ('pending','sending')) > 0
         ORDER BY a.updated_at LIMIT $2),
       settled AS (
         UPDATE alerts.alert_deliveries d
         SET status = CASE WHEN d.status = 'sending' THEN 'failed' ELSE 'cancelled' END,
             error = CASE WHEN d.status = 'sending' THEN e.unknown ELSE e.reason END,
             last_error = CASE WHEN d.status = 'sending' THEN e.unknown ELSE d.last_error END,
             next_attempt_at = NULL, updated_at = now()
         FROM (SELECT ended.*, 'outcome unknown: its sending was interrupted, and the ' || ended.reason || ' before it was retried' AS unknown FROM ended) e
         WHERE d.alert_id = e.id AND d.status IN ('pending','sending') AND ${unmovedSql('$1')}
           AND NOT (d.kind = 'all_clear' AND e.status = 'all_clear')
           AND (d.merged_into IS NULL OR NOT EXISTS (
             SELECT 1 FROM alerts.alert_deliveries l WHERE l.id = d.merged_into AND l.status IN ('pending','sending')))
         RETURNING d.alert_id, d.status)
       SELECT alert_id, count(*) FILTER (WHERE status = 'failed')::int AS failed, count(*) FILTER (WHERE status = 'cancelled')::int AS cancelled
       FROM settled GROUP BY alert_id`,
      [afterSeconds, limit],
    );
  }

  /**
   * The stranded ones among `ids`, whose batch the sweep has just queued again, count as changed now: the next sweeps
   * leave them to that job (and do not plan their alert again) until they are stranded anew. Rows a worker has
   * claimed meanwhile are no longer stranded and are left alone. Returns how many were stranded.
   */
  async touchStranded(ids: string[], afterSeconds: number, idleAfterSeconds?: number): Promise<number> {
    const params: unknown[] = [ids, afterSeconds];
    const idle = idleAfterSeconds === undefined ? 'false' : idlePendingSql(`$${params.push(idleAfterSeconds)}`);
    const [, n] = await this.ds.query(
      `UPDATE alerts.alert_deliveries d SET updated_at = now() WHERE d.id = ANY(${batchParam('$1')}) AND (${strandedSql('$2')} OR ${idle})`,
      params,
    );
    return n;
  }

  /**
   * Takes this batch's unfinished deliveries (pending, or sending left by a worker that died), except those
   * another batch's digest has taken over (merged_into). `kind` says what each carries (the alert, a reminder, an update ...).
   */
  async claimBatch(ids: string[], channel: DeliveryChannel): Promise<ClaimedDelivery[]> {
    // The recipient's settings come with the claim (RecipientSettings): the senders read no preferences of their own.
    return this.ds.query(
      `WITH claimed AS (
         UPDATE alerts.alert_deliveries SET status = 'sending', attempts = attempts + 1, updated_at = now()
         WHERE id = ANY(${batchParam('$1')}) AND channel = $2 AND status IN ('pending','sending') AND merged_into IS NULL
         RETURNING id, user_id, attempts, kind, push_accepted)
       SELECT x.id, x.user_id, x.attempts, x.kind, ${CLAIM_EXTRA_COLUMNS}
       FROM claimed x LEFT JOIN alerts.user_preferences p ON p.user_id = x.user_id`,
      [ids, channel],
    );
  }

  /**
   * claimBatch() for a batch of held deliveries at their release time, in one statement: the batch's own rows;
   * the rows a previous attempt of this batch merged into them (a retry or a re-run after a crash); and, when
   * `absorb`, the same users' other held deliveries on this channel that are due now, pending and not yet
   * merged, of alerts still active, which join the user's message (merged_into = the user's own row here).
   * Held batches of one release time all come due at once and run on several workers: their claims on a
   * channel take turns (a transaction-scoped advisory lock, held for this one statement), so the first to
   * run gathers each user's due deliveries and the others find them merged, instead of each sending its own.
   * "Due" allows a minute's slack for clocks: a job that fires a little before the database's now() still
   * gathers the deliveries released with it.
   */
  async claimHeldBatch(ids: string[], channel: DeliveryChannel, absorb: boolean): Promise<ClaimedHeldDelivery[]> {
    return this.ds.transaction(async (m) => {
      await m.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`alerts.held-claim:${channel}`]);
      return m.query(
        `WITH own AS (
           UPDATE alerts.alert_deliveries SET status = 'sending', attempts = attempts + 1, updated_at = now()
           WHERE id = ANY(${batchParam('$1')}) AND channel = $2 AND status IN ('pending','sending') AND merged_into IS NULL
           RETURNING id, user_id, alert_id, attempts, kind, push_accepted
         ), joining AS (
           SELECT d.id, o.id AS lead
           FROM own o
           JOIN alerts.alert_deliveries d ON d.user_id = o.user_id AND d.channel = $2 AND d.alert_id <> o.alert_id
           JOIN alerts.alerts a ON a.id = d.alert_id
           WHERE $3 AND d.status = 'pending' AND d.merged_into IS NULL AND d.not_before IS NOT NULL AND d.not_before <= now() + interval '1 minute'
             AND a.status = 'active' AND (a.expires_at IS NULL OR a.expires_at > now())
           FOR UPDATE OF d SKIP LOCKED
         ), merged AS (
           UPDATE alerts.alert_deliveries d
           SET status = 'sending', merged_into = coalesce(j.lead, d.merged_into), attempts = d.attempts + 1, updated_at = now()
           FROM (SELECT id, lead FROM joining
                 UNION ALL
                 SELECT id, NULL FROM alerts.alert_deliveries WHERE merged_into = ANY($1::uuid[]) AND status IN ('pending','sending')) j
           WHERE d.id = j.id
           RETURNING d.id, d.user_id, d.alert_id, d.attempts, d.kind, d.merged_into AS lead, d.push_accepted
         )
         SELECT x.id, x.user_id, x.alert_id, x.attempts, x.kind, x.lead, ${CLAIM_EXTRA_COLUMNS}
         FROM (SELECT id, user_id, alert_id, attempts, kind, NULL::uuid AS lead, push_accepted FROM own
               UNION ALL
               SELECT id, user_id, alert_id, attempts, kind, lead, push_accepted FROM merged) x
         LEFT JOIN alerts.user_preferences p ON p.user_id = x.user_id`,
        [ids, channel, absorb],
      );
    });
  }

  /**
   * The batch's unfinished deliveries will not go out (the alert was cancelled or expired, or the all-clear was given:
   * then all but the all-clear's own, `keep`).
   */
  async cancelBatch(ids: string[], reason: string, keep?: DeliveryKind): Promise<number> {
    const [, n] = await this.ds.query(
      `UPDATE alerts.alert_deliveries SET status = 'cancelled', error = $2, updated_at = now()
       WHERE id = ANY(${batchParam('$1')}) AND status IN ('pending','sending') AND kind IS DISTINCT FROM $3`,
      [ids, reason, keep ?? null],
    );
    return n;
  }

  /**
   * Writes outcomes in one statement (one trigger run updates the summary). A failed attempt's error is also kept in
   * last_error, which a later success leaves (the per-recipient report shows it beside the success). Transient failures go back to pending
   * unless this was the last attempt (`finalAttempt`, for all or per outcome), when they fail with their last error; deferred ones (never started) go back
   * to pending whatever the attempt, their claim not counted. Push subscriptions that took the message are kept
   * (push_accepted), so a retry goes only to the user's other devices, and a delivery any device took ends sent.
   * A delivery the user read in the app meanwhile ends read, and one whose receipt came while it was being sent ends
   * as the receipt said: delivered, or failed with the receipt's reason (applyReceipts). Only rows still 'sending'
   * change: an outcome recorded twice (a retried write) is a no-op.
   */
  async recordOutcomes(outcomes: Outcome[], finalAttempt: boolean | boolean[]): Promise<void> {
    if (!outcomes.length) return;
    const isFinal = (i: number) => (typeof finalAttempt === 'boolean' ? finalAttempt : finalAttempt[i]);
    const ids: string[] = [];
    const statuses: string[] = [];
    const errors: (string | null)[] = [];
    const messageIds: (string | null)[] = [];
    const accepted: string[] = [];
    for (const [i, o] of outcomes.entries()) {
      ids.push(o.id);
      accepted.push(`{${'accepted' in o && o.accepted ? o.accepted.join(',') : ''}}`);
      if (o.ok) {
        statuses.push(o.delivered ? 'delivered' : 'sent');
        errors.push(null);
        messageIds.push(o.messageId ?? null);
      } else {
        statuses.push(
          o.failure === 'deferred' ? 'deferred' : o.failure === 'withdrawn' ? 'cancelled' : o.failure === 'transient' && !isFinal(i) ? 'pending' : 'failed',
        );
        errors.push(o.error.slice(0, 500));
        messageIds.push(null);
      }
    }
    // What the outcome makes of the row, before a read mark or an early receipt: a deferred send waits again, and a
    // failure of the last attempt is still 'sent' when a device of the user's took the message (now or before).
    const resolved = `CASE WHEN v.status = 'deferred' THEN 'pending'
      WHEN v.status = 'failed' AND cardinality(v.accepted) + coalesce(cardinality(d.push_accepted), 0) > 0 THEN 'sent'
      ELSE v.status END`;
    // The provider's failing receipt, when it came while the row was being sent (applyReceipts): the message the outcome
    // calls sent did not arrive.
    const failedByReceipt = `((${resolved}) IN ('sent','delivered') AND d.receipt IN (${sqlList(RECEIPTS_FAILED)}))`;
    await this.ds.query(
      `UPDATE alerts.alert_deliveries d SET
         status = CASE WHEN (${resolved}) IN ('sent','delivered','pending','failed') AND d.read_at IS NOT NULL THEN 'read'
                       WHEN ${failedByReceipt} THEN 'failed'
                       WHEN (${resolved}) = 'sent' AND d.delivered_at IS NOT NULL THEN 'delivered'
                       ELSE (${resolved}) END,
         attempts = d.attempts - (v.status = 'deferred')::int,
         error = CASE WHEN ${failedByReceipt} THEN d.receipt_reason WHEN (${resolved}) IN ('sent','delivered') THEN NULL ELSE v.error END,
         last_error = CASE WHEN v.status IN ('pending','failed') THEN v.error WHEN ${failedByReceipt} THEN d.receipt_reason ELSE d.last_error END,
         push_accepted = CASE WHEN cardinality(v.accepted) > 0 THEN coalesce(d.push_accepted, '{}') || v.accepted ELSE d.push_accepted END,
         provider_message_id = coalesce(v.message_id, d.provider_message_id),
         sent_at = CASE WHEN (${resolved}) IN ('sent','delivered') THEN coalesce(d.sent_at, now()) ELSE d.sent_at END,
         delivered_at = CASE WHEN v.status = 'delivered' THEN coalesce(d.delivered_at, now()) ELSE d.delivered_at END,
         next_attempt_at = NULL,
         updated_at = now()
       FROM (SELECT id, status, error, message_id, accepted_text::uuid[] AS accepted
             FROM unnest(${batchParam('$1')}, ${batchParam('$2', 'text[]')}, ${batchParam('$3', 'text[]')}, ${batchParam('$4', 'text[]')}, ${batchParam('$5', 'text[]')}) AS u(id, status, error, message_id, accepted_text)) v
       WHERE d.id = v.id AND d.status = 'sending'`,
      [ids, statuses, errors, messageIds, accepted],
    );
  }

  /**
   * When the deliveries a channel job failed transiently (back to pending by recordOutcomes) will be tried again: the
   * job's own retry time, so the operations view can say "retrying" and when, instead of a silent "pending".
   */
  async markRetryAt(ids: string[], at: Date): Promise<void> {
    if (!ids.length) return;
    await this.ds.query(`UPDATE alerts.alert_deliveries SET next_attempt_at = $2 WHERE id = ANY(${batchParam('$1')}) AND status = 'pending'`, [ids, at]);
  }

  /**
   * Held deliveries of alerts that have just ended (cancelled, expired): they will not go out. In the transaction
   * (`m`) that ends the alerts, so no crash leaves a held delivery pending behind an ended alert.
   */
  async cancelPendingForEndedAlerts(m: EntityManager, alertIds: string[], reason: 'alert cancelled' | 'alert expired' | 'all clear given') {
    await m.query(
      `UPDATE alerts.alert_deliveries SET status = 'cancelled', error = $2, updated_at = now()
       WHERE alert_id = ANY($1::uuid[]) AND status = 'pending'`,
      [alertIds, reason],
    );
  }

  /**
   * The user's deliveries of this alert marked read at `readAt`, in the transaction (`m`) that stores their read
   * mark. That includes those still pending (held for quiet hours or a digest, or waiting for a retry): the user has
   * read the alert, so the message need not go out, and claims take only pending rows. A row being sent right now
   * keeps its status with read_at set, and becomes read when its outcome is recorded (recordOutcomes).
   */
  async markRead(m: EntityManager, alertId: string, userId: string, readAt: Date) {
    await m.query(
      `UPDATE alerts.alert_deliveries SET status = CASE WHEN status IN ('pending','sent','delivered') THEN 'read' ELSE status END,
         read_at = coalesce(read_at, $3), updated_at = now()
       WHERE alert_id = $1 AND user_id = $2 AND read_at IS NULL`,
      [alertId, userId, readAt],
    );
  }

  /** Whose delivery this is (a receipt is checked against it before it changes anything). */
  async findOwner(deliveryId: string): Promise<{ alert_id: string; user_id: string; status: string } | null> {
    const [row] = await this.ds.query(`SELECT alert_id, user_id, status FROM alerts.alert_deliveries WHERE id = $1`, [deliveryId]);
    return row ?? null;
  }

  /** The alerts a delivery's message carried: its own, and those merged into it when it led a digest. */
  async carriedAlertIds(deliveryId: string): Promise<string[]> {
    const rows = await this.ds.query(`SELECT DISTINCT alert_id FROM alerts.alert_deliveries WHERE id = $1 OR merged_into = $1`, [deliveryId]);
    return rows.map((r: { alert_id: string }) => r.alert_id);
  }

  /**
   * The device reported the push shown, for every delivery the message carried: sent -> delivered. A receipt can
   * beat the outcome's write (the device answers while the batch is still being sent) or come while another of the
   * user's devices is being retried: then only delivered_at is set, and recordOutcomes makes the row delivered.
   */
  async markDeliveredByReceipt(deliveryId: string) {
    await this.ds.query(
      `UPDATE alerts.alert_deliveries
       SET status = CASE WHEN status = 'sent' THEN 'delivered' ELSE status END, delivered_at = coalesce(delivered_at, now()), updated_at = now()
       WHERE (id = $1 OR merged_into = $1) AND status IN ('sending','pending','sent')`,
      [deliveryId],
    );
  }

  /**
   * Providers' receipts, in one statement, each applied to the delivery it names and to the deliveries carried in its
   * message (a digest's, merged_into). Several for one delivery in a call: the first counts.
   *
   * - delivered / answered: a sent row becomes delivered (delivered_at = the receipt's time); a row still sending gets
   *   delivered_at, which recordOutcomes reads.
   * - undelivered / bounced / failed: a sent row (or one a webhook called delivered at once, without a receipt) fails
   *   with the receipt's reason as its error; a row still sending keeps the receipt, and recordOutcomes fails it.
   * - no_answer / busy (a call): while attempts < VOICE_MAX_ATTEMPTS and the alert is in effect, the call is dialled
   *   again (redial: back to pending, next_attempt_at in `redialSeconds` (VOICE_REDIAL_SECONDS), its last error the reason, the receipt
   *   columns cleared for the next call's); else it fails like undelivered.
   * - complained: recorded in the receipt columns only (the message arrived); it replaces a delivered receipt.
   *
   * The first receipt of a message wins: a row with a receipt takes no other (but a complaint after delivered), so a
   * late or repeated callback changes nothing. Unknown ids and rows already final (failed, cancelled, read) or not
   * sent (pending) change nothing. The checks are made again on the row being updated, so two receipts racing for one
   * row cannot both apply. Returns the rows changed.
   */
  async applyReceipts(receipts: ReceiptInput[], redialSeconds = VOICE_REDIAL_SECONDS): Promise<ReceiptChange[]> {
    if (!receipts.length) return [];
    const delivered = sqlList(RECEIPTS_DELIVERED);
    const failing = sqlList(RECEIPTS_FAILED);
    // the named row's (l) own receipt decides for the rows it carried: a redial takes its digest again
    const isFailing = `t.receipt IN (${failing}) AND NOT t.redial`;
    const [rows] = await this.ds.query(
      `WITH v AS (
         SELECT DISTINCT ON (u.id) u.id, u.receipt, u.reason, least(coalesce(u.at, now()), now()) AS at
         FROM unnest($1::uuid[], $2::text[], $3::text[], $4::timestamptz[]) WITH ORDINALITY AS u(id, receipt, reason, at, n)
         ORDER BY u.id, u.n),
       named AS (
         SELECT l.id, v.receipt, v.reason, v.at,
                (v.receipt IN ('no_answer','busy') AND l.status IN ('sending','sent') AND l.receipt IS NULL AND l.attempts < $5
                 AND a.status = 'active' AND NOT ${expiredSql('a')}) AS redial,
                EXISTS (SELECT 1 FROM alerts.alert_deliveries m WHERE m.merged_into = l.id) AS digest
         FROM v JOIN alerts.alert_deliveries l ON l.id = v.id JOIN alerts.alerts a ON a.id = l.alert_id),
       t AS (
         SELECT d.id, named.id AS lead, named.receipt, named.reason, named.at, named.redial, named.digest
         FROM named JOIN alerts.alert_deliveries d ON d.id = named.id OR d.merged_into = named.id)
       UPDATE alerts.alert_deliveries d SET
         status = CASE WHEN t.redial THEN 'pending'
                       WHEN t.receipt IN (${delivered}) AND d.status = 'sent' THEN 'delivered'
                       WHEN ${isFailing} AND d.status IN ('sent','delivered') THEN 'failed'
                       ELSE d.status END,
         receipt = CASE WHEN t.redial THEN NULL ELSE t.receipt END,
         receipt_at = CASE WHEN t.redial THEN NULL ELSE t.at END,
         receipt_reason = CASE WHEN t.redial THEN NULL ELSE t.reason END,
         delivered_at = CASE WHEN t.receipt IN (${delivered}) THEN coalesce(d.delivered_at, t.at) ELSE d.delivered_at END,
         error = CASE WHEN t.redial OR (${isFailing} AND d.status IN ('sent','delivered')) THEN t.reason ELSE d.error END,
         last_error = CASE WHEN t.redial OR ${isFailing} THEN t.reason ELSE d.last_error END,
         next_attempt_at = CASE WHEN t.redial THEN now() + make_interval(secs => $6) ELSE d.next_attempt_at END,
         updated_at = now()
       FROM t
       WHERE d.id = t.id AND d.status IN ('sending','sent','delivered')
         AND (d.receipt IS NULL OR (t.receipt = 'complained' AND d.receipt IN (${delivered})))
       RETURNING d.id, d.alert_id, t.lead, d.status, d.attempts, t.redial, t.digest`,
      [
        receipts.map((r) => r.deliveryId),
        receipts.map((r) => r.receipt),
        receipts.map((r) => r.reason?.slice(0, 500) ?? null),
        receipts.map((r) => r.at),
        VOICE_MAX_ATTEMPTS,
        redialSeconds,
      ],
    );
    return rows;
  }

  /**
   * An operator's "Retry failed" on one channel of an alert, in the caller's transaction (`m`): the channel's failed
   * deliveries back to pending, each on its own (a digest that failed is not rebuilt), their error kept until the
   * retry's outcome. Returns their ids; none when nothing failed (a second click changes nothing).
   */
  async retryFailed(m: EntityManager, alertId: string, channel: DeliveryChannel): Promise<string[]> {
    const [rows] = await m.query(
      `UPDATE alerts.alert_deliveries SET status = 'pending', merged_into = NULL, not_before = NULL,
         receipt = NULL, receipt_at = NULL, receipt_reason = NULL, updated_at = now()
       WHERE alert_id = $1 AND channel = $2 AND status = 'failed'
       RETURNING id`,
      [alertId, channel],
    );
    return rows.map((r: { id: string }) => r.id);
  }

  /**
   * A version's fan-out (AlertRevisionsService), in one statement, as round `round`; re-run after a crash, it adds
   * nothing. For an update, per person and channel of the alert (or that a fallback used for them): whoever the alert reached (their last message on the
   * channel not being that they left the area) and is still concerned by the new version gets an 'update'; whoever it
   * reached and is no longer concerned is told so ('left_area'); whoever it concerns now and it never reached gets the
   * alert as new ('alert'), unless a delivery of it is still on its way to them, which will carry the new version.
   * Deliveries still on their way that the new version makes wrong (an older update, or the alert to someone no longer
   * concerned) are cancelled. For the all-clear, everyone the alert reached on a channel gets it there. Each new
   * delivery is held like any (quiet hours, digests, quiet weekends, the e-mail digest), with this exception: an
   * all-clear is never urgent, so a critical alert's all-clear waits too. Returns the number of deliveries inserted.
   */
  async createRevision(alert: AudienceAlert, round: number, kind: 'update' | 'all_clear', at = new Date()): Promise<number> {
    const params = new SqlParams();
    const alertId = params.bind('alert', alert.id, 'uuid');
    const r = params.bind('round', round, 'int');
    const reachedSql = `SELECT DISTINCT ON (d.user_id, d.channel) d.user_id, d.channel, d.kind
         FROM alerts.alert_deliveries d
         WHERE d.alert_id = ${alertId} AND d.round < ${r} AND d.status IN ('sent', 'delivered', 'read')
         ORDER BY d.user_id, d.channel, d.round DESC`;
    if (kind === 'all_clear') {
      const hold = channelHoldUntilSql({ severity: alert.severity === 'critical' ? 'high' : alert.severity, source: alert.source }, params, at, 'l.channel');
      return this.inserted(
        `INSERT INTO alerts.alert_deliveries (alert_id, user_id, channel, round, kind, not_before)
         SELECT ${alertId}, l.user_id, l.channel, ${r}, 'all_clear', ${hold}
         FROM (${reachedSql}) l LEFT JOIN alerts.user_preferences e ON e.user_id = l.user_id
         ORDER BY l.user_id, l.channel
         ON CONFLICT (alert_id, user_id, channel, round) DO NOTHING`,
        params.values,
      );
    }
    const eligible = eligibleUsersSql(alert, params);
    const hold = channelHoldUntilSql(alert, params, at, 'p.channel');
    const written = await this.inserted(
      `WITH e AS (${eligible}),
       reached AS (${reachedSql}),
       open AS (
         SELECT d.user_id, d.channel, bool_or(d.kind = 'alert') AS has_alert FROM alerts.alert_deliveries d
         WHERE d.alert_id = ${alertId} AND d.round < ${r} AND d.status = 'pending' AND d.kind IN ('alert', 'update', 'left_area')
         GROUP BY d.user_id, d.channel),
       -- A channel outside the alert's that a fallback used is the person's channel for it from then on: still
       -- concerned, they are updated there, not told they left the area (nor their fallback called off).
       inside AS (
         SELECT e.user_id, c.channel FROM e CROSS JOIN LATERAL (VALUES
             ('push', ${reachableOn('push')}), ('sms', ${reachableOn('sms')}), ('email', ${reachableOn('email')}),
             ('voice', ${reachableOn('voice')})) AS c(channel, reachable)
         WHERE c.reachable AND (c.channel = ANY(${params.bind('channels', alert.channels, 'text[]')})
           OR EXISTS (SELECT 1 FROM reached l WHERE l.user_id = e.user_id AND l.channel = c.channel)
           OR EXISTS (SELECT 1 FROM open o WHERE o.user_id = e.user_id AND o.channel = c.channel))),
       plan AS (
         SELECT k.user_id, k.channel,
                CASE WHEN i.user_id IS NOT NULL AND l.kind IS NOT NULL AND l.kind <> 'left_area' THEN 'update'
                     WHEN i.user_id IS NOT NULL AND coalesce(o.has_alert, false) THEN NULL
                     WHEN i.user_id IS NOT NULL THEN 'alert'
                     WHEN l.kind IS NOT NULL AND l.kind <> 'left_area' THEN 'left_area' END AS kind,
                (i.user_id IS NOT NULL AND coalesce(o.has_alert, false) AND (l.kind IS NULL OR l.kind = 'left_area')) AS keep,
                i.user_id IS NOT NULL AS inside
         FROM (SELECT user_id, channel FROM inside UNION SELECT user_id, channel FROM reached UNION SELECT user_id, channel FROM open) k
         LEFT JOIN inside i ON i.user_id = k.user_id AND i.channel = k.channel
         LEFT JOIN reached l ON l.user_id = k.user_id AND l.channel = k.channel
         LEFT JOIN open o ON o.user_id = k.user_id AND o.channel = k.channel),
       superseded AS (
         UPDATE alerts.alert_deliveries d
         SET status = 'cancelled', error = CASE WHEN p.inside THEN 'superseded by a newer version' ELSE 'no longer in the area' END, updated_at = now()
         FROM plan p
         WHERE d.alert_id = ${alertId} AND d.user_id = p.user_id AND d.channel = p.channel AND d.round < ${r}
           AND d.status = 'pending' AND d.kind IN ('alert', 'update', 'left_area') AND NOT p.keep
         RETURNING d.id)
       INSERT INTO alerts.alert_deliveries (alert_id, user_id, channel, round, kind, not_before)
       SELECT ${alertId}, p.user_id, p.channel, ${r}, p.kind, ${hold}
       FROM plan p LEFT JOIN alerts.user_preferences e ON e.user_id = p.user_id
       WHERE p.kind IS NOT NULL
       ORDER BY p.user_id, p.channel
       ON CONFLICT (alert_id, user_id, channel, round) DO NOTHING`,
      params.values,
    );
    // Counted whatever this run wrote, so that a re-run after a crash between the insert and the count still counts.
    await this.recountAfterUpdate(alert);
    return written;
  }

  /**
   * After an update's fan-out: `recipients` counted again over every round's rows (those the update newly concerns were
   * sent it), and `concerned` as the dispatch counts it, recipients and those the alert concerns now whom no channel
   * reaches (no row of theirs in any round): so "N more it concerns no channel reaches" speaks of the area as it is now.
   * Recipients are never lowered (rows are never deleted; a concurrent round's count may have seen more).
   */
  private async recountAfterUpdate(alert: AudienceAlert): Promise<void> {
    const params = new SqlParams();
    const eligible = eligibleUsersSql(alert, params);
    const alertId = params.bind('alert', alert.id, 'uuid');
    await this.ds.query(
      `WITH e AS (${eligible}),
       n AS (SELECT (SELECT count(DISTINCT d.user_id) FROM alerts.alert_deliveries d WHERE d.alert_id = ${alertId})::int AS people,
                    (SELECT count(*) FROM e WHERE NOT EXISTS (
                       SELECT 1 FROM alerts.alert_deliveries d WHERE d.alert_id = ${alertId} AND d.user_id = e.user_id))::int AS unreached)
       UPDATE alerts.alerts a SET recipients = greatest(a.recipients, n.people), concerned = greatest(a.recipients, n.people) + n.unreached
       FROM n WHERE a.id = ${alertId}`,
      params.values,
    );
  }

  /**
   * alerts.recipients counted again over every round's rows, one per person as the dispatch counts them, after a
   * fallback, in its transaction (`m`). Those it reached were among the concerned whom no channel reached, so
   * `concerned` stays, raised only if it had fallen behind. Never lowered, like recountAfterUpdate.
   */
  async recountRecipients(m: EntityManager, alertId: string): Promise<void> {
    await m.query(
      `UPDATE alerts.alerts a SET recipients = n.people,
              concerned = CASE WHEN a.concerned IS NULL THEN NULL ELSE greatest(a.concerned, n.people) END
       FROM (SELECT count(DISTINCT d.user_id)::int AS people FROM alerts.alert_deliveries d WHERE d.alert_id = $1) n
       WHERE a.id = $1 AND a.recipients < n.people`,
      [alertId],
    );
  }

  /** Runs an INSERT and returns how many rows it inserted. */
  private async inserted(sql: string, values: unknown[]): Promise<number> {
    const runner = this.ds.createQueryRunner();
    try {
      return ((await runner.query(sql, values, true)) as { affected?: number }).affected ?? 0;
    } finally {
      await runner.release();
    }
  }

  /**
   * The alert's escalation, in the caller's transaction (`m`): a reminder delivery (round 1) on each channel that
   * reached a person (sent or delivered, not read) who has not answered the alert (no "I'm Safe", no help request).
   * The unique key makes a second call add nothing. Returns the new deliveries.
   */
  async createReminders(m: EntityManager, alertId: string): Promise<{ id: string; user_id: string; channel: DeliveryChannel }[]> {
    return m.query(
      `INSERT INTO alerts.alert_deliveries (alert_id, user_id, channel, round, kind)
       SELECT d.alert_id, d.user_id, d.channel, 1, 'reminder' FROM alerts.alert_deliveries d
       WHERE d.alert_id = $1 AND d.kind = 'alert' AND d.status IN ('sent', 'delivered')
         AND NOT EXISTS (SELECT 1 FROM alerts.alert_deliveries l WHERE l.alert_id = d.alert_id AND l.user_id = d.user_id
                         AND l.channel = d.channel AND l.kind = 'left_area' AND l.status <> 'cancelled')
         AND NOT EXISTS (SELECT 1 FROM alerts.alert_reads r WHERE r.user_id = d.user_id AND r.alert_id = d.alert_id)
         AND NOT EXISTS (SELECT 1 FROM alerts.help_requests h WHERE h.alert_id = d.alert_id AND h.user_id = d.user_id)
       ORDER BY d.user_id, d.channel
       ON CONFLICT (alert_id, user_id, channel, round) DO NOTHING
       RETURNING id, user_id, channel`,
      [alertId],
    );
  }

  /**
   * An operator's fallback, in the caller's transaction (`m`): a pending delivery on `channel` for each person the
   * alert concerns (by its rule, now) whom nothing reached (no delivery sent, delivered or read on any channel, and
   * none under way on `channel`), and whom `channel` can reach, marked `fallback`. The unique key makes a second call
   * add nothing. Those it is the first delivery of become recipients (recountRecipients).
   */
  async createFallback(m: EntityManager, alert: AudienceAlert, channel: DeliveryChannel): Promise<string[]> {
    const params = new SqlParams();
    const eligible = eligibleUsersSql(alert, params);
    const alertId = params.bind('alert', alert.id, 'uuid');
    const rows = await m.query(
      `WITH e AS (${eligible})
       INSERT INTO alerts.alert_deliveries (alert_id, user_id, channel, fallback)
       SELECT ${alertId}, e.user_id, ${params.bind('channel', channel, 'text')}, true FROM e
       WHERE ${reachableOn(channel)}
         AND NOT EXISTS (SELECT 1 FROM alerts.alert_deliveries d WHERE d.alert_id = ${alertId} AND d.user_id = e.user_id
                         AND d.status IN ('sent', 'delivered', 'read'))
       ORDER BY e.user_id
       ON CONFLICT (alert_id, user_id, channel, round) DO NOTHING
       RETURNING id`,
      params.values,
    );
    if (rows.length) await this.recountRecipients(m, alert.id);
    return rows.map((r: { id: string }) => r.id);
  }
}

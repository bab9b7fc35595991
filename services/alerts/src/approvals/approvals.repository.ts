import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ALERT_COLUMNS_SQL, AlertRow, EFFECTIVE_STATUS_SQL } from '../alerts/alert.rows';
import { Actor, AuditRepository } from '../alerts/audit.repository';

/** Neither the alert's author nor the person who asked for its send ($2: the deciding actor's id). */
const NOT_THE_AUTHOR_SQL = `a.created_by::text IS DISTINCT FROM $2::text AND (a.approval->>'requestedBy') IS DISTINCT FROM $2::text`;

/** The decision of `actor` merged into the alert's approval ($2 to $5: who, their e-mail, when, the note). */
const DECISION_SQL = (decision: 'approved' | 'rejected') =>
  `a.approval || jsonb_build_object('decision', '${decision}', 'decidedBy', $2::text, 'decidedByEmail', $3::text, 'decidedAt', $4::text, 'note', $5::text)`;

/**
 * The decisions on an alert awaiting approval, each one conditional UPDATE on its status with its audit entries in the
 * same transaction: of an approval, a rejection, a break-glass send and a cancel of the same alert at the same time,
 * the first to commit wins and the others find it no longer pending (null). An approval or rejection also finds
 * nothing when the actor wrote or asked for the send (the caller then says why).
 */
@Injectable()
export class ApprovalsRepository {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly audit: AuditRepository,
  ) {}

  /** Approved: active now (sent), or scheduled when its send time is still ahead. */
  approve(id: string, actor: Actor, note: string | null): Promise<AlertRow | null> {
    return this.decide(
      `status = CASE WHEN a.send_at > now() THEN 'scheduled' ELSE 'active' END,
       sent_at = CASE WHEN a.send_at > now() THEN a.sent_at ELSE now() END, approval = ${DECISION_SQL('approved')}`,
      [id, actor.id, actor.email ?? null, new Date().toISOString(), note],
      NOT_THE_AUTHOR_SQL,
      async (m, row) => {
        await this.audit.record(m, [id], 'approved', actor, note ? { note } : {});
        if (row.status === 'scheduled') await this.audit.record(m, [id], 'scheduled', actor, { sendAt: new Date(row.send_at!).toISOString() });
        else await this.audit.record(m, [id], 'sent', actor);
      },
    );
  }

  /** Rejected: back to a draft (unscheduled), the decision and its reason kept in `approval`. */
  reject(id: string, actor: Actor, reason: string): Promise<AlertRow | null> {
    return this.decide(
      `status = 'draft', send_at = NULL, approval = ${DECISION_SQL('rejected')}`,
      [id, actor.id, actor.email ?? null, new Date().toISOString(), reason],
      NOT_THE_AUTHOR_SQL,
      (m) => this.audit.record(m, [id], 'rejected', actor, { reason }),
    );
  }

  /** Sent now without the approval, on `actor`'s typed reason, flagged on the alert. Its author may: that is the point. */
  breakGlass(id: string, actor: Actor, reason: string): Promise<AlertRow | null> {
    return this.decide(
      `status = 'active', sent_at = now(),
       break_glass = jsonb_build_object('by', $2::text, 'byEmail', $3::text, 'at', $4::text, 'reason', $5::text)`,
      [id, actor.id, actor.email ?? null, new Date().toISOString(), reason],
      'true',
      async (m) => {
        await this.audit.record(m, [id], 'break_glass', actor, { reason });
        await this.audit.record(m, [id], 'sent', actor, { breakGlass: true });
      },
    );
  }

  private decide(set: string, params: unknown[], who: string, record: (m: EntityManager, row: AlertRow) => Promise<void>): Promise<AlertRow | null> {
    return this.ds.transaction(async (m) => {
      const [rows] = await m.query(
        `UPDATE alerts.alerts a SET ${set}, updated_at = now()
         WHERE a.id = $1 AND ${EFFECTIVE_STATUS_SQL} = 'pending_approval' AND ${who}
         RETURNING ${ALERT_COLUMNS_SQL}`,
        params,
      );
      const row: AlertRow | undefined = rows[0];
      if (row) await record(m, row);
      return row ?? null;
    });
  }
}

import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { AlertAuditAction, AlertAuditEntry } from '@beacon/contracts';

/** Who acted: an administrator, or the system itself (null: the expiry sweep, a verified incident). */
export interface Actor {
  id: string | null;
  email?: string | null;
}

export const SYSTEM: Actor = { id: null };

/** The alerts' audit trail: entries written in the caller's transaction (`m`), read newest last. */
@Injectable()
export class AuditRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /**
   * Stamped with the time of the write, not of its transaction's start (now()): a change that waited for another's
   * row lock (a cancel behind an approval) is written, and read, after it.
   */
  async record(m: EntityManager, alertIds: string[], action: AlertAuditAction, actor: Actor, details: Record<string, unknown> = {}) {
    if (!alertIds.length) return;
    await m.query(
      `INSERT INTO alerts.alert_audit (alert_id, action, actor_id, actor_email, details, at)
       SELECT id, $2, $3, $4, $5::jsonb, clock_timestamp() FROM unnest($1::uuid[]) AS id`,
      [alertIds, action, actor.id, actor.email ?? null, JSON.stringify(details)],
    );
  }

  async forAlert(alertId: string): Promise<AlertAuditEntry[]> {
    const rows = await this.ds.query(`SELECT action, actor_id, actor_email, details, at FROM alerts.alert_audit WHERE alert_id = $1 ORDER BY at, id`, [
      alertId,
    ]);
    return rows.map((r: { action: AlertAuditAction; actor_id: string | null; actor_email: string | null; details: Record<string, unknown>; at: Date }) => ({
      action: r.action,
      actorId: r.actor_id,
      actorEmail: r.actor_email,
      details: r.details,
      at: new Date(r.at).toISOString(),
    }));
  }
}

import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { ContactGroupAuditAction, ContactGroupAuditEntry } from '@beacon/contracts';
import type { Actor } from '../alerts/audit.repository';

interface AuditRow {
  id: string;
  action: ContactGroupAuditAction;
  actor_id: string | null;
  actor_email: string | null;
  details: Record<string, unknown>;
  at: Date;
}

/**
 * Each change of a contact group and its members, with who made it and when, written in the change's own transaction
 * (`m`): a change is recorded if and only if it happened. Kept after the group is deleted.
 */
@Injectable()
export class ContactGroupAuditRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  async record(m: EntityManager, groupId: string, action: ContactGroupAuditAction, actor: Actor, details: Record<string, unknown>) {
    await m.query(
      `INSERT INTO alerts.contact_group_audit (group_id, action, actor_id, actor_email, details, at) VALUES ($1, $2, $3, $4, $5::jsonb, clock_timestamp())`,
      [groupId, action, actor.id, actor.email ?? null, JSON.stringify(details)],
    );
  }

  /** A page of the group's record, newest first. */
  async forGroup(groupId: string, q: { offset: number; limit: number }): Promise<{ items: ContactGroupAuditEntry[]; total: number }> {
    const [{ total }] = await this.ds.query(`SELECT count(*)::int AS total FROM alerts.contact_group_audit WHERE group_id = $1`, [groupId]);
    const rows: AuditRow[] = await this.ds.query(
      `SELECT id::text, action, actor_id, actor_email, details, at FROM alerts.contact_group_audit WHERE group_id = $1
       ORDER BY at DESC, id DESC LIMIT $2 OFFSET $3`,
      [groupId, q.limit, q.offset],
    );
    return {
      total,
      items: rows.map((r) => ({
        id: r.id,
        action: r.action,
        actorId: r.actor_id,
        actorEmail: r.actor_email,
        details: r.details,
        at: new Date(r.at).toISOString(),
      })),
    };
  }
}

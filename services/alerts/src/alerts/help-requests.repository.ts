import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { HelpRequest } from '@beacon/contracts';

const COLUMNS = `h.id, h.alert_id AS "alertId", h.user_id AS "userId", h.user_email AS "userEmail", h.message, h.lat, h.lng, h.status,
  to_char(h.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt"`;

/** Help requests users send from an alert; admins read and resolve them. */
@Injectable()
export class HelpRequestsRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  async insert(h: { alertId: string; userId: string; userEmail: string; message: string; lat: number | null; lng: number | null }): Promise<HelpRequest> {
    const [row] = await this.ds.query(
      `INSERT INTO alerts.help_requests AS h (alert_id, user_id, user_email, message, lat, lng) VALUES ($1,$2,$3,$4,$5,$6) RETURNING ${COLUMNS}`,
      [h.alertId, h.userId, h.userEmail, h.message, h.lat, h.lng],
    );
    return row;
  }

  async list(f: { status?: 'open' | 'resolved'; offset: number; limit: number }): Promise<{ rows: HelpRequest[]; total: number }> {
    const where = f.status ? `WHERE h.status = $1` : '';
    const params = f.status ? [f.status] : [];
    const [{ total }] = await this.ds.query(`SELECT count(*)::int AS total FROM alerts.help_requests h ${where}`, params);
    const rows = await this.ds.query(
      `SELECT ${COLUMNS}, a.title AS "alertTitle" FROM alerts.help_requests h JOIN alerts.alerts a ON a.id = h.alert_id ${where}
       ORDER BY h.created_at DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, f.limit, f.offset],
    );
    return { rows, total };
  }

  async resolve(id: string): Promise<HelpRequest | null> {
    const [rows] = await this.ds.query(`UPDATE alerts.help_requests h SET status = 'resolved' WHERE id = $1 RETURNING ${COLUMNS}`, [id]);
    return rows[0] ?? null;
  }
}

import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { HelpRequest } from '@beacon/contracts';
import type { Actor } from './audit.repository';

const isoSql = (col: string) => `to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** What the person who asked sees of their request. */
const COLUMNS = `h.id, h.alert_id AS "alertId", h.user_id AS "userId", h.user_email AS "userEmail", h.message, h.lat, h.lng, h.status,
  ${isoSql('h.created_at')} AS "createdAt"`;

/**
 * What staff see besides (StaffHelpRequestRow): the alert, how to reach the person (the phone on file now, else the one
 * they had when they asked; their e-mail likewise), their home as it was when they asked (a request from before that was
 * kept: as it is now), and the resolution. Needs `a` (alerts.alerts) and `p` (alerts.user_preferences, left joined).
 */
const STAFF_COLUMNS = `h.id, h.alert_id AS "alertId", h.user_id AS "userId", coalesce(h.user_email, p.email) AS "userEmail", h.message, h.lat, h.lng,
  h.status, ${isoSql('h.created_at')} AS "createdAt", a.title AS "alertTitle", a.location_name AS "alertLocationName",
  coalesce(p.phone_number, h.phone_number) AS phone,
  CASE WHEN h.home_lat IS NOT NULL THEN h.home_lat ELSE p.lat END AS home_lat,
  CASE WHEN h.home_lat IS NOT NULL THEN h.home_lng ELSE p.lng END AS home_lng,
  h.resolution_note, h.resolved_by, h.resolved_by_email, ${isoSql('h.resolved_at')} AS resolved_at`;

const STAFF_FROM = `alerts.help_requests h JOIN alerts.alerts a ON a.id = h.alert_id LEFT JOIN alerts.user_preferences p ON p.user_id = h.user_id`;

/** A help request as the staff query reads it, before toStaffHelpRequest. */
export interface StaffHelpRequestRow extends Omit<HelpRequest, 'place' | 'resolution' | 'phone'> {
  phone: string | null;
  home_lat: number | null;
  home_lng: number | null;
  resolution_note: string | null;
  resolved_by: string | null;
  resolved_by_email: string | null;
  resolved_at: string | null;
}

/** The staff view: where to find the person (what they shared, else their home) and who resolved it, how. */
export function toStaffHelpRequest(r: StaffHelpRequestRow): HelpRequest {
  const { home_lat, home_lng, resolution_note, resolved_by, resolved_by_email, resolved_at, ...rest } = r;
  const place =
    r.lat !== null && r.lng !== null
      ? { source: 'shared' as const, lat: r.lat, lng: r.lng }
      : home_lat !== null && home_lng !== null
        ? { source: 'home' as const, lat: home_lat, lng: home_lng }
        : null;
  const resolution = r.status === 'resolved' ? { note: resolution_note ?? '', by: resolved_by, byEmail: resolved_by_email, at: resolved_at } : null;
  return { ...rest, place, resolution };
}

/** Help requests users send from an alert; staff read and resolve them. */
@Injectable()
export class HelpRequestsRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /**
   * Keeps, with the request, the phone and the home the person had on file when they asked: the home is the place the
   * alert was sent to them for, and either may change before someone calls back.
   */
  async insert(h: {
    alertId: string;
    userId: string;
    userEmail: string | null;
    message: string;
    lat: number | null;
    lng: number | null;
  }): Promise<HelpRequest> {
    const [row] = await this.ds.query(
      `INSERT INTO alerts.help_requests AS h (alert_id, user_id, user_email, message, lat, lng, phone_number, home_lat, home_lng)
       SELECT $1, $2, $3, $4, $5, $6, p.phone_number, p.lat, p.lng
       FROM (SELECT 1) one LEFT JOIN alerts.user_preferences p ON p.user_id = $2
       RETURNING ${COLUMNS}`,
      [h.alertId, h.userId, h.userEmail, h.message, h.lat, h.lng],
    );
    return row;
  }

  async list(f: { status?: 'open' | 'resolved'; offset: number; limit: number }): Promise<{ rows: HelpRequest[]; total: number }> {
    const where = f.status ? `WHERE h.status = $1` : '';
    const params = f.status ? [f.status] : [];
    const [{ total }] = await this.ds.query(`SELECT count(*)::int AS total FROM alerts.help_requests h ${where}`, params);
    const rows: StaffHelpRequestRow[] = await this.ds.query(
      `SELECT ${STAFF_COLUMNS} FROM ${STAFF_FROM} ${where}
       ORDER BY h.created_at DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, f.limit, f.offset],
    );
    return { rows: rows.map(toStaffHelpRequest), total };
  }

  async find(id: string): Promise<HelpRequest | null> {
    const [row] = await this.ds.query(`SELECT ${STAFF_COLUMNS} FROM ${STAFF_FROM} WHERE h.id = $1`, [id]);
    return row ? toStaffHelpRequest(row) : null;
  }

  /**
   * Resolved by `actor` with their note. A request already resolved keeps its first resolution (a second click, or a
   * colleague's, changes nothing). Null when there is no such request.
   */
  async resolve(id: string, note: string, actor: Actor): Promise<HelpRequest | null> {
    await this.ds.query(
      `UPDATE alerts.help_requests SET status = 'resolved', resolution_note = $2, resolved_by = $3, resolved_by_email = $4, resolved_at = now()
       WHERE id = $1 AND status = 'open'`,
      [id, note, actor.id, actor.email ?? null],
    );
    return this.find(id);
  }
}

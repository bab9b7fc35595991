import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { IncidentStatus, IncidentType, URGENT_INCIDENT_TYPES } from '@beacon/contracts';
import { distanceFrom, withinRadius } from '../common/geo';
import { rowsOf } from '../common/sql';
import { INCIDENT_COLUMNS, IncidentRow, ModerationRow, Viewer } from './incident.entity';

export interface NewIncident {
  type: IncidentType;
  description: string;
  locationName: string | null;
  lat: number;
  lng: number;
  photoPath: string | null;
  reportedBy: string;
  reporterEmail: string | null;
  status: IncidentStatus;
  autoApproved: boolean;
}

/**
 * When a verified report was verified: an admin's decision sets moderated_at; an auto-approved report is
 * verified as it is created and has none. Kept identical to the expression of incidents_verified_at_idx.
 */
const VERIFIED_AT = `coalesce(i.moderated_at, i.created_at)`;

/**
 * A report's place in the moderation queue: its type's position in URGENT_INCIDENT_TYPES (bound as $1, a text
 * array), every other type after them all.
 */
const URGENCY_RANK = `coalesce(array_position($1::text[], i.type), cardinality($1::text[]) + 1)`;

/**
 * The queue's order, by output column names: the page is chosen and then returned in it, so both must be the
 * same (id last: reports made at the same instant still page stably).
 */
const QUEUE_ORDER = `urgency, created_at, id`;

/** Published reports are public; pending and rejected ones only to their reporter and admins. */
const VISIBLE = `($1::boolean OR i.status IN ('verified', 'resolved') OR i.reported_by = $2::uuid)`;

@Injectable()
export class IncidentsRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  transaction<T>(work: (m: EntityManager) => Promise<T>): Promise<T> {
    return this.ds.transaction(work);
  }

  async insert(m: EntityManager, row: NewIncident): Promise<IncidentRow> {
    const [created] = await m.query(
      `INSERT INTO incidents.incidents AS i (type, description, location_name, lat, lng, photo_path, reported_by, reporter_email, status, auto_approved)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING ${INCIDENT_COLUMNS}`,
      [row.type, row.description, row.locationName, row.lat, row.lng, row.photoPath, row.reportedBy, row.reporterEmail, row.status, row.autoApproved],
    );
    return created;
  }

  async findById(id: string, m: EntityManager = this.ds.manager): Promise<IncidentRow | null> {
    const [row] = await m.query(`SELECT ${INCIDENT_COLUMNS} FROM incidents.incidents i WHERE i.id = $1`, [id]);
    return row ?? null;
  }

  async list(viewer: Viewer, filter: { type?: string; status?: string; limit: number; offset: number }) {
    const where = [VISIBLE];
    const params: unknown[] = [viewer.isAdmin, viewer.id];
    if (filter.type) where.push(`i.type = $${params.push(filter.type)}`);
    if (filter.status) where.push(`i.status = $${params.push(filter.status)}`);
    return this.page(where.join(' AND '), params, 'i.created_at DESC, i.id', filter.limit, filter.offset);
  }

  async listByReporter(userId: string, limit: number, offset: number) {
    return this.page('i.reported_by = $1', [userId], 'i.created_at DESC, i.id', limit, offset);
  }

  /**
   * The moderation queue: pending reports, urgent types first (in URGENT_INCIDENT_TYPES order, bound as $1; any
   * other type ranks after them), then the longest waiting first, then id so pages never overlap or skip.
   * Each row carries its reporter's record: their other reports counted by status, in one grouped pass over the
   * reporters of this page (the report itself is pending and is taken off the pending count).
   */
  async listPending(limit: number, offset: number): Promise<{ rows: ModerationRow[]; total: number }> {
    const rows: (ModerationRow & { total: number })[] = await this.ds.query(
      `WITH page AS (
         SELECT ${INCIDENT_COLUMNS}, ${URGENCY_RANK} AS urgency, count(*) OVER ()::int AS total
         FROM incidents.incidents i
         WHERE i.status = 'pending'
         ORDER BY ${QUEUE_ORDER}
         LIMIT $2 OFFSET $3
       ), history AS (
         SELECT r.reported_by,
                count(*) FILTER (WHERE r.status IN ('verified', 'resolved'))::int AS verified,
                count(*) FILTER (WHERE r.status = 'rejected')::int AS rejected,
                count(*) FILTER (WHERE r.status = 'pending')::int AS pending
         FROM incidents.incidents r
         WHERE r.reported_by IN (SELECT reported_by FROM page)
         GROUP BY r.reported_by
       )
       SELECT page.*, h.verified AS reporter_verified, h.rejected AS reporter_rejected, h.pending - 1 AS reporter_pending
       FROM page JOIN history h ON h.reported_by = page.reported_by
       ORDER BY ${QUEUE_ORDER}`,
      [URGENT_INCIDENT_TYPES, limit, offset],
    );
    if (rows.length || offset === 0) return { rows, total: rows[0]?.total ?? 0 };
    // past the end: the window count came back empty, ask for it directly
    return { rows, total: await this.countPending() };
  }

  /** How many reports wait for moderation. */
  async countPending(): Promise<number> {
    const [{ total }] = await this.ds.query(`SELECT count(*)::int AS total FROM incidents.incidents WHERE status = 'pending'`);
    return total;
  }

  private async page(where: string, params: unknown[], order: string, limit: number, offset: number): Promise<{ rows: IncidentRow[]; total: number }> {
    const rows: (IncidentRow & { total: number })[] = await this.ds.query(
      `SELECT ${INCIDENT_COLUMNS}, count(*) OVER ()::int AS total FROM incidents.incidents i
       WHERE ${where} ORDER BY ${order} LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, limit, offset],
    );
    if (rows.length || offset === 0) return { rows, total: rows[0]?.total ?? 0 };
    // past the end: the window count came back empty, ask for it directly
    const [{ total }] = await this.ds.query(`SELECT count(*)::int AS total FROM incidents.incidents i WHERE ${where}`, params);
    return { rows, total };
  }

  async nearby(viewer: Viewer, q: { lat: number; lng: number; radiusM: number; limit: number; type?: string }): Promise<IncidentRow[]> {
    const params: unknown[] = [viewer.isAdmin, viewer.id, q.lat, q.lng, q.radiusM, q.limit];
    const typeFilter = q.type ? `AND i.type = $${params.push(q.type)}` : '';
    return this.ds.query(
      `SELECT ${INCIDENT_COLUMNS}, ${distanceFrom('i', '$3', '$4')} AS distance_m FROM incidents.incidents i
       WHERE ${VISIBLE} AND ${withinRadius('i', '$3', '$4', '$5')} ${typeFilter}
       ORDER BY distance_m, i.created_at DESC LIMIT $6`,
      params,
    );
  }

  /** Open reports of the same type close by and recent: offered as possible duplicates before submitting. */
  async possibleDuplicates(q: { type: string; lat: number; lng: number; radiusM: number; windowMinutes: number }): Promise<IncidentRow[]> {
    return this.ds.query(
      `SELECT ${INCIDENT_COLUMNS}, ${distanceFrom('i', '$2', '$3')} AS distance_m FROM incidents.incidents i
       WHERE i.type = $1 AND i.status IN ('pending', 'verified')
         AND i.created_at >= now() - make_interval(mins => $5::int)
         AND ${withinRadius('i', '$2', '$3', '$4')}
       ORDER BY distance_m, i.created_at DESC LIMIT 5`,
      [q.type, q.lat, q.lng, q.radiusM, q.windowMinutes],
    );
  }

  /** Reports verified within the last `hours`, however long ago they were made; newest verification first. */
  async verifiedSince(hours: number, limit: number): Promise<IncidentRow[]> {
    return this.ds.query(
      `SELECT ${INCIDENT_COLUMNS} FROM incidents.incidents i
       WHERE i.status = 'verified' AND ${VERIFIED_AT} >= now() - make_interval(hours => $1::int)
       ORDER BY ${VERIFIED_AT} DESC, i.id LIMIT $2`,
      [hours, limit],
    );
  }

  /** The status a report has now (null if there is no such report). */
  async statusOf(id: string): Promise<IncidentStatus | null> {
    const [row] = await this.ds.query(`SELECT status FROM incidents.incidents WHERE id = $1`, [id]);
    return row?.status ?? null;
  }

  /** How a reporter's past reports fared: admin-verified ones, and recent rejections. */
  async reporterStanding(userId: string, rejectWindowDays: number): Promise<{ verified: number; recentlyRejected: number }> {
    const [row] = await this.ds.query(
      `SELECT count(*) FILTER (WHERE status IN ('verified', 'resolved') AND NOT auto_approved)::int AS verified,
              count(*) FILTER (WHERE status = 'rejected' AND moderated_at >= now() - make_interval(days => $2::int))::int AS "recentlyRejected"
       FROM incidents.incidents WHERE reported_by = $1`,
      [userId, rejectWindowDays],
    );
    return row;
  }

  /** Changes the status only if it is still `from` (two admins acting at once: the second gets null). */
  async updateStatus(
    m: EntityManager,
    id: string,
    from: IncidentStatus,
    to: IncidentStatus,
    adminId: string,
    note: string | null,
  ): Promise<IncidentRow | null> {
    const rows = rowsOf<IncidentRow>(
      await m.query(
        `UPDATE incidents.incidents AS i SET status = $3, moderated_by = $4, moderated_at = now(), moderation_note = $5,
         auto_approved = false, updated_at = now()
       WHERE i.id = $1 AND i.status = $2 RETURNING ${INCIDENT_COLUMNS}`,
        [id, from, to, adminId, note],
      ),
    );
    return rows[0] ?? null;
  }
}

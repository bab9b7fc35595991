import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { ReachHelpRequest } from '@beacon/contracts';
import type { Bounds, CountedCell } from './reach-grid';

/** A base cell as the statement returns it; row and col are null for the people with no home on file. */
interface CellRow {
  cell_row: number | null;
  cell_col: number | null;
  needs_help: number;
  reached: number;
  failed: number;
  pending: number;
  confirmed: number;
}

/**
 * Each recipient's state, from all their deliveries of the alert (every round, every channel) and their open help
 * requests: REACH_STATES says the order. "Reached" is sent, delivered or read, as the delivery counts (successfulCount)
 * and the fallback (createFallback: "nothing reached") define it; `confirmed` keeps apart those a receipt or the person
 * confirmed. 'sending' is on its way, like the console's counts read it.
 */
const PEOPLE_SQL = `
  people AS (
    SELECT d.user_id,
           bool_or(d.status IN ('sent', 'delivered', 'read')) AS reached,
           bool_or(d.status IN ('delivered', 'read')) AS confirmed,
           bool_or(d.status IN ('pending', 'sending')) AS waiting
    FROM alerts.alert_deliveries d WHERE d.alert_id = $1 GROUP BY d.user_id),
  asking AS (SELECT DISTINCT h.user_id FROM alerts.help_requests h WHERE h.alert_id = $1 AND h.status = 'open'),
  stated AS (
    SELECT p.user_id, p.confirmed,
           CASE WHEN x.user_id IS NOT NULL THEN 'needs_help' WHEN p.reached THEN 'reached' WHEN p.waiting THEN 'pending' ELSE 'failed' END AS state
    FROM people p LEFT JOIN asking x ON x.user_id = p.user_id)`;

const isoSql = (col: string) => `to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** What the reach map reads: the recipients counted per cell of the grid by their home (as it is now), and help requests. */
@Injectable()
export class ReachRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /**
   * The recipients counted by state in each cell of `size` hundredths of a degree (row and column: the floor of the
   * home's lat and lng in hundredths, divided by the size, as reach-grid reckons them), in one pass; the people with
   * no home on file in a row of their own (row and column null). Only counts leave the database.
   */
  async baseCells(alertId: string, size: number): Promise<{ cells: CountedCell[]; unlocated: CountedCell | null }> {
    const rows: CellRow[] = await this.ds.query(
      `WITH ${PEOPLE_SQL}
       SELECT floor(floor(u.lat * 100) / $2)::int AS cell_row, floor(floor(u.lng * 100) / $2)::int AS cell_col,
              count(*) FILTER (WHERE s.state = 'needs_help')::int AS needs_help,
              count(*) FILTER (WHERE s.state = 'reached')::int AS reached,
              count(*) FILTER (WHERE s.state = 'failed')::int AS failed,
              count(*) FILTER (WHERE s.state = 'pending')::int AS pending,
              count(*) FILTER (WHERE s.state = 'reached' AND s.confirmed)::int AS confirmed
       FROM stated s LEFT JOIN alerts.user_preferences u ON u.user_id = s.user_id
       GROUP BY 1, 2`,
      [alertId, size],
    );
    const counted = (r: CellRow): CountedCell => ({
      row: r.cell_row ?? 0,
      col: r.cell_col ?? 0,
      counts: { needs_help: r.needs_help, reached: r.reached, failed: r.failed, pending: r.pending },
      confirmed: r.confirmed,
    });
    const unlocated = rows.find((r) => r.cell_row === null);
    return { cells: rows.filter((r) => r.cell_row !== null).map(counted), unlocated: unlocated ? counted(unlocated) : null };
  }

  /** The box around the recipients' homes (an alert to everyone has no area to size the grid by); null when none has one. */
  async homesExtent(alertId: string): Promise<Bounds | null> {
    const [row] = await this.ds.query(
      `SELECT min(u.lat) AS south, max(u.lat) AS north, min(u.lng) AS west, max(u.lng) AS east
       FROM alerts.alert_deliveries d JOIN alerts.user_preferences u ON u.user_id = d.user_id
       WHERE d.alert_id = $1 AND u.lat IS NOT NULL`,
      [alertId],
    );
    return row && row.south !== null ? row : null;
  }

  /**
   * The alert's help requests, open ones first, then newest first, with the location the sender shared (never their
   * home: the map shows no one's home), at most `limit`, and how many there are.
   */
  async helpRequests(alertId: string, limit: number): Promise<{ rows: ReachHelpRequest[]; total: number }> {
    const [rows, [{ total }]] = await Promise.all([
      this.ds.query(
        `SELECT h.id, h.status, ${isoSql('h.created_at')} AS "createdAt", h.message, h.lat, h.lng
         FROM alerts.help_requests h WHERE h.alert_id = $1
         ORDER BY h.status = 'open' DESC, h.created_at DESC, h.id LIMIT $2`,
        [alertId, limit],
      ),
      this.ds.query(`SELECT count(*)::int AS total FROM alerts.help_requests h WHERE h.alert_id = $1`, [alertId]),
    ]);
    return { rows, total };
  }
}

import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { SourceCamera, SourceEvent } from './source-format';

/** How one table is kept in step with a source. Column names are constants here, never input. */
interface SyncTable<T> {
  table: 'traffic.cameras' | 'traffic.traffic_events';
  /** Columns copied from the source, with their SQL types, in order. */
  columns: [name: string, sqlType: string][];
  toRow: (item: T) => Record<string, unknown>;
  /** Set to the run's time whenever the source reports the row. */
  seenColumn: 'last_updated' | 'last_seen_at';
}

const CAMERAS: SyncTable<SourceCamera> = {
  table: 'traffic.cameras',
  columns: [
    ['source_name', 'text'],
    ['roadway', 'text'],
    ['direction', 'text'],
    ['description', 'text'],
    ['lat', 'double precision'],
    ['lng', 'double precision'],
    ['image_url', 'text'],
    ['views', 'jsonb'],
  ],
  toRow: (c) => ({
    source_id: c.sourceId,
    source_name: c.sourceName,
    roadway: c.roadway,
    direction: c.direction,
    description: c.description,
    lat: c.lat,
    lng: c.lng,
    image_url: c.imageUrl,
    views: c.views,
  }),
  seenColumn: 'last_updated',
};

const EVENTS: SyncTable<SourceEvent> = {
  table: 'traffic.traffic_events',
  columns: [
    ['source_name', 'text'],
    ['type', 'text'],
    ['category', 'text'],
    ['severity', 'text'],
    ['lat', 'double precision'],
    ['lng', 'double precision'],
    ['description', 'text'],
    ['roadway', 'text'],
    ['direction', 'text'],
    ['full_closure', 'boolean'],
    ['start_date', 'timestamptz'],
    ['end_date', 'timestamptz'],
  ],
  toRow: (e) => ({
    source_id: e.sourceId,
    source_name: e.sourceName,
    type: e.type,
    category: e.category,
    severity: e.severity,
    lat: e.lat,
    lng: e.lng,
    description: e.description,
    roadway: e.roadway,
    direction: e.direction,
    full_closure: e.fullClosure,
    start_date: e.startDate?.toISOString() ?? null,
    end_date: e.endDate?.toISOString() ?? null,
  }),
  seenColumn: 'last_seen_at',
};

export interface SyncCounts {
  received: number;
  inserted: number;
  updated: number;
  unchanged: number;
  /** Rows the source no longer reports, now marked vanished (kept, hidden). */
  vanished: number;
  /** The source dropped too many rows at once to be believed: nothing was marked vanished. */
  vanishSkipped: boolean;
}

export interface SyncOptions {
  now: Date;
  /** Refuse to vanish more than this percentage of the source's active rows in one pull (when 10 or more are active). */
  maxVanishPercent: number;
}

/**
 * Upserts a complete, validated list from one source by (source, source_id) and marks what the list no longer
 * holds as vanished, in one transaction: readers see the old list or the new one, never half of each.
 */
@Injectable()
export class SourceSyncRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  syncCameras(source: string, items: SourceCamera[], options: SyncOptions): Promise<SyncCounts> {
    return this.sync(CAMERAS, source, items, options);
  }

  syncEvents(source: string, items: SourceEvent[], options: SyncOptions): Promise<SyncCounts> {
    return this.sync(EVENTS, source, items, options);
  }

  private sync<T>(spec: SyncTable<T>, source: string, items: T[], options: SyncOptions): Promise<SyncCounts> {
    return this.ds.transaction(async (m) => {
      // one writer per table and source at a time (a manual pull racing the scheduled one, or two replicas)
      await m.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`${spec.table}:${source}`]);
      const rows = items.map(spec.toRow);
      const ids = rows.map((r) => r.source_id as string);
      const vanishSkipped = await this.tooManyVanish(m, spec, source, ids, options.maxVanishPercent);
      const { inserted, updated } = await this.upsert(m, spec, source, rows, options.now);
      let vanished = 0;
      if (!vanishSkipped) {
        const result = await m.query(
          `UPDATE ${spec.table} SET vanished_at = $3::timestamptz, updated_at = $3::timestamptz
            WHERE source = $1 AND vanished_at IS NULL AND NOT (source_id = ANY($2::text[]))`,
          [source, ids, options.now],
        );
        vanished = result[1] as number;
      }
      return { received: rows.length, inserted, updated, unchanged: rows.length - inserted - updated, vanished, vanishSkipped };
    });
  }

  private async tooManyVanish(
    m: EntityManager,
    spec: Pick<SyncTable<unknown>, 'table' | 'columns' | 'seenColumn'>,
    source: string,
    ids: string[],
    maxPercent: number,
  ) {
    const [{ active, leaving }] = await m.query(
      `SELECT count(*)::int AS active, count(*) FILTER (WHERE NOT (source_id = ANY($2::text[])))::int AS leaving
         FROM ${spec.table} WHERE source = $1 AND vanished_at IS NULL`,
      [source, ids],
    );
    return active >= 10 && (leaving * 100) / active > maxPercent;
  }

  private async upsert(
    m: EntityManager,
    spec: Pick<SyncTable<unknown>, 'table' | 'columns' | 'seenColumn'>,
    source: string,
    rows: Record<string, unknown>[],
    now: Date,
  ) {
    if (rows.length === 0) return { inserted: 0, updated: 0 };
    const names = spec.columns.map(([n]) => n);
    const recordset = ['source_id text', ...spec.columns.map(([n, t]) => `${n} ${t}`)].join(', ');
    const changed = `(${names.map((n) => `c.${n}`).join(', ')}, c.vanished_at IS NULL) IS DISTINCT FROM (${names.map((n) => `EXCLUDED.${n}`).join(', ')}, true)`;
    const result: { inserted: boolean; changed: boolean }[] = await m.query(
      `INSERT INTO ${spec.table} AS c (source, source_id, ${names.join(', ')}, ${spec.seenColumn}, first_seen_at, created_at, updated_at)
       SELECT $1::text, x.source_id, ${names.map((n) => `x.${n}`).join(', ')}, $3::timestamptz, $3::timestamptz, $3::timestamptz, $3::timestamptz
         FROM jsonb_to_recordset($2::jsonb) AS x(${recordset})
       ON CONFLICT (source, source_id) DO UPDATE SET
         ${names.map((n) => `${n} = EXCLUDED.${n}`).join(', ')},
         ${spec.seenColumn} = EXCLUDED.${spec.seenColumn},
         vanished_at = NULL,
         updated_at = CASE WHEN ${changed} THEN EXCLUDED.updated_at ELSE c.updated_at END
       RETURNING (xmax = 0) AS inserted, (xmax <> 0 AND c.updated_at = $3::timestamptz) AS changed`,
      [source, JSON.stringify(rows), now],
    );
    return { inserted: result.filter((r) => r.inserted).length, updated: result.filter((r) => r.changed).length };
  }
}

import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Rows, TrafficEvent } from '@beacon/contracts';

/** A traffic event as the map sees it (spec: id, type, severity, lat, lng, description, start_date, end_date). */
export type TrafficEventView = Rows<TrafficEvent, 'startDate' | 'endDate'>;

@Injectable()
export class EventsRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** Active events with coordinates: still reported by the source, and no end date or an end date still ahead. */
  listActive(): Promise<TrafficEventView[]> {
    return this.ds.query(
      `SELECT id, type, category, severity, lat, lng, description, roadway, direction, full_closure AS "fullClosure",
              start_date AS "startDate", end_date AS "endDate"
         FROM traffic.traffic_events
        WHERE vanished_at IS NULL AND lat IS NOT NULL AND lng IS NOT NULL AND (end_date IS NULL OR end_date > now())
        ORDER BY start_date DESC NULLS LAST, id`,
    );
  }
}

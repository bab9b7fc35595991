import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { AlertAreaPart, AlertCategory, AlertStatus, AlertTranslations, AllClearTranslations, DeliveryChannel, Severity } from '@beacon/contracts';

/** Deliveries per channel job, by channel. */
export type BatchSizes = Record<DeliveryChannel, number>;

/** The one expiry rule: an alert whose expiry has come (`alias` names the alerts table in the query). */
export const expiredSql = (alias = 'a') => `(${alias}.expires_at IS NOT NULL AND ${alias}.expires_at <= now())`;

/** The columns every reader of an alerts.alerts row takes as stored: what it says, where, by which channels, from whom. */
export interface AlertColumns {
  id: string;
  title: string;
  message: string;
  /** The text in other languages ('{}' when none). */
  translations: AlertTranslations;
  type: string;
  severity: Severity;
  category: AlertCategory;
  location_name: string | null;
  lat: number | null;
  lng: number | null;
  radius_km: number | null;
  /** A polygon alert's ring in PostgreSQL's text form (polygon-column.ts); null for a circle or no area. */
  area_polygon: string | null;
  /**
   * An area of several parts (MultiAreas migration; alert-area.ts StoredArea), as node-postgres parses the jsonb; null
   * or absent for one part or none.
   */
  area_parts?: AlertAreaPart[] | null;
  /** A one-part area's description (CAP areaDesc), null when it has none. */
  area_description?: string | null;
  /**
   * The contact groups it targets besides or instead of its area (AlertGroups migration), '{}' when none. Optional for
   * the rows specs build; every statement that reads an alert to select its people reads it.
   */
  group_ids?: string[];
  channels: DeliveryChannel[];
  source: 'admin' | 'incident' | 'test' | 'cap';
  created_by: string | null;
}

/**
 * An alerts.alerts row as the delivery pipeline reads it, from the dispatch to the last send: the status as stored,
 * with `expired` beside it (the sweep may not have ended an alert whose expiry has come). Each step names the part it
 * needs with a Pick of this type (EligibilityAlert, AudienceAlert, SendableAlert).
 */
export interface DeliveryAlert extends AlertColumns {
  status: AlertStatus;
  expired: boolean;
  version: number;
  dispatched_at: Date | null;
  sent_at: Date | null;
  created_at: Date;
  /** The all-clear's own words, when it was given with some. */
  all_clear_message: string | null;
  /** Those words in the alert's other languages (AllClearTranslations migration). */
  all_clear_translations: AllClearTranslations | null;
  /** The sizes the dispatch cut its batches with (null before the dispatch, or before they were kept). */
  batch_sizes: BatchSizes | null;
}

/** The pipeline's one reader of alerts.alerts: the dispatch, a version's fan-out and the channel senders read the alert here. */
@Injectable()
export class DeliveryAlertsRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  async find(id: string): Promise<DeliveryAlert | null> {
    const [row] = await this.findMany([id]);
    return row ?? null;
  }

  async findMany(ids: string[]): Promise<DeliveryAlert[]> {
    return this.ds.query(
      `SELECT id, title, message, translations, type, severity, category, location_name, lat, lng, radius_km, area_polygon, area_parts, area_description, group_ids, channels,
              source, created_by, status, ${expiredSql('alerts')} AS expired, version, dispatched_at, sent_at, created_at,
              all_clear_message, all_clear_translations, batch_sizes
       FROM alerts.alerts WHERE id = ANY($1::uuid[])`,
      [ids],
    );
  }
}

import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { AlertCategory, AlertTemplate, AlertTranslations, DeliveryChannel, Severity } from '@beacon/contracts';

/** A template as stored, less its id and times. */
export interface TemplateFields {
  name: string;
  type: string;
  category: AlertCategory;
  severity: Severity;
  title: string;
  message: string;
  translations: AlertTranslations;
  channels: DeliveryChannel[];
  radiusKm: number | null;
}

const COLUMNS = `id, name, type, category, severity, title, message, translations, channels, radius_km AS "radiusKm",
  to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt",
  to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "updatedAt"`;

/** A unique violation: the name is taken (names are unique regardless of case). */
export const isNameTaken = (e: unknown) => (e as { code?: string }).code === '23505';

@Injectable()
export class TemplatesRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  list(): Promise<AlertTemplate[]> {
    return this.ds.query(`SELECT ${COLUMNS} FROM alerts.alert_templates ORDER BY lower(name), id`);
  }

  async find(id: string): Promise<AlertTemplate | null> {
    const [row] = await this.ds.query(`SELECT ${COLUMNS} FROM alerts.alert_templates WHERE id = $1`, [id]);
    return row ?? null;
  }

  async insert(t: TemplateFields, createdBy: string): Promise<AlertTemplate> {
    const [row] = await this.ds.query(
      `INSERT INTO alerts.alert_templates (name, type, category, severity, title, message, translations, channels, radius_km, created_by)
       VALUES ($1,$2,$3,$4,$5,$6,$7::jsonb,$8,$9,$10) RETURNING ${COLUMNS}`,
      [t.name, t.type, t.category, t.severity, t.title, t.message, JSON.stringify(t.translations), t.channels, t.radiusKm, createdBy],
    );
    return row;
  }

  /** Replaces the template; null when there is none with this id. */
  async update(id: string, t: TemplateFields): Promise<AlertTemplate | null> {
    const [rows] = await this.ds.query(
      `UPDATE alerts.alert_templates SET name = $2, type = $3, category = $4, severity = $5, title = $6, message = $7,
         translations = $8::jsonb, channels = $9, radius_km = $10, updated_at = now()
       WHERE id = $1 RETURNING ${COLUMNS}`,
      [id, t.name, t.type, t.category, t.severity, t.title, t.message, JSON.stringify(t.translations), t.channels, t.radiusKm],
    );
    return rows[0] ?? null;
  }

  async remove(id: string): Promise<boolean> {
    const [, count] = await this.ds.query(`DELETE FROM alerts.alert_templates WHERE id = $1`, [id]);
    return count > 0;
  }
}

import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AlertCategory, Frequency, PreferenceAlertType, Severity } from '@beacon/contracts';

/** An alerts.user_preferences row. */
export interface PreferencesRow {
  user_id: string;
  email: string | null;
  severity_threshold: Severity;
  alert_types: PreferenceAlertType[];
  categories: AlertCategory[];
  push_enabled: boolean;
  sms_enabled: boolean;
  email_enabled: boolean;
  voice_enabled: boolean;
  phone_number: string | null;
  lat: number | null;
  lng: number | null;
  /** The home's name as the person chose it (issue #40); null when none, or no home. */
  home_name: string | null;
  radius_km: number;
  quiet_enabled: boolean;
  quiet_start: string;
  quiet_end: string;
  time_zone: string;
  weekend_enabled: boolean;
  frequency: Frequency;
  /** The language alerts reach them in; null until chosen (English). */
  language: string | null;
}

const FIELDS: (keyof PreferencesRow)[] = [
  'email',
  'severity_threshold',
  'alert_types',
  'categories',
  'push_enabled',
  'sms_enabled',
  'email_enabled',
  'voice_enabled',
  'phone_number',
  'lat',
  'lng',
  'home_name',
  'radius_km',
  'quiet_enabled',
  'quiet_start',
  'quiet_end',
  'time_zone',
  'weekend_enabled',
  'frequency',
  'language',
];

/**
 * A user's own preferences row, by the id of their account. The rows of external contacts (`external`: the mirrors of
 * contact groups' contacts, kept by a trigger, issue #42) are never a user's: not read here, never written over.
 */
@Injectable()
export class PreferencesRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  async find(userId: string): Promise<PreferencesRow | null> {
    const [row] = await this.ds.query(
      `SELECT user_id, ${FIELDS.filter((f) => f !== 'quiet_start' && f !== 'quiet_end').join(', ')},
              to_char(quiet_start, 'HH24:MI') AS quiet_start, to_char(quiet_end, 'HH24:MI') AS quiet_end
       FROM alerts.user_preferences WHERE user_id = $1 AND NOT external`,
      [userId],
    );
    return row ?? null;
  }

  /** Writes the whole row (insert or replace); false when the id is an external contact's (nothing written). */
  async save(row: PreferencesRow): Promise<boolean> {
    const values = FIELDS.map((f) => row[f]);
    const written = await this.ds.query(
      `INSERT INTO alerts.user_preferences AS p (user_id, ${FIELDS.join(', ')})
       VALUES ($1, ${FIELDS.map((_, i) => `$${i + 2}`).join(', ')})
       ON CONFLICT (user_id) DO UPDATE SET ${FIELDS.map((f) => `${f} = excluded.${f}`).join(', ')}, updated_at = now()
       WHERE NOT p.external
       RETURNING 1`,
      [row.user_id, ...values],
    );
    return written.length > 0;
  }

  /** Creates the default row if the user has none (e.g. on first push subscription); keeps the email fresh. */
  async ensure(row: PreferencesRow): Promise<void> {
    const values = FIELDS.map((f) => row[f]);
    await this.ds.query(
      `INSERT INTO alerts.user_preferences AS p (user_id, ${FIELDS.join(', ')})
       VALUES ($1, ${FIELDS.map((_, i) => `$${i + 2}`).join(', ')})
       ON CONFLICT (user_id) DO UPDATE SET email = excluded.email WHERE p.email IS DISTINCT FROM excluded.email AND NOT p.external`,
      [row.user_id, ...values],
    );
  }
}

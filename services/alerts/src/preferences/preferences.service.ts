import { Injectable } from '@nestjs/common';
import { AlertPreferences, categoriesForAlertTypes, DEFAULT_PREFERENCES, isLanguage, kmToMiles, milesToKm } from '@beacon/contracts';
import { badRequest, conflict } from '@beacon/common';
import type { AuthUser } from '@beacon/auth';
import { UpdatePreferencesDto } from './dto/update-preferences.dto';
import { PreferencesRepository, PreferencesRow } from './preferences.repository';
import { isTimeZone } from './time-zone';

/** The spec's defaults as a stored row for this user. */
export function defaultRow(user: AuthUser): PreferencesRow {
  const d = DEFAULT_PREFERENCES;
  return {
    user_id: user.id,
    email: user.email,
    severity_threshold: d.severityThreshold,
    alert_types: [...d.alertTypes],
    categories: [...d.categories],
    push_enabled: d.methods.push,
    sms_enabled: d.methods.sms,
    email_enabled: d.methods.email,
    voice_enabled: d.methods.voice,
    phone_number: d.phoneNumber,
    lat: null,
    lng: null,
    home_name: null,
    radius_km: d.radiusKm,
    quiet_enabled: d.quietHours.enabled,
    quiet_start: d.quietHours.start,
    quiet_end: d.quietHours.end,
    time_zone: d.quietHours.timeZone,
    weekend_enabled: d.weekendEnabled,
    frequency: d.frequency,
    language: d.language,
  };
}

export function toPreferences(r: PreferencesRow): AlertPreferences {
  return {
    alertTypes: r.alert_types,
    categories: r.categories,
    severityThreshold: r.severity_threshold,
    frequency: r.frequency,
    radiusKm: r.radius_km,
    // Shown on a whole-mile slider; stored km keeps full precision.
    radiusMiles: Math.round(kmToMiles(r.radius_km) * 100) / 100,
    quietHours: { enabled: r.quiet_enabled, start: r.quiet_start, end: r.quiet_end, timeZone: r.time_zone },
    weekendEnabled: r.weekend_enabled,
    methods: { push: r.push_enabled, voice: r.voice_enabled, email: r.email_enabled, sms: r.sms_enabled },
    phoneNumber: r.phone_number,
    home: r.lat === null || r.lng === null ? null : { lat: r.lat, lng: r.lng, name: r.home_name ?? null },
    language: isLanguage(r.language) ? r.language : null,
  };
}

@Injectable()
export class PreferencesService {
  constructor(private readonly repo: PreferencesRepository) {}

  async get(user: AuthUser): Promise<AlertPreferences> {
    return toPreferences((await this.repo.find(user.id)) ?? defaultRow(user));
  }

  /**
   * Merges the change over the current (or default) preferences and saves the whole row. The email the
   * email channel uses comes from the caller's token, so it is never out of step with the account.
   */
  async update(user: AuthUser, dto: UpdatePreferencesDto): Promise<AlertPreferences> {
    const row = { ...((await this.repo.find(user.id)) ?? defaultRow(user)), email: user.email };
    if (dto.alertTypes) {
      row.alert_types = [...new Set(dto.alertTypes)];
      row.categories = categoriesForAlertTypes(row.alert_types);
    }
    if (dto.severityThreshold) row.severity_threshold = dto.severityThreshold;
    if (dto.frequency) row.frequency = dto.frequency;
    if (dto.radiusMiles !== undefined) row.radius_km = milesToKm(dto.radiusMiles);
    if (dto.quietHours) {
      const q = dto.quietHours;
      if (q.timeZone !== undefined && !isTimeZone(q.timeZone))
        throw badRequest('Time zone must be an IANA time zone, e.g. America/Phoenix', 'invalid_time_zone');
      row.quiet_enabled = q.enabled ?? row.quiet_enabled;
      row.quiet_start = q.start ?? row.quiet_start;
      row.quiet_end = q.end ?? row.quiet_end;
      row.time_zone = q.timeZone ?? row.time_zone;
    }
    if (dto.weekendEnabled !== undefined) row.weekend_enabled = dto.weekendEnabled;
    if (dto.methods) {
      row.push_enabled = dto.methods.push ?? row.push_enabled;
      row.voice_enabled = dto.methods.voice ?? row.voice_enabled;
      row.email_enabled = dto.methods.email ?? row.email_enabled;
      row.sms_enabled = dto.methods.sms ?? row.sms_enabled;
    }
    if (dto.phoneNumber !== undefined) row.phone_number = dto.phoneNumber;
    if (dto.language !== undefined) row.language = dto.language;
    if (dto.home !== undefined) {
      row.lat = dto.home?.lat ?? null;
      row.lng = dto.home?.lng ?? null;
      // A new home without a name has none: the old name would call the new place by the old one's.
      row.home_name = dto.home?.name?.trim() || null;
    }
    if (row.sms_enabled && !row.phone_number) throw badRequest('Add a phone number to receive SMS alerts', 'phone_number_required');
    // an account's id that is an external contact's (random uuids: it does not happen) never takes over their row
    if (!(await this.repo.save(row))) throw conflict('These preferences cannot be saved for this account', 'conflict');
    return toPreferences(row);
  }

  /** Makes sure a user who subscribes a device is a recipient (spec defaults) even before saving preferences. */
  ensureDefaults(user: AuthUser) {
    return this.repo.ensure(defaultRow(user));
  }
}

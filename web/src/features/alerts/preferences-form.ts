import type { IntlShape } from 'react-intl';
import { DEFAULT_PREFERENCES, RADIUS_MILES, type AlertPreferences, type HomeLocation } from '@beacon/contracts';
import { alertLanguageOf, currentIntl, currentUiLanguage, defineMessages } from '@/i18n';

/**
 * The rules of the alert preferences form (spec part 1): its values, Quick Setup and the home point as typed. Pure
 * functions: the form and its sections call them, and their tests reach them through the form.
 */
export type PreferencesFormValues = Omit<AlertPreferences, 'categories' | 'radiusKm'>;

/** The `set` of the preferences form, for its sections. */
export type PreferenceSetter = <K extends keyof PreferencesFormValues>(key: K, value: PreferencesFormValues[K]) => void;

export const toForm = (p: AlertPreferences): PreferencesFormValues => ({
  alertTypes: p.alertTypes,
  severityThreshold: p.severityThreshold,
  frequency: p.frequency,
  radiusMiles: Math.round(p.radiusMiles),
  quietHours: p.quietHours,
  weekendEnabled: p.weekendEnabled,
  methods: p.methods,
  phoneNumber: p.phoneNumber,
  home: p.home ? { lat: p.home.lat, lng: p.home.lng, name: p.home.name ?? null } : null,
  // Until they choose, the language they read the app in: saved with their first save.
  language: p.language ?? alertLanguageOf(currentUiLanguage()),
});

export function browserZone() {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || DEFAULT_PREFERENCES.quietHours.timeZone;
  } catch {
    return DEFAULT_PREFERENCES.quietHours.timeZone;
  }
}

/**
 * Quick Setup: every type of alert except events, straight away, within the default 25 miles, quiet at night
 * (critical alerts still come through), push and voice on. Keeps the home location and phone number.
 */
export const QUICK_SETUP: Omit<PreferencesFormValues, 'home' | 'phoneNumber' | 'language'> = {
  alertTypes: ['emergency', 'weather', 'traffic', 'crime', 'construction'],
  severityThreshold: 'low',
  frequency: 'immediate',
  radiusMiles: RADIUS_MILES.default,
  quietHours: { ...DEFAULT_PREFERENCES.quietHours, enabled: true, timeZone: browserZone() },
  weekendEnabled: false,
  methods: { push: true, voice: true, email: false, sms: false },
};

/** The Quick Setup fields, compared without the time zone (the preset takes the browser's). */
function presetFields(f: Pick<PreferencesFormValues, keyof typeof QUICK_SETUP>) {
  const { timeZone: _zone, ...quietHours } = f.quietHours;
  void _zone;
  return JSON.stringify({ ...f, quietHours, alertTypes: [...f.alertTypes].sort() });
}

const pick = (f: PreferencesFormValues) => {
  const { alertTypes, severityThreshold, frequency, radiusMiles, quietHours, weekendEnabled, methods } = f;
  return { alertTypes, severityThreshold, frequency, radiusMiles, quietHours, weekendEnabled, methods };
};

/** Whether Quick Setup would overwrite settings the user chose: the form is neither the defaults nor the preset. */
export function quickSetupOverwrites(form: PreferencesFormValues) {
  const current = presetFields(pick(form));
  return current !== presetFields(QUICK_SETUP) && current !== presetFields(pick(toForm(DEFAULT_PREFERENCES)));
}

/** The home coordinate fields as typed: both or neither, each in range. */
export type CoordDrafts = { lat: string; lng: string };
export const coordDrafts = (home: AlertPreferences['home']): CoordDrafts => ({ lat: home ? String(home.lat) : '', lng: home ? String(home.lng) : '' });

const COORD_ERRORS = defineMessages({
  both: { id: 'alerts.preferences.coords.both', defaultMessage: 'Enter both latitude and longitude, or leave both empty.' },
  lat: { id: 'alerts.preferences.coords.lat', defaultMessage: 'Latitude must be a number from -90 to 90.' },
  lng: { id: 'alerts.preferences.coords.lng', defaultMessage: 'Longitude must be a number from -180 to 180.' },
});

/** The home point as typed, or why it cannot be saved (in the reader's language). */
export function parseHome(
  d: CoordDrafts,
  intl: IntlShape = currentIntl(),
): { home: AlertPreferences['home']; error: null } | { home?: undefined; error: string } {
  const lat = d.lat.trim();
  const lng = d.lng.trim();
  if (!lat && !lng) return { home: null, error: null };
  if (!lat || !lng) return { error: intl.formatMessage(COORD_ERRORS.both) };
  const la = Number(lat);
  const lo = Number(lng);
  if (!Number.isFinite(la) || la < -90 || la > 90) return { error: intl.formatMessage(COORD_ERRORS.lat) };
  if (!Number.isFinite(lo) || lo < -180 || lo > 180) return { error: intl.formatMessage(COORD_ERRORS.lng) };
  return { home: { lat: la, lng: lo }, error: null };
}

/** The most a home's name may hold: the alerts service's limit (update-preferences.dto.ts HOME_NAME_MAX). */
export const HOME_NAME_MAX = 200;

/** A geocoder's label as a home's name: trimmed and cut to what the service keeps; null when there is nothing left. */
export function placeName(label: string): string | null {
  return label.trim().slice(0, HOME_NAME_MAX).trim() || null;
}

/**
 * The home to save: the point as typed, with the form's place name while the point is still the named one. A point
 * typed or picked elsewhere is no longer that place, so it goes without a name.
 */
export function homeToSave(typed: HomeLocation | null, formHome: HomeLocation | null): HomeLocation | null {
  if (!typed) return null;
  const sameSpot = formHome !== null && formHome.lat === typed.lat && formHome.lng === typed.lng;
  return { lat: typed.lat, lng: typed.lng, name: (sameSpot && formHome.name) || null };
}

/** What the person's home is called: its name, or its coordinates when it has none. */
export function homeLabel(home: HomeLocation): string {
  return home.name?.trim() || `${home.lat.toFixed(4)}, ${home.lng.toFixed(4)}`;
}

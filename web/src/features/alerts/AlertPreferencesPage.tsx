import { useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import { ConfirmDialog } from '@/common/ConfirmDialog';
import { UnsavedChangesGuard } from '@/common/UnsavedChangesGuard';
import { Link } from 'react-router-dom';
import toast from 'react-hot-toast';
import {
  DEFAULT_PREFERENCES,
  FREQUENCIES,
  FREQUENCY_LABELS,
  LANGUAGE_LABELS,
  PREFERENCE_ALERT_TYPES,
  PREFERENCE_ALERT_TYPE_LABELS,
  RADIUS_MILES,
  SEVERITIES,
  SEVERITY_INFO,
  SUPPORTED_LANGUAGES,
  milesToKm,
  type AlertPreferences,
  type Frequency,
  type Language,
  type PreferenceAlertType,
  type Severity,
} from '@beacon/contracts';
import { errorMessage } from '@/app/api';
import { useAppSelector } from '@/app/hooks';
import { selectIsAdmin } from '@/features/auth/auth.slice';
import { detectLocation } from '@/common/geolocation';
import { Spinner } from '@/common/Spinner';
import { useNow } from '@/common/useNow';
import { useMyAlertsInfiniteQuery, usePreferencesQuery, useUpdatePreferencesMutation, type PreferencesUpdate } from './alerts.api';
import { browserLanguage } from './language';
import { LazyAreaMap } from './LazyAreaMap';
import { useLiveUserAlerts } from './live';
import { speakAlert } from './notifications';
import { LoadError, SeveritySelect } from './ui';
import { UserAlertList } from './UserAlertCard';
import { flattenPages, useDebounced } from './UserAlertsPage';
import { useAlertArrivals, usePushRegistration } from './useAlerting';
import './alerts.css';

type Form = Omit<AlertPreferences, 'categories' | 'radiusKm'>;

const toForm = (p: AlertPreferences): Form => ({
  alertTypes: p.alertTypes,
  severityThreshold: p.severityThreshold,
  frequency: p.frequency,
  radiusMiles: Math.round(p.radiusMiles),
  quietHours: p.quietHours,
  weekendEnabled: p.weekendEnabled,
  methods: p.methods,
  phoneNumber: p.phoneNumber,
  home: p.home,
  // Until they choose, the browser's language (when Beacon has it): saved with their first save.
  language: p.language ?? browserLanguage(),
});

/**
 * Quick Setup: every type of alert except events, straight away, within the default 25 miles, quiet at night
 * (critical alerts still come through), push and voice on. Keeps the home location and phone number.
 */
export const QUICK_SETUP: Omit<Form, 'home' | 'phoneNumber' | 'language'> = {
  alertTypes: ['emergency', 'weather', 'traffic', 'crime', 'construction'],
  severityThreshold: 'low',
  frequency: 'immediate',
  radiusMiles: RADIUS_MILES.default,
  quietHours: { ...DEFAULT_PREFERENCES.quietHours, enabled: true, timeZone: browserZone() },
  weekendEnabled: false,
  methods: { push: true, voice: true, email: false, sms: false },
};

/** The Quick Setup fields, compared without the time zone (the preset takes the browser's). */
function presetFields(f: Pick<Form, keyof typeof QUICK_SETUP>) {
  const { timeZone: _zone, ...quietHours } = f.quietHours;
  void _zone;
  return JSON.stringify({ ...f, quietHours, alertTypes: [...f.alertTypes].sort() });
}

const pick = (f: Form) => {
  const { alertTypes, severityThreshold, frequency, radiusMiles, quietHours, weekendEnabled, methods } = f;
  return { alertTypes, severityThreshold, frequency, radiusMiles, quietHours, weekendEnabled, methods };
};

/** Whether Quick Setup would overwrite settings the user chose: the form is neither the defaults nor the preset. */
export function quickSetupOverwrites(form: Form) {
  const current = presetFields(pick(form));
  return current !== presetFields(QUICK_SETUP) && current !== presetFields(pick(toForm(DEFAULT_PREFERENCES)));
}

/** The home coordinate fields as typed: both or neither, each in range. */
type CoordDrafts = { lat: string; lng: string };
const coordDrafts = (home: AlertPreferences['home']): CoordDrafts => ({ lat: home ? String(home.lat) : '', lng: home ? String(home.lng) : '' });

export function parseHome(d: CoordDrafts): { home: AlertPreferences['home']; error: null } | { home?: undefined; error: string } {
  const lat = d.lat.trim();
  const lng = d.lng.trim();
  if (!lat && !lng) return { home: null, error: null };
  if (!lat || !lng) return { error: 'Enter both latitude and longitude, or leave both empty.' };
  const la = Number(lat);
  const lo = Number(lng);
  if (!Number.isFinite(la) || la < -90 || la > 90) return { error: 'Latitude must be a number from -90 to 90.' };
  if (!Number.isFinite(lo) || lo < -180 || lo > 180) return { error: 'Longitude must be a number from -180 to 180.' };
  return { home: { lat: la, lng: lo }, error: null };
}

function browserZone() {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || DEFAULT_PREFERENCES.quietHours.timeZone;
  } catch {
    return DEFAULT_PREFERENCES.quietHours.timeZone;
  }
}

/** /dashboard/alerts, "Alert Management": the preferences of part 1, saved on the server, and my recent alerts. */
export function AlertPreferencesPage() {
  const { data, isLoading, isError, refetch } = usePreferencesQuery();
  const arrivals = useAlertArrivals();
  useLiveUserAlerts(arrivals);
  return (
    <section className="page" aria-labelledby="alert-management-title">
      {isLoading ? (
        <Spinner label="Loading your preferences" />
      ) : isError || !data ? (
        <>
          <h1 id="alert-management-title">Alert Management</h1>
          <LoadError message="Your preferences could not be loaded." onRetry={refetch} />
        </>
      ) : (
        <PreferencesForm saved={data} />
      )}
      <RecentAlerts />
    </section>
  );
}

function PreferencesForm({ saved }: { saved: AlertPreferences }) {
  const id = useId();
  const isAdmin = useAppSelector(selectIsAdmin);
  const [form, setForm] = useState<Form>(() => toForm(saved));
  const [save, { isLoading: saving }] = useUpdatePreferencesMutation();
  const [error, setError] = useState<string | null>(null);
  const push = usePushRegistration();
  // The coordinate fields keep what is typed: a half-entered point is never turned into a point at 0.
  const [coords, setCoords] = useState<CoordDrafts>(() => coordDrafts(saved.home));
  const [showCoordError, setShowCoordError] = useState(false);
  useEffect(() => {
    setForm(toForm(saved));
    setCoords(coordDrafts(saved.home));
  }, [saved]);
  // "Choose on the map" (location onboarding) links here: bring the Home Location card into view
  useEffect(() => {
    if (window.location.hash === '#home-location') document.getElementById('home-location')?.scrollIntoView?.({ block: 'start' });
  }, []);
  const parsedHome = parseHome(coords);
  const coordError = parsedHome.error;
  const dirty = JSON.stringify(form) !== JSON.stringify(toForm(saved)) || coordError !== null;

  const set = <K extends keyof Form>(key: K, value: Form[K]) => setForm((f) => ({ ...f, [key]: value }));
  const setHome = (home: Form['home']) => {
    set('home', home);
    setCoords(coordDrafts(home));
    setShowCoordError(false);
  };
  const typeCoord = (which: keyof CoordDrafts, value: string) => {
    const next = { ...coords, [which]: value };
    setCoords(next);
    const parsed = parseHome(next);
    if (parsed.error === null) set('home', parsed.home);
  };
  /** The form to save, or null (with the message shown) while the home point is half entered or out of range. */
  const complete = (f: Form): Form | null => {
    if (coordError !== null) {
      setShowCoordError(true);
      return null;
    }
    return { ...f, home: parsedHome.home ?? null };
  };
  const toggleType = (t: PreferenceAlertType, on: boolean) =>
    set('alertTypes', on ? PREFERENCE_ALERT_TYPES.filter((x) => x === t || form.alertTypes.includes(x)) : form.alertTypes.filter((x) => x !== t));
  const setMethod = (m: keyof Form['methods'], on: boolean) => {
    set('methods', { ...form.methods, [m]: on });
    // Turning push on in a browser that has not allowed notifications yet: ask now (this is a click).
    if (m === 'push' && on && push.state === 'default') void push.enable();
  };

  async function persist(next: Form, success: string) {
    setError(null);
    const body: PreferencesUpdate = {
      alertTypes: next.alertTypes,
      severityThreshold: next.severityThreshold,
      frequency: next.frequency,
      radiusMiles: next.radiusMiles,
      quietHours: { ...next.quietHours, timeZone: next.quietHours.timeZone || browserZone() },
      weekendEnabled: next.weekendEnabled,
      methods: next.methods,
      phoneNumber: next.phoneNumber?.trim() ? next.phoneNumber.trim() : null,
      home: next.home,
      language: next.language,
    };
    try {
      await save(body).unwrap();
      toast.success(success);
    } catch (err) {
      const message = errorMessage(err, 'Your preferences could not be saved');
      setError(message);
      toast.error(message);
    }
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    const next = complete(form);
    if (next) void persist(next, 'Preferences saved');
  }

  const [confirmQuickSetup, setConfirmQuickSetup] = useState(false);
  function applyQuickSetup() {
    setConfirmQuickSetup(false);
    const next = complete({ ...form, ...QUICK_SETUP });
    if (!next) return;
    setForm(next);
    void persist(next, 'Quick Setup applied');
  }
  /** Settings of the user's own would be overwritten: ask first. The defaults or the preset itself: apply at once. */
  function quickSetup() {
    if (quickSetupOverwrites(form)) setConfirmQuickSetup(true);
    else applyQuickSetup();
  }

  const radiusKm = milesToKm(form.radiusMiles);

  return (
    <form onSubmit={submit} noValidate aria-labelledby="alert-management-title" className="preferences-form">
      <UnsavedChangesGuard when={dirty && !saving} what="your alert preferences" />
      {confirmQuickSetup && (
        <ConfirmDialog
          title="Replace your settings with Quick Setup?"
          message="Quick Setup replaces your alert types, severity, frequency, radius, quiet hours, weekend setting and delivery methods with the recommended set, and saves at once. Your home location and phone number stay."
          cancelLabel="Keep my settings"
          confirmLabel="Replace my settings"
          onCancel={() => setConfirmQuickSetup(false)}
          onConfirm={applyQuickSetup}
        />
      )}
      <header className="page-header">
        <div>
          <h1 id="alert-management-title">Alert Management</h1>
          <p className="muted">Choose which alerts reach you, where, when and how.</p>
        </div>
        <div className="row">
          {isAdmin && (
            <Link to="/admin/create-alert" className="btn btn-outline">
              New Alert
            </Link>
          )}
          <button type="button" className="btn btn-outline" onClick={quickSetup} disabled={saving}>
            Quick Setup
          </button>
          <button type="submit" className="btn btn-primary" disabled={!dirty || saving}>
            {saving ? 'Saving...' : 'Save Preferences'}
          </button>
        </div>
      </header>
      <p className="saving-state" role="status">
        {saving ? 'Saving...' : dirty ? 'You have unsaved changes.' : 'All changes saved.'}
      </p>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}

      <div className="grid-2">
        <fieldset className="card">
          <legend className="h3">Alert Types</legend>
          {PREFERENCE_ALERT_TYPES.map((t) => (
            <div className="toggle-row" key={t}>
              <label htmlFor={`${id}-type-${t}`}>{PREFERENCE_ALERT_TYPE_LABELS[t]} alerts</label>
              <input
                id={`${id}-type-${t}`}
                type="checkbox"
                role="switch"
                checked={form.alertTypes.includes(t)}
                onChange={(e) => toggleType(t, e.target.checked)}
              />
            </div>
          ))}
          {form.alertTypes.length === 0 && <p className="small field-error">With no alert type on, you will not receive alerts.</p>}
        </fieldset>

        <div className="card">
          <h2 className="h3">Delivery</h2>
          <div className="field">
            <label htmlFor={`${id}-frequency`}>Frequency</label>
            <select
              id={`${id}-frequency`}
              value={form.frequency}
              onChange={(e) => set('frequency', e.target.value as Frequency)}
              aria-describedby={`${id}-frequency-help`}
            >
              {FREQUENCIES.map((f) => (
                <option key={f} value={f}>
                  {FREQUENCY_LABELS[f]}
                </option>
              ))}
            </select>
            <p id={`${id}-frequency-help`} className="small muted">
              Critical alerts always arrive immediately.{form.frequency !== 'immediate' && ' The others come together in one message per channel.'}
            </p>
          </div>
          <div className="field">
            <label htmlFor={`${id}-language`}>Language</label>
            <select
              id={`${id}-language`}
              value={form.language ?? 'en'}
              onChange={(e) => set('language', e.target.value as Language)}
              aria-describedby={`${id}-language-help`}
            >
              {SUPPORTED_LANGUAGES.map((l) => (
                <option key={l} value={l}>
                  {LANGUAGE_LABELS[l]}
                </option>
              ))}
            </select>
            <p id={`${id}-language-help`} className="small muted">
              Alerts reach you in this language by push, SMS and e-mail, and in English when an alert has no text in it.
            </p>
          </div>
          <div className="field">
            <label htmlFor={`${id}-threshold`}>Minimum severity</label>
            <select id={`${id}-threshold`} value={form.severityThreshold} onChange={(e) => set('severityThreshold', e.target.value as Severity)}>
              {SEVERITIES.map((s) => (
                <option key={s} value={s}>
                  {SEVERITY_INFO[s].label} and above
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor={`${id}-radius`}>Alert radius: {form.radiusMiles} miles</label>
            <input
              id={`${id}-radius`}
              type="range"
              min={RADIUS_MILES.min}
              max={RADIUS_MILES.max}
              step={1}
              value={form.radiusMiles}
              onChange={(e) => set('radiusMiles', Number(e.target.value))}
              aria-valuetext={`${form.radiusMiles} miles`}
            />
            <div className="row-between small muted">
              <span>{RADIUS_MILES.min} mi</span>
              <span>{RADIUS_MILES.max} mi</span>
            </div>
          </div>
          <div className="toggle-row">
            <label htmlFor={`${id}-quiet`}>Quiet hours</label>
            <input
              id={`${id}-quiet`}
              type="checkbox"
              role="switch"
              checked={form.quietHours.enabled}
              onChange={(e) => set('quietHours', { ...form.quietHours, enabled: e.target.checked })}
            />
          </div>
          {form.quietHours.enabled && (
            <div className="grid-2">
              <div className="field">
                <label htmlFor={`${id}-quiet-start`}>Quiet from</label>
                <input
                  id={`${id}-quiet-start`}
                  type="time"
                  value={form.quietHours.start}
                  onChange={(e) => set('quietHours', { ...form.quietHours, start: e.target.value })}
                />
              </div>
              <div className="field">
                <label htmlFor={`${id}-quiet-end`}>Quiet until</label>
                <input
                  id={`${id}-quiet-end`}
                  type="time"
                  value={form.quietHours.end}
                  onChange={(e) => set('quietHours', { ...form.quietHours, end: e.target.value })}
                />
              </div>
              <p className="small muted" style={{ gridColumn: '1 / -1', margin: 0 }}>
                Held until quiet hours end, then sent together; critical alerts still come through.
              </p>
            </div>
          )}
          <div className="toggle-row">
            <label htmlFor={`${id}-weekend`}>Weekend settings</label>
            <input
              id={`${id}-weekend`}
              type="checkbox"
              role="switch"
              checked={form.weekendEnabled}
              onChange={(e) => set('weekendEnabled', e.target.checked)}
              aria-describedby={`${id}-weekend-help`}
            />
          </div>
          <p id={`${id}-weekend-help`} className="small muted" style={{ marginTop: 0 }}>
            Quiet weekends: on Saturdays and Sundays, alerts below critical wait until Monday {form.quietHours.end}.
          </p>
        </div>

        <fieldset className="card">
          <legend className="h3">Notification Methods</legend>
          <div className="toggle-row">
            <label htmlFor={`${id}-push`}>Push notifications</label>
            <input id={`${id}-push`} type="checkbox" role="switch" checked={form.methods.push} onChange={(e) => setMethod('push', e.target.checked)} />
          </div>
          {form.methods.push && push.state === 'denied' && (
            <p className="small field-error">Notifications are blocked in this browser; allow them in its site settings.</p>
          )}
          {form.methods.push && push.state === 'unsupported' && <p className="small muted">This browser cannot receive push notifications.</p>}
          <div className="toggle-row">
            <label htmlFor={`${id}-voice`}>Voice alerts</label>
            <div className="row">
              {form.methods.voice && (
                <button
                  type="button"
                  className="btn btn-ghost btn-sm"
                  onClick={() =>
                    speakAlert({
                      title: 'This is how Beacon reads alerts',
                      message: 'Voice alerts are on.',
                      severity: 'low',
                      category: 'public_safety',
                      locationName: null,
                    })
                  }
                >
                  Test voice
                </button>
              )}
              <input id={`${id}-voice`} type="checkbox" role="switch" checked={form.methods.voice} onChange={(e) => setMethod('voice', e.target.checked)} />
            </div>
          </div>
          <div className="toggle-row">
            <label htmlFor={`${id}-email`}>Email digest</label>
            <input id={`${id}-email`} type="checkbox" role="switch" checked={form.methods.email} onChange={(e) => setMethod('email', e.target.checked)} />
          </div>
          <div className="toggle-row">
            <label htmlFor={`${id}-sms`}>SMS</label>
            <input id={`${id}-sms`} type="checkbox" role="switch" checked={form.methods.sms} onChange={(e) => setMethod('sms', e.target.checked)} />
          </div>
          {(form.methods.sms || form.phoneNumber) && (
            <div className="field">
              <label htmlFor={`${id}-phone`}>Phone number</label>
              <input
                id={`${id}-phone`}
                type="tel"
                autoComplete="tel"
                value={form.phoneNumber ?? ''}
                onChange={(e) => set('phoneNumber', e.target.value)}
                placeholder="+16025551234"
              />
            </div>
          )}
        </fieldset>

        <div className="card" id="home-location">
          <h2 className="h3">Home Location</h2>
          <p className="small muted" id={`${id}-home-help`}>
            {form.home
              ? `Alerts within ${form.radiusMiles} miles of this point reach you.`
              : 'Until you set a home location, your alert list shows only alerts for everyone: critical alerts and alerts without an area. Click the map to set it.'}
          </p>
          <LazyAreaMap
            center={form.home}
            radiusKm={radiusKm}
            onPick={(lat, lng) => setHome({ lat, lng })}
            label="Home location map: click to set your home, the circle is your alert radius"
            height={260}
          />
          <div className="grid-2 coords">
            <div className="field">
              <label htmlFor={`${id}-lat`}>Home latitude</label>
              <input
                id={`${id}-lat`}
                type="number"
                step="any"
                min={-90}
                max={90}
                value={coords.lat}
                onChange={(e) => typeCoord('lat', e.target.value)}
                aria-invalid={showCoordError && coordError !== null}
                aria-describedby={`${id}-home-help${showCoordError && coordError ? ` ${id}-home-error` : ''}`}
              />
            </div>
            <div className="field">
              <label htmlFor={`${id}-lng`}>Home longitude</label>
              <input
                id={`${id}-lng`}
                type="number"
                step="any"
                min={-180}
                max={180}
                value={coords.lng}
                onChange={(e) => typeCoord('lng', e.target.value)}
                aria-invalid={showCoordError && coordError !== null}
                aria-describedby={`${id}-home-help${showCoordError && coordError ? ` ${id}-home-error` : ''}`}
              />
            </div>
          </div>
          {showCoordError && coordError && (
            <p id={`${id}-home-error`} className="field-error" role="alert">
              {coordError}
            </p>
          )}
          <div className="row">
            <button
              type="button"
              className="btn btn-outline btn-sm"
              onClick={async () => {
                const p = await detectLocation();
                if (p) setHome(p);
              }}
            >
              Use my location
            </button>
            {(form.home || coords.lat || coords.lng) && (
              <button type="button" className="btn btn-ghost btn-sm" onClick={() => setHome(null)}>
                Clear home location
              </button>
            )}
          </div>
        </div>
      </div>
      {/* on a long page (a phone: 3,000 px) Save is always within reach while there is something to save */}
      <div className="save-bar" hidden={!dirty}>
        <span aria-hidden="true">Unsaved changes</span>
        <button type="submit" className="btn btn-primary" disabled={saving}>
          {saving ? 'Saving...' : 'Save changes'}
        </button>
      </div>
    </form>
  );
}

const RECENT_PAGE_SIZE = 5;

/** Recent Alerts: search, severity filter, read/unread highlight, Load More. */
function RecentAlerts() {
  const id = useId();
  const now = useNow();
  const [showFilter, setShowFilter] = useState(false);
  const [searchText, setSearchText] = useState('');
  const [severity, setSeverity] = useState<Severity | ''>('');
  const search = useDebounced(searchText.trim());
  const query = useMyAlertsInfiniteQuery({ search, severity, pageSize: RECENT_PAGE_SIZE });
  const alerts = useMemo(() => flattenPages(query.data?.pages), [query.data]);

  return (
    <section className="card" aria-labelledby={`${id}-title`} style={{ marginTop: '1rem' }}>
      <div className="row-between">
        <h2 id={`${id}-title`}>Recent Alerts</h2>
        <div className="row">
          <label className="visually-hidden" htmlFor={`${id}-search`}>
            Search recent alerts
          </label>
          <input id={`${id}-search`} type="search" value={searchText} onChange={(e) => setSearchText(e.target.value)} placeholder="Search alerts" />
          <button type="button" className="btn btn-outline" onClick={() => setShowFilter((v) => !v)} aria-expanded={showFilter} aria-controls={`${id}-filter`}>
            Filter{severity ? ' (1)' : ''}
          </button>
        </div>
      </div>
      {showFilter && (
        <div id={`${id}-filter`} className="field" style={{ maxWidth: 260 }}>
          <SeveritySelect id={`${id}-severity`} value={severity} onChange={setSeverity} />
        </div>
      )}
      {query.isLoading ? (
        <Spinner label="Loading recent alerts" />
      ) : query.isError ? (
        <p role="alert">Failed to load alerts</p>
      ) : alerts.length === 0 ? (
        <p className="empty-state">{search || severity ? 'No alerts match your search.' : 'No alerts have reached you yet.'}</p>
      ) : (
        <UserAlertList alerts={alerts} now={now} label="Recent alerts" moreLabel="Load More Alerts" more={query} />
      )}
    </section>
  );
}

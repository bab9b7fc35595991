import { useState } from 'react';
import {
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
  type Frequency,
  type HomeLocation,
  type Language,
  type Severity,
} from '@beacon/contracts';
import { AreaPickerShell } from '@/common/form/AreaPickerShell';
import { toggleInOrder } from '@/common/form/ChoiceGroups';
import { Field, SwitchRow } from '@/common/form/Field';
import { TimeRange } from '@/common/form/TimeRange';
import type { Position } from '@/common/geolocation';
import { errorMessage, type ApiError } from '@/app/api';
import { useLazySearchPlacesQuery } from './alerts.api';
import { LazyAreaMap } from './LazyAreaMap';
import { usePlaceName } from './LocationOnboarding';
import { speakAlert } from './notifications';
import './places.css';
import { placeName, type CoordDrafts, type PreferenceSetter, type PreferencesFormValues } from './preferences-form';
import type { usePushRegistration } from './useAlerting';

/** The sections of the alert preferences form; `id` is the form's, so every control keeps its id. */
interface SectionProps {
  id: string;
  form: PreferencesFormValues;
  set: PreferenceSetter;
}

export function AlertTypesSection({ id, form, set }: SectionProps) {
  return (
    <fieldset className="card">
      <legend className="h3">Alert Types</legend>
      {PREFERENCE_ALERT_TYPES.map((t) => (
        <SwitchRow
          key={t}
          id={`${id}-type-${t}`}
          label={`${PREFERENCE_ALERT_TYPE_LABELS[t]} alerts`}
          checked={form.alertTypes.includes(t)}
          onChange={(on) => set('alertTypes', toggleInOrder(PREFERENCE_ALERT_TYPES, form.alertTypes, t, on))}
        />
      ))}
      {form.alertTypes.length === 0 && <p className="small field-error">With no alert type on, you will not receive alerts.</p>}
    </fieldset>
  );
}

/** Frequency, language, severity and radius, then when alerts wait: quiet hours and quiet weekends. */
export function DeliverySection({ id, form, set }: SectionProps) {
  return (
    <div className="card">
      <h2 className="h3">Delivery</h2>
      <Field id={`${id}-frequency`} label="Frequency">
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
      </Field>
      <Field id={`${id}-language`} label="Language">
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
      </Field>
      <Field id={`${id}-threshold`} label="Minimum severity">
        <select id={`${id}-threshold`} value={form.severityThreshold} onChange={(e) => set('severityThreshold', e.target.value as Severity)}>
          {SEVERITIES.map((s) => (
            <option key={s} value={s}>
              {SEVERITY_INFO[s].label} and above
            </option>
          ))}
        </select>
      </Field>
      <Field id={`${id}-radius`} label={<>Alert radius: {form.radiusMiles} miles</>}>
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
      </Field>
      <QuietTimes id={id} form={form} set={set} />
    </div>
  );
}

function QuietTimes({ id, form, set }: SectionProps) {
  return (
    <>
      <SwitchRow
        id={`${id}-quiet`}
        label="Quiet hours"
        checked={form.quietHours.enabled}
        onChange={(enabled) => set('quietHours', { ...form.quietHours, enabled })}
      />
      {form.quietHours.enabled && (
        <TimeRange
          id={`${id}-quiet`}
          startLabel="Quiet from"
          endLabel="Quiet until"
          start={form.quietHours.start}
          end={form.quietHours.end}
          onChange={(range) => set('quietHours', { ...form.quietHours, ...range })}
        >
          <p className="small muted" style={{ gridColumn: '1 / -1', margin: 0 }}>
            Held until quiet hours end, then sent together; critical alerts still come through.
          </p>
        </TimeRange>
      )}
      <SwitchRow
        id={`${id}-weekend`}
        label="Weekend settings"
        checked={form.weekendEnabled}
        onChange={(on) => set('weekendEnabled', on)}
        describedBy={`${id}-weekend-help`}
      />
      <p id={`${id}-weekend-help`} className="small muted" style={{ marginTop: 0 }}>
        Quiet weekends: on Saturdays and Sundays, alerts below critical wait until Monday {form.quietHours.end}.
      </p>
    </>
  );
}

interface MethodsProps extends SectionProps {
  push: ReturnType<typeof usePushRegistration>;
}

const speakSample = () =>
  speakAlert({ title: 'This is how Beacon reads alerts', message: 'Voice alerts are on.', severity: 'low', category: 'public_safety', locationName: null });

export function NotificationMethodsSection({ id, form, set, push }: MethodsProps) {
  const callNeedsNumber = form.methods.voice && !form.phoneNumber?.trim();
  const method = (m: keyof PreferencesFormValues['methods']) => ({
    id: `${id}-${m}`,
    checked: form.methods[m],
    onChange: (on: boolean) => {
      set('methods', { ...form.methods, [m]: on });
      // Turning push on in a browser that has not allowed notifications yet: ask now (this is a click).
      if (m === 'push' && on && push.state === 'default') void push.enable();
    },
  });
  return (
    <fieldset className="card">
      <legend className="h3">Notification Methods</legend>
      <SwitchRow label="Push notifications" {...method('push')} />
      {form.methods.push && push.state === 'denied' && (
        <p className="small field-error">Notifications are blocked in this browser; allow them in its site settings.</p>
      )}
      {form.methods.push && push.state === 'unsupported' && <p className="small muted">This browser cannot receive push notifications.</p>}
      <SwitchRow
        label="Voice alerts"
        {...method('voice')}
        describedBy={`${id}-voice-hint`}
        accessory={
          form.methods.voice && (
            <button type="button" className="btn btn-ghost btn-sm" onClick={speakSample}>
              Test voice
            </button>
          )
        }
      />
      {/* issue #39: the same method also brings a phone call, to the number SMS uses, for alerts sent by phone */}
      <p id={`${id}-voice-hint`} className="small muted method-hint">
        Also calls your phone number for alerts sent by phone.
      </p>
      <SwitchRow label="Email digest" {...method('email')} />
      <SwitchRow label="SMS" {...method('sms')} />
      {(form.methods.sms || form.methods.voice || form.phoneNumber) && (
        <Field id={`${id}-phone`} label="Phone number">
          <input
            id={`${id}-phone`}
            type="tel"
            autoComplete="tel"
            value={form.phoneNumber ?? ''}
            onChange={(e) => set('phoneNumber', e.target.value)}
            placeholder="+16025551234"
            aria-describedby={callNeedsNumber ? `${id}-phone-needed` : undefined}
          />
          {/* a reminder, not a rule: saving still works, the calls simply wait for a number */}
          {callNeedsNumber && (
            <p id={`${id}-phone-needed`} className="small muted">
              Add a phone number to be called.
            </p>
          )}
        </Field>
      )}
    </fieldset>
  );
}

interface HomeProps {
  id: string;
  form: PreferencesFormValues;
  coords: CoordDrafts;
  /** The message under the coordinates, once the user tried to save them half entered or out of range. */
  coordError: string | null;
  typeCoord: (which: keyof CoordDrafts, value: string) => void;
  setHome: (home: HomeLocation | null) => void;
  /** Names the home once the geocoder has named the device's point, if the home is still that point. */
  nameSpot: (spot: Position, name: string) => void;
}

export function HomeLocationSection({ id, form, coords, coordError, typeCoord, setHome, nameSpot }: HomeProps) {
  const nameOf = usePlaceName();
  const place = form.home?.name;
  return (
    <div className="card" id="home-location">
      <h2 className="h3">Home Location</h2>
      <p className="small muted" id={`${id}-home-help`}>
        {form.home
          ? `Alerts within ${form.radiusMiles} miles of ${place ? 'your home' : 'this point'} reach you.`
          : 'Until you set a home location, your alert list shows only alerts for everyone: critical alerts and alerts without an area. Find it by address or place name, or click the map.'}
      </p>
      {place && (
        <p className="home-place">
          <strong>Home:</strong> {place}
        </p>
      )}
      <PlaceSearch id={`${id}-place`} onChoose={setHome} />
      <AreaPickerShell
        id={id}
        map={
          <LazyAreaMap
            center={form.home}
            radiusKm={milesToKm(form.radiusMiles)}
            onPick={(lat, lng) => setHome({ lat, lng })}
            label="Home location map: click to set your home, the circle is your alert radius"
            height={260}
          />
        }
        labels={{ lat: 'Home latitude', lng: 'Home longitude' }}
        values={coords}
        onType={typeCoord}
        invalid={coordError !== null}
        describedBy={`${id}-home-help${coordError ? ` ${id}-home-error` : ''}`}
        onLocate={(spot) => {
          setHome(spot);
          void nameOf(spot).then((name) => name && nameSpot(spot, name));
        }}
        clear={form.home || coords.lat || coords.lng ? { label: 'Clear home location', onClear: () => setHome(null) } : null}
      >
        {coordError && (
          <p id={`${id}-home-error`} className="field-error" role="alert">
            {coordError}
          </p>
        )}
      </AreaPickerShell>
    </div>
  );
}

const PLACE_SEARCH_TEXT = {
  label: 'Find your home by address or place name',
  placeholder: 'e.g. 200 W Washington St, Phoenix',
  search: 'Search',
  searching: 'Searching...',
  tooShort: 'Type an address or place to search for.',
  found: (n: number) => `${n} place${n === 1 ? '' : 's'} found: choose yours.`,
  none: (q: string) => `No place found for "${q}". Try a street and town, or just the town.`,
  results: 'Places found',
  unavailable: 'Place search is not available right now. Click the map or use your location instead.',
} as const;

/** Why a search found nothing to choose: the service's own message for a limit, a plain one when it cannot search. */
function searchFailure(error: unknown): string {
  const code = (error as Partial<ApiError> | undefined)?.code;
  if (code === 'geocoder_not_configured' || code === 'geocoder_unavailable' || code === 'network_error') return PLACE_SEARCH_TEXT.unavailable;
  return errorMessage(error, PLACE_SEARCH_TEXT.unavailable);
}

/**
 * The home found by address or place name (issue #40), through the alerts service's geocoder (cached and rate-limited
 * there). Inside the preferences form, so Enter searches instead of saving the form.
 */
function PlaceSearch({ id, onChoose }: { id: string; onChoose: (home: HomeLocation) => void }) {
  const [text, setText] = useState('');
  const [note, setNote] = useState<string | null>(null);
  const [search, result] = useLazySearchPlacesQuery();
  const [places, setPlaces] = useState<{ label: string; lat: number; lng: number }[]>([]);

  async function run() {
    const q = text.trim();
    setPlaces([]);
    if (q.length < 2) {
      setNote(PLACE_SEARCH_TEXT.tooShort);
      return;
    }
    setNote(PLACE_SEARCH_TEXT.searching);
    try {
      const found = await search(q).unwrap();
      setPlaces(found);
      setNote(found.length ? PLACE_SEARCH_TEXT.found(found.length) : PLACE_SEARCH_TEXT.none(q));
    } catch (err) {
      setNote(searchFailure(err));
    }
  }

  return (
    <div className="place-search">
      <label htmlFor={id}>{PLACE_SEARCH_TEXT.label}</label>
      <div className="row">
        <input
          id={id}
          type="search"
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key !== 'Enter') return;
            e.preventDefault();
            void run();
          }}
          placeholder={PLACE_SEARCH_TEXT.placeholder}
          autoComplete="street-address"
          aria-describedby={`${id}-note`}
        />
        <button type="button" className="btn btn-outline btn-sm" onClick={() => void run()} disabled={result.isFetching}>
          {result.isFetching ? PLACE_SEARCH_TEXT.searching : PLACE_SEARCH_TEXT.search}
        </button>
      </div>
      <p id={`${id}-note`} className="small muted" role="status">
        {note}
      </p>
      {places.length > 0 && (
        <ul className="place-results" aria-label={PLACE_SEARCH_TEXT.results}>
          {places.map((p) => (
            <li key={`${p.lat},${p.lng},${p.label}`}>
              <button
                type="button"
                className="btn btn-ghost btn-sm"
                onClick={() => {
                  onChoose({ lat: p.lat, lng: p.lng, name: placeName(p.label) });
                  setPlaces([]);
                  setNote(null);
                }}
              >
                {p.label}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

import { useEffect, useState } from 'react';
import { createIntl, FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import {
  FREQUENCIES,
  PREFERENCE_ALERT_TYPES,
  RADIUS_MILES,
  SEVERITIES,
  SUPPORTED_LANGUAGES,
  milesToKm,
  type Frequency,
  type HomeLocation,
  type Language,
  type PreferenceAlertType,
  type Severity,
} from '@beacon/contracts';
import { AreaPickerShell } from '@/common/form/AreaPickerShell';
import { toggleInOrder } from '@/common/form/ChoiceGroups';
import { Field, SwitchRow } from '@/common/form/Field';
import { TimeRange } from '@/common/form/TimeRange';
import type { Position } from '@/common/geolocation';
import { errorMessage, type ApiError } from '@/app/api';
import { defineMessages, intlLocaleFor, LANGUAGE_ENDONYMS, loadCatalogue } from '@/i18n';
import { useLazySearchPlacesQuery } from './alerts.api';
import { severityName } from './labels';
import { LazyAreaMap } from './LazyAreaMap';
import { usePlaceName } from './LocationOnboarding';
import { speakAlert } from './notifications';
import './places.css';
import { placeName, type CoordDrafts, type PreferenceSetter, type PreferencesFormValues } from './preferences-form';
import type { usePushRegistration } from './useAlerting';

const ALERT_TYPE_NAMES = defineMessages({
  emergency: { id: 'alerts.preferences.type.emergency', defaultMessage: 'Emergency alerts' },
  weather: { id: 'alerts.preferences.type.weather', defaultMessage: 'Weather alerts' },
  traffic: { id: 'alerts.preferences.type.traffic', defaultMessage: 'Traffic alerts' },
  crime: { id: 'alerts.preferences.type.crime', defaultMessage: 'Crime alerts' },
  construction: { id: 'alerts.preferences.type.construction', defaultMessage: 'Construction alerts' },
  events: { id: 'alerts.preferences.type.events', defaultMessage: 'Events alerts' },
});

const FREQUENCY_NAMES = defineMessages({
  immediate: { id: 'alerts.preferences.frequency.immediate', defaultMessage: 'Immediate' },
  hourly: { id: 'alerts.preferences.frequency.hourly', defaultMessage: 'Hourly digest' },
  daily: { id: 'alerts.preferences.frequency.daily', defaultMessage: 'Daily summary' },
  weekly: { id: 'alerts.preferences.frequency.weekly', defaultMessage: 'Weekly report' },
});

const DELIVERY_WORDS = defineMessages({
  title: { id: 'alerts.preferences.delivery.title', defaultMessage: 'Delivery' },
  frequency: { id: 'alerts.preferences.delivery.frequency', defaultMessage: 'Frequency' },
  immediateHelp: { id: 'alerts.preferences.delivery.immediateHelp', defaultMessage: 'Critical alerts always arrive immediately.' },
  digestHelp: {
    id: 'alerts.preferences.delivery.digestHelp',
    defaultMessage: 'Critical alerts always arrive immediately. The others come together in one message per channel.',
  },
  language: { id: 'alerts.preferences.delivery.language', defaultMessage: 'Language' },
  languageHelp: {
    id: 'alerts.preferences.delivery.languageHelp',
    defaultMessage:
      'Beacon is shown in this language once you save. Alerts reach you in it by push, SMS and e-mail, and in English when an alert has no text in it.',
  },
  threshold: { id: 'alerts.preferences.delivery.threshold', defaultMessage: 'Minimum severity' },
  andAbove: { id: 'alerts.preferences.delivery.andAbove', defaultMessage: '{severity} and above' },
  radius: { id: 'alerts.preferences.delivery.radius', defaultMessage: 'Alert radius: {miles, plural, one {# mile} other {# miles}}' },
  radiusValue: { id: 'alerts.preferences.delivery.radiusValue', defaultMessage: '{miles, plural, one {# mile} other {# miles}}' },
});

const QUIET_WORDS = defineMessages({
  quietHours: { id: 'alerts.preferences.quiet.hours', defaultMessage: 'Quiet hours' },
  from: { id: 'alerts.preferences.quiet.from', defaultMessage: 'Quiet from' },
  until: { id: 'alerts.preferences.quiet.until', defaultMessage: 'Quiet until' },
  held: { id: 'alerts.preferences.quiet.held', defaultMessage: 'Held until quiet hours end, then sent together; critical alerts still come through.' },
  weekend: { id: 'alerts.preferences.quiet.weekend', defaultMessage: 'Weekend settings' },
  weekendHelp: {
    id: 'alerts.preferences.quiet.weekendHelp',
    defaultMessage: 'Quiet weekends: on Saturdays and Sundays, alerts below critical wait until Monday {time}.',
  },
});

/** The sections of the alert preferences form; `id` is the form's, so every control keeps its id. */
interface SectionProps {
  id: string;
  form: PreferencesFormValues;
  set: PreferenceSetter;
}

const alertTypeName = (t: PreferenceAlertType, intl: IntlShape) => (ALERT_TYPE_NAMES[t] ? intl.formatMessage(ALERT_TYPE_NAMES[t]) : t);

export function AlertTypesSection({ id, form, set }: SectionProps) {
  const intl = useIntl();
  return (
    <fieldset className="card">
      <legend className="h3">
        <FormattedMessage id="alerts.preferences.types.title" defaultMessage="Alert Types" />
      </legend>
      {PREFERENCE_ALERT_TYPES.map((t) => (
        <SwitchRow
          key={t}
          id={`${id}-type-${t}`}
          label={alertTypeName(t, intl)}
          checked={form.alertTypes.includes(t)}
          onChange={(on) => set('alertTypes', toggleInOrder(PREFERENCE_ALERT_TYPES, form.alertTypes, t, on))}
        />
      ))}
      {form.alertTypes.length === 0 && (
        <p className="small field-error">
          <FormattedMessage id="alerts.preferences.types.none" defaultMessage="With no alert type on, you will not receive alerts." />
        </p>
      )}
    </fieldset>
  );
}

/** Frequency, language, severity and radius, then when alerts wait: quiet hours and quiet weekends. */
export function DeliverySection({ id, form, set }: SectionProps) {
  const intl = useIntl();
  const t = intl.formatMessage;
  return (
    <div className="card">
      <h2 className="h3">{t(DELIVERY_WORDS.title)}</h2>
      <Field id={`${id}-frequency`} label={t(DELIVERY_WORDS.frequency)}>
        <select
          id={`${id}-frequency`}
          value={form.frequency}
          onChange={(e) => set('frequency', e.target.value as Frequency)}
          aria-describedby={`${id}-frequency-help`}
        >
          {FREQUENCIES.map((f) => (
            <option key={f} value={f}>
              {t(FREQUENCY_NAMES[f])}
            </option>
          ))}
        </select>
        <p id={`${id}-frequency-help`} className="small muted">
          {t(form.frequency === 'immediate' ? DELIVERY_WORDS.immediateHelp : DELIVERY_WORDS.digestHelp)}
        </p>
      </Field>
      {/* the app's language and the alerts' are one choice (issue #41): saving a new one switches the app */}
      <Field id={`${id}-language`} label={t(DELIVERY_WORDS.language)}>
        <select
          id={`${id}-language`}
          value={form.language ?? 'en'}
          onChange={(e) => set('language', e.target.value as Language)}
          aria-describedby={`${id}-language-help`}
        >
          {SUPPORTED_LANGUAGES.map((l) => (
            <option key={l} value={l} lang={l}>
              {LANGUAGE_ENDONYMS[l]}
            </option>
          ))}
        </select>
        <p id={`${id}-language-help`} className="small muted">
          {t(DELIVERY_WORDS.languageHelp)}
        </p>
      </Field>
      <Field id={`${id}-threshold`} label={t(DELIVERY_WORDS.threshold)}>
        <select id={`${id}-threshold`} value={form.severityThreshold} onChange={(e) => set('severityThreshold', e.target.value as Severity)}>
          {SEVERITIES.map((s) => (
            <option key={s} value={s}>
              {t(DELIVERY_WORDS.andAbove, { severity: severityName(s, intl) })}
            </option>
          ))}
        </select>
      </Field>
      <Field id={`${id}-radius`} label={t(DELIVERY_WORDS.radius, { miles: form.radiusMiles })}>
        <input
          id={`${id}-radius`}
          type="range"
          min={RADIUS_MILES.min}
          max={RADIUS_MILES.max}
          step={1}
          value={form.radiusMiles}
          onChange={(e) => set('radiusMiles', Number(e.target.value))}
          aria-valuetext={t(DELIVERY_WORDS.radiusValue, { miles: form.radiusMiles })}
        />
        <div className="row-between small muted">
          <span>{intl.formatNumber(RADIUS_MILES.min, { style: 'unit', unit: 'mile' })}</span>
          <span>{intl.formatNumber(RADIUS_MILES.max, { style: 'unit', unit: 'mile' })}</span>
        </div>
      </Field>
      <QuietTimes id={id} form={form} set={set} />
    </div>
  );
}

function QuietTimes({ id, form, set }: SectionProps) {
  const intl = useIntl();
  const t = intl.formatMessage;
  return (
    <>
      <SwitchRow
        id={`${id}-quiet`}
        label={t(QUIET_WORDS.quietHours)}
        checked={form.quietHours.enabled}
        onChange={(enabled) => set('quietHours', { ...form.quietHours, enabled })}
      />
      {form.quietHours.enabled && (
        <TimeRange
          id={`${id}-quiet`}
          startLabel={t(QUIET_WORDS.from)}
          endLabel={t(QUIET_WORDS.until)}
          start={form.quietHours.start}
          end={form.quietHours.end}
          onChange={(range) => set('quietHours', { ...form.quietHours, ...range })}
        >
          <p className="small muted" style={{ gridColumn: '1 / -1', margin: 0 }}>
            {t(QUIET_WORDS.held)}
          </p>
        </TimeRange>
      )}
      <SwitchRow
        id={`${id}-weekend`}
        label={t(QUIET_WORDS.weekend)}
        checked={form.weekendEnabled}
        onChange={(on) => set('weekendEnabled', on)}
        describedBy={`${id}-weekend-help`}
      />
      <p id={`${id}-weekend-help`} className="small muted" style={{ marginTop: 0 }}>
        {t(QUIET_WORDS.weekendHelp, { time: form.quietHours.end })}
      </p>
    </>
  );
}

interface MethodsProps extends SectionProps {
  push: ReturnType<typeof usePushRegistration>;
}

const VOICE_SAMPLE = defineMessages({
  title: { id: 'alerts.preferences.voiceSample.title', defaultMessage: 'This is how Beacon reads alerts' },
  message: { id: 'alerts.preferences.voiceSample.message', defaultMessage: 'Voice alerts are on.' },
});

const words = (language: Language, messages: Record<string, unknown>): IntlShape =>
  createIntl({ locale: intlLocaleFor(language), messages: messages as Record<string, string>, defaultLocale: 'en', onError: () => undefined });
const ENGLISH_WORDS = words('en', {});

/**
 * "Test voice": a sample read as alerts in the chosen language will be, its words and its voice in that language. The
 * language's words are fetched as soon as it is chosen, so the click speaks at once (a browser lets a page speak only
 * from a click); until they have come, or if they cannot, the sample is English, read in English.
 */
function useVoiceSample(language: Language): () => void {
  const [sample, setSample] = useState<{ language: Language; intl: IntlShape } | null>(null);
  useEffect(() => {
    let live = true;
    loadCatalogue(language).then(
      (messages) => live && setSample({ language, intl: words(language, messages) }),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [language]);
  return () => {
    const ready = sample?.language === language ? sample : { language: 'en' as Language, intl: ENGLISH_WORDS };
    speakAlert({
      title: ready.intl.formatMessage(VOICE_SAMPLE.title),
      message: ready.intl.formatMessage(VOICE_SAMPLE.message),
      severity: 'low',
      category: 'public_safety',
      locationName: null,
      language: ready.language,
    });
  };
}

const METHOD_WORDS = defineMessages({
  title: { id: 'alerts.preferences.methods.title', defaultMessage: 'Notification Methods' },
  push: { id: 'alerts.preferences.methods.push', defaultMessage: 'Push notifications' },
  pushBlocked: { id: 'alerts.preferences.methods.pushBlocked', defaultMessage: 'Notifications are blocked in this browser; allow them in its site settings.' },
  pushUnsupported: { id: 'alerts.preferences.methods.pushUnsupported', defaultMessage: 'This browser cannot receive push notifications.' },
  voice: { id: 'alerts.preferences.methods.voice', defaultMessage: 'Voice alerts' },
  testVoice: { id: 'alerts.preferences.methods.testVoice', defaultMessage: 'Test voice' },
  voiceHint: { id: 'alerts.preferences.methods.voiceHint', defaultMessage: 'Also calls your phone number for alerts sent by phone.' },
  email: { id: 'alerts.preferences.methods.email', defaultMessage: 'Email digest' },
  sms: { id: 'alerts.preferences.methods.sms', defaultMessage: 'SMS' },
  phone: { id: 'alerts.preferences.methods.phone', defaultMessage: 'Phone number' },
  phonePlaceholder: { id: 'alerts.preferences.methods.phonePlaceholder', defaultMessage: '+16025551234' },
  phoneNeeded: { id: 'alerts.preferences.methods.phoneNeeded', defaultMessage: 'Add a phone number to be called.' },
});

export function NotificationMethodsSection({ id, form, set, push }: MethodsProps) {
  const intl = useIntl();
  const t = intl.formatMessage;
  const speakSample = useVoiceSample(form.language ?? 'en');
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
      <legend className="h3">{t(METHOD_WORDS.title)}</legend>
      <SwitchRow label={t(METHOD_WORDS.push)} {...method('push')} />
      {form.methods.push && push.state === 'denied' && <p className="small field-error">{t(METHOD_WORDS.pushBlocked)}</p>}
      {form.methods.push && push.state === 'unsupported' && <p className="small muted">{t(METHOD_WORDS.pushUnsupported)}</p>}
      <SwitchRow
        label={t(METHOD_WORDS.voice)}
        {...method('voice')}
        describedBy={`${id}-voice-hint`}
        accessory={
          form.methods.voice && (
            <button type="button" className="btn btn-ghost btn-sm" onClick={speakSample}>
              {t(METHOD_WORDS.testVoice)}
            </button>
          )
        }
      />
      {/* issue #39: the same method also brings a phone call, to the number SMS uses, for alerts sent by phone */}
      <p id={`${id}-voice-hint`} className="small muted method-hint">
        {t(METHOD_WORDS.voiceHint)}
      </p>
      <SwitchRow label={t(METHOD_WORDS.email)} {...method('email')} />
      <SwitchRow label={t(METHOD_WORDS.sms)} {...method('sms')} />
      {(form.methods.sms || form.methods.voice || form.phoneNumber) && (
        <Field id={`${id}-phone`} label={t(METHOD_WORDS.phone)}>
          <input
            id={`${id}-phone`}
            type="tel"
            autoComplete="tel"
            value={form.phoneNumber ?? ''}
            onChange={(e) => set('phoneNumber', e.target.value)}
            placeholder={t(METHOD_WORDS.phonePlaceholder)}
            aria-describedby={callNeedsNumber ? `${id}-phone-needed` : undefined}
          />
          {/* a reminder, not a rule: saving still works, the calls simply wait for a number */}
          {callNeedsNumber && (
            <p id={`${id}-phone-needed`} className="small muted">
              {t(METHOD_WORDS.phoneNeeded)}
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

const HOME_WORDS = defineMessages({
  title: { id: 'alerts.preferences.home.title', defaultMessage: 'Home Location' },
  withinHome: {
    id: 'alerts.preferences.home.withinHome',
    defaultMessage: 'Alerts within {miles, plural, one {# mile} other {# miles}} of your home reach you.',
  },
  withinPoint: {
    id: 'alerts.preferences.home.withinPoint',
    defaultMessage: 'Alerts within {miles, plural, one {# mile} other {# miles}} of this point reach you.',
  },
  none: {
    id: 'alerts.preferences.home.none',
    defaultMessage:
      'Until you set a home location, your alert list shows only alerts for everyone: critical alerts and alerts without an area. Find it by address or place name, or click the map.',
  },
  place: { id: 'alerts.preferences.home.place', defaultMessage: '<strong>Home:</strong> {place}' },
  map: { id: 'alerts.preferences.home.map', defaultMessage: 'Home location map: click to set your home, the circle is your alert radius' },
  lat: { id: 'alerts.preferences.home.lat', defaultMessage: 'Home latitude' },
  lng: { id: 'alerts.preferences.home.lng', defaultMessage: 'Home longitude' },
  clear: { id: 'alerts.preferences.home.clear', defaultMessage: 'Clear home location' },
});

export function HomeLocationSection({ id, form, coords, coordError, typeCoord, setHome, nameSpot }: HomeProps) {
  const intl = useIntl();
  const t = intl.formatMessage;
  const nameOf = usePlaceName();
  const place = form.home?.name;
  return (
    <div className="card" id="home-location">
      <h2 className="h3">{t(HOME_WORDS.title)}</h2>
      <p className="small muted" id={`${id}-home-help`}>
        {form.home ? t(place ? HOME_WORDS.withinHome : HOME_WORDS.withinPoint, { miles: form.radiusMiles }) : t(HOME_WORDS.none)}
      </p>
      {place && <p className="home-place">{t(HOME_WORDS.place, { place, strong: (chunks) => <strong>{chunks}</strong> })}</p>}
      <PlaceSearch id={`${id}-place`} onChoose={setHome} />
      <AreaPickerShell
        id={id}
        map={
          <LazyAreaMap
            center={form.home}
            radiusKm={milesToKm(form.radiusMiles)}
            onPick={(lat, lng) => setHome({ lat, lng })}
            label={t(HOME_WORDS.map)}
            height={260}
          />
        }
        labels={{ lat: t(HOME_WORDS.lat), lng: t(HOME_WORDS.lng) }}
        values={coords}
        onType={typeCoord}
        invalid={coordError !== null}
        describedBy={`${id}-home-help${coordError ? ` ${id}-home-error` : ''}`}
        onLocate={(spot) => {
          setHome(spot);
          void nameOf(spot).then((name) => name && nameSpot(spot, name));
        }}
        clear={form.home || coords.lat || coords.lng ? { label: t(HOME_WORDS.clear), onClear: () => setHome(null) } : null}
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

const PLACE_SEARCH_TEXT = defineMessages({
  label: { id: 'alerts.placeSearch.label', defaultMessage: 'Find your home by address or place name' },
  placeholder: { id: 'alerts.placeSearch.placeholder', defaultMessage: 'e.g. 200 W Washington St, Phoenix' },
  search: { id: 'alerts.placeSearch.search', defaultMessage: 'Search' },
  searching: { id: 'alerts.placeSearch.searching', defaultMessage: 'Searching...' },
  tooShort: { id: 'alerts.placeSearch.tooShort', defaultMessage: 'Type an address or place to search for.' },
  found: { id: 'alerts.placeSearch.found', defaultMessage: '{n, plural, one {# place found: choose yours.} other {# places found: choose yours.}}' },
  none: { id: 'alerts.placeSearch.none', defaultMessage: 'No place found for "{q}". Try a street and town, or just the town.' },
  results: { id: 'alerts.placeSearch.results', defaultMessage: 'Places found' },
  unavailable: {
    id: 'alerts.placeSearch.unavailable',
    defaultMessage: 'Place search is not available right now. Click the map or use your location instead.',
  },
});

/** Why a search found nothing to choose: the service's own message for a limit, a plain one when it cannot search. */
function searchFailure(error: unknown, intl: IntlShape): string {
  const code = (error as Partial<ApiError> | undefined)?.code;
  const unavailable = intl.formatMessage(PLACE_SEARCH_TEXT.unavailable);
  if (code === 'geocoder_not_configured' || code === 'geocoder_unavailable' || code === 'network_error') return unavailable;
  return errorMessage(error, unavailable);
}

/**
 * The home found by address or place name (issue #40), through the alerts service's geocoder (cached and rate-limited
 * there). Inside the preferences form, so Enter searches instead of saving the form.
 */
function PlaceSearch({ id, onChoose }: { id: string; onChoose: (home: HomeLocation) => void }) {
  const intl = useIntl();
  const t = intl.formatMessage;
  const [text, setText] = useState('');
  const [note, setNote] = useState<string | null>(null);
  const [search, result] = useLazySearchPlacesQuery();
  const [places, setPlaces] = useState<{ label: string; lat: number; lng: number }[]>([]);

  async function run() {
    const q = text.trim();
    setPlaces([]);
    if (q.length < 2) {
      setNote(t(PLACE_SEARCH_TEXT.tooShort));
      return;
    }
    setNote(t(PLACE_SEARCH_TEXT.searching));
    try {
      const found = await search(q).unwrap();
      setPlaces(found);
      setNote(found.length ? t(PLACE_SEARCH_TEXT.found, { n: found.length }) : t(PLACE_SEARCH_TEXT.none, { q }));
    } catch (err) {
      setNote(searchFailure(err, intl));
    }
  }

  return (
    <div className="place-search">
      <label htmlFor={id}>{t(PLACE_SEARCH_TEXT.label)}</label>
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
          placeholder={t(PLACE_SEARCH_TEXT.placeholder)}
          autoComplete="street-address"
          aria-describedby={`${id}-note`}
        />
        <button type="button" className="btn btn-outline btn-sm" onClick={() => void run()} disabled={result.isFetching}>
          {t(result.isFetching ? PLACE_SEARCH_TEXT.searching : PLACE_SEARCH_TEXT.search)}
        </button>
      </div>
      <p id={`${id}-note`} className="small muted" role="status">
        {note}
      </p>
      {places.length > 0 && (
        <ul className="place-results" aria-label={t(PLACE_SEARCH_TEXT.results)}>
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

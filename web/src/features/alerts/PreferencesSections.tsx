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
  type Language,
  type Severity,
} from '@beacon/contracts';
import { AreaPickerShell } from '@/common/form/AreaPickerShell';
import { toggleInOrder } from '@/common/form/ChoiceGroups';
import { Field, SwitchRow } from '@/common/form/Field';
import { TimeRange } from '@/common/form/TimeRange';
import type { Position } from '@/common/geolocation';
import { LazyAreaMap } from './LazyAreaMap';
import { speakAlert } from './notifications';
import type { CoordDrafts, PreferenceSetter, PreferencesFormValues } from './preferences-form';
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
  setHome: (home: Position | null) => void;
}

export function HomeLocationSection({ id, form, coords, coordError, typeCoord, setHome }: HomeProps) {
  return (
    <div className="card" id="home-location">
      <h2 className="h3">Home Location</h2>
      <p className="small muted" id={`${id}-home-help`}>
        {form.home
          ? `Alerts within ${form.radiusMiles} miles of this point reach you.`
          : 'Until you set a home location, your alert list shows only alerts for everyone: critical alerts and alerts without an area. Click the map to set it.'}
      </p>
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
        onLocate={setHome}
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

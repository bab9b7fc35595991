import { useId } from 'react';
import { FormattedMessage } from 'react-intl';
import {
  ALERT_CATEGORIES,
  CATEGORY_LABELS,
  CHANNEL_LABELS,
  DELIVERY_CHANNELS,
  REMINDER_DELAYS,
  SCHEDULE_MAX_DAYS,
  SEVERITIES,
  SEVERITY_INFO,
  type AlertCategory,
} from '@beacon/contracts';
import { CheckboxGroup, RadioGroup } from '@/common/form/ChoiceGroups';
import { Field, FieldError, errorAria } from '@/common/form/Field';
import { serverNow } from '@/common/server-clock';
import type { FieldSetter } from '@/common/useFormFields';
import { SeverityBadge } from '@/features/alerts';
import { localDateTimeValue, localTimeZone, type FieldErrors, type WizardValues } from './alert-form';
import { AlertTextFields } from './AlertTextFields';
import { AreaFields } from './AreaDrawing';
import { ChannelHealthPanel } from './ChannelHealthPanel';
import { GROUP_WORDS } from './target-groups';
import { TargetGroupsField } from './TargetGroupsField';

/** The first three steps of the Create Alert wizard, one component per step. */
export interface StepProps {
  values: WizardValues;
  errors: FieldErrors;
  set: FieldSetter<WizardValues>;
}

export function DetailsStep({ values, errors, set }: StepProps) {
  const id = useId();
  return (
    <>
      <AlertTextFields
        id={id}
        values={values}
        errors={errors}
        set={set}
        messageLabel="Message"
        placeholders={{ title: 'e.g. Wrong-way driver on I-10 westbound', message: 'What is happening, where, and what people should do.' }}
        autoFocus
      />
    </>
  );
}

export function ClassificationStep({ values, errors, set }: StepProps) {
  const id = useId();
  return (
    <>
      <RadioGroup
        legend="Severity"
        name="severity"
        options={[...SEVERITIES].reverse()}
        value={values.severity}
        onChange={(s) => set('severity', s)}
        listClassName="choice-grid"
        optionClassName="choice"
        selectedClassName="selected"
        optionLabel={(s) => (
          <span>
            <SeverityBadge severity={s} />
            <span className="small muted block">{SEVERITY_INFO[s].description}</span>
          </span>
        )}
        error={errors.severity}
      />
      <Field id={`${id}-category`} label="Category">
        <select id={`${id}-category`} value={values.category} onChange={(e) => set('category', e.target.value as AlertCategory)}>
          {ALERT_CATEGORIES.map((c) => (
            <option key={c} value={c}>
              {CATEGORY_LABELS[c]}
            </option>
          ))}
        </select>
        <FieldError error={errors.category} />
      </Field>
      <CheckboxGroup
        id={`${id}-channels`}
        legend="Delivery Channels"
        options={DELIVERY_CHANNELS}
        labels={CHANNEL_LABELS}
        value={values.channels}
        error={errors.channels}
        onChange={(channels) => set('channels', channels)}
      />
      {/* what each channel can do right now, beside the choice (issue #39) */}
      <ChannelHealthPanel compact />
    </>
  );
}

export function LocationStep({ values, errors, set }: StepProps) {
  const id = useId();
  return (
    <>
      <Field id={`${id}-place`} label="Location Name (optional)">
        <input id={`${id}-place`} value={values.locationName} onChange={(e) => set('locationName', e.target.value)} placeholder="e.g. Downtown Phoenix" />
      </Field>
      <AreaFields
        id={id}
        values={values}
        errors={errors}
        set={set}
        // An alert to contact groups is never also to everyone (the server refuses it: groups_and_everyone).
        withoutEveryone={values.groups.length > 0 && <FormattedMessage {...GROUP_WORDS.everyoneNotOffered} />}
      />
      <TargetGroupsField
        id={id}
        value={values.groups}
        onChange={(groups) => set('groups', groups)}
        error={errors.groups}
        unavailable={values.areaType === 'everyone' && <FormattedMessage {...GROUP_WORDS.withEveryone} />}
      />
      <ScheduleFields id={id} values={values} errors={errors} set={set} />
      <TimingFields id={id} values={values} errors={errors} set={set} />
    </>
  );
}

/** Send now, or at a time in the admin's time zone (checked as the server does: from now, at most SCHEDULE_MAX_DAYS ahead). */
function ScheduleFields({ id, values, errors, set }: StepProps & { id: string }) {
  const now = serverNow();
  const zone = localTimeZone(values.sendAt ? new Date(values.sendAt) : now);
  const invalid = Boolean(errors.sendAt);
  return (
    <>
      <RadioGroup
        legend="When to send"
        legendClassName="label"
        name={`${id}-when`}
        options={['now', 'later'] as const}
        value={values.when}
        onChange={(when) => set('when', when)}
        optionClassName="radio"
        optionLabel={(when) => <> {when === 'now' ? 'Send now' : 'Schedule for a later time'}</>}
      />
      {values.when === 'later' && (
        <Field id={`${id}-send-at`} label={`Send at (${zone})`} error={errors.sendAt}>
          <input
            id={`${id}-send-at`}
            type="datetime-local"
            min={localDateTimeValue(now)}
            max={localDateTimeValue(new Date(now.getTime() + SCHEDULE_MAX_DAYS * 86_400_000))}
            value={values.sendAt}
            onChange={(e) => set('sendAt', e.target.value)}
            aria-invalid={invalid}
            aria-describedby={invalid ? `${id}-send-at-hint ${id}-send-at-error` : `${id}-send-at-hint`}
          />
          <p id={`${id}-send-at-hint`} className="small muted">
            In your time zone, {zone}; at most {SCHEDULE_MAX_DAYS} days ahead. Who receives it is worked out again when it goes out.
          </p>
        </Field>
      )}
    </>
  );
}

/** When the alert ends, and whether it is sent again to those who have not answered. */
function TimingFields({ id, values, errors, set }: StepProps & { id: string }) {
  return (
    <>
      <Field id={`${id}-expires`} label="Expires At (optional)" error={errors.expiresAt}>
        <input
          id={`${id}-expires`}
          type="datetime-local"
          min={localDateTimeValue(new Date())}
          value={values.expiresAt}
          onChange={(e) => set('expiresAt', e.target.value)}
          {...errorAria(`${id}-expires`, errors.expiresAt)}
        />
      </Field>
      <Field id={`${id}-remind`} label="Remind those who have not answered (optional)">
        <select
          id={`${id}-remind`}
          value={values.remindAfterMinutes}
          onChange={(e) => set('remindAfterMinutes', e.target.value)}
          aria-describedby={`${id}-remind-hint`}
        >
          <option value="">No reminder</option>
          {REMINDER_DELAYS.map((m) => (
            <option key={m} value={String(m)}>
              After {m} minutes
            </option>
          ))}
        </select>
        <p id={`${id}-remind-hint`} className="small muted">
          Sends the alert once more, on the channels that reached them, to whoever has not pressed &quot;I&apos;m Safe&quot; or asked for help by then.
        </p>
      </Field>
    </>
  );
}

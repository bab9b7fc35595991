import { ALERT_LIMITS } from '@beacon/contracts';
import type { FieldSetter } from '@/common/useFormFields';
import type { FieldErrors, FormTranslations } from './alert-form';
import { SmsSegmentsTable, TranslationFields } from './AlertLanguages';
import { CountedField } from './ui';

/** What every form that writes an alert asks first: its title, its message and their translations. */
export interface AlertTexts {
  title: string;
  message: string;
  translations: FormTranslations;
}

interface AlertTextFieldsProps<V extends AlertTexts> {
  /** The form's id, the fields' ids' prefix. */
  id: string;
  values: V;
  errors: FieldErrors;
  set: FieldSetter<V>;
  messageLabel: string;
  placeholders?: { title: string; message: string };
  autoFocus?: boolean;
}

/** The title and message with their counters, the other languages, and what each costs by SMS (wizard and Quick Send). */
export function AlertTextFields<V extends AlertTexts>({ id, values, errors, set: setField, messageLabel, placeholders, autoFocus }: AlertTextFieldsProps<V>) {
  // Only these three keys are set, and V has them with these types.
  const set = setField as unknown as FieldSetter<AlertTexts>;
  return (
    <>
      <CountedField
        id={`${id}-title`}
        label="Alert Title"
        value={values.title}
        max={ALERT_LIMITS.titleMax}
        error={errors.title}
        onChange={(v) => set('title', v)}
        placeholder={placeholders?.title}
        autoFocus={autoFocus}
      />
      <CountedField
        id={`${id}-message`}
        label={messageLabel}
        value={values.message}
        max={ALERT_LIMITS.messageMax}
        error={errors.message}
        onChange={(v) => set('message', v)}
        placeholder={placeholders?.message}
        multiline
      />
      <TranslationFields value={values.translations} errors={errors} onChange={(t) => set('translations', t)} />
      <SmsSegmentsTable title={values.title} message={values.message} translations={values.translations} />
    </>
  );
}

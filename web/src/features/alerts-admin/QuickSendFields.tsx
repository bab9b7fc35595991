import { ADMIN_ALERT_TYPES, ADMIN_CHANNEL_OPTIONS, PRIORITIES, PRIORITY_LABELS, type AdminAlertType, type AdminChannelOption } from '@beacon/contracts';
import { CheckboxGroup, RadioGroup } from '@/common/form/ChoiceGroups';
import { Field, errorAria } from '@/common/form/Field';
import type { FieldSetter } from '@/common/useFormFields';
import type { FieldErrors, QuickSendValues } from './alert-form';
import { AlertTextFields } from './AlertTextFields';
import { ChannelHealthPanel } from './ChannelHealthPanel';

const CHANNEL_OPTION_LABELS: Record<AdminChannelOption, string> = { web_push: 'Web Push', sms: 'SMS' };

/** "HIGH" as "High". */
const priorityName = (label: string) => label.charAt(0) + label.slice(1).toLowerCase();

/** What Quick Send sends: its type, texts, priority and channels; `id` is the form's. */
export function QuickSendFields({ id, values, errors, set }: { id: string; values: QuickSendValues; errors: FieldErrors; set: FieldSetter<QuickSendValues> }) {
  return (
    <>
      <Field id={`${id}-type`} label="Alert Type" error={errors.type}>
        <select
          id={`${id}-type`}
          value={values.type}
          onChange={(e) => set('type', e.target.value as AdminAlertType | '')}
          {...errorAria(`${id}-type`, errors.type)}
        >
          <option value="">Select a type</option>
          {ADMIN_ALERT_TYPES.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
      </Field>
      <AlertTextFields id={id} values={values} errors={errors} set={set} messageLabel="Message Body" />
      <RadioGroup
        legend="Priority"
        name={`${id}-priority`}
        options={PRIORITIES}
        value={values.priority}
        onChange={(p) => set('priority', p)}
        optionClassName="checkbox"
        optionLabel={(p) => priorityName(PRIORITY_LABELS[p])}
      />
      <CheckboxGroup
        id={`${id}-channels`}
        legend="Delivery Channels"
        options={ADMIN_CHANNEL_OPTIONS}
        labels={CHANNEL_OPTION_LABELS}
        value={values.channels}
        error={errors.channels}
        onChange={(channels) => set('channels', channels)}
      />
      {/* what each channel can do right now, beside the choice (issue #39) */}
      <ChannelHealthPanel compact />
    </>
  );
}

import type { ReactNode } from 'react';
import { FieldError } from './Field';

/** `value` with `item` turned on or off, in the order of `options` whatever the order of the clicks. */
export function toggleInOrder<T>(options: readonly T[], value: readonly T[], item: T, on: boolean): T[] {
  return on ? options.filter((x) => x === item || value.includes(x)) : value.filter((x) => x !== item);
}

interface CheckboxGroupProps<T extends string> {
  id: string;
  legend: string;
  options: readonly T[];
  labels: Record<T, string>;
  value: readonly T[];
  onChange: (value: T[]) => void;
  error?: string;
}

/** A fieldset of checkboxes in a row; the chosen options keep the order of `options`. */
export function CheckboxGroup<T extends string>({ id, legend, options, labels, value, onChange, error }: CheckboxGroupProps<T>) {
  return (
    <fieldset className="field" aria-describedby={error ? `${id}-error` : undefined}>
      <legend>{legend}</legend>
      <div className="row">
        {options.map((o) => (
          <label key={o} className="checkbox">
            <input type="checkbox" checked={value.includes(o)} onChange={(e) => onChange(toggleInOrder(options, value, o, e.target.checked))} /> {labels[o]}
          </label>
        ))}
      </div>
      <FieldError id={`${id}-error`} error={error} />
    </fieldset>
  );
}

interface RadioGroupProps<T extends string> {
  legend: string;
  legendClassName?: string;
  /** The radios' shared name: one group per form. */
  name: string;
  options: readonly T[];
  value: T;
  onChange: (value: T) => void;
  /** What follows each radio inside its label. */
  optionLabel: (option: T) => ReactNode;
  optionClassName: string;
  /** Added to the class of the checked option's label (cards that show their selection). */
  selectedClassName?: string;
  /** The layout of the options: `row`, or `choice-grid` for cards. */
  listClassName?: string;
  error?: string;
}

/** A fieldset of radios, one per option, each inside its label. */
export function RadioGroup<T extends string>(props: RadioGroupProps<T>) {
  const { legend, legendClassName, name, options, value, onChange, optionLabel, optionClassName, selectedClassName, listClassName = 'row', error } = props;
  const labelClass = (checked: boolean) => (selectedClassName === undefined ? optionClassName : `${optionClassName} ${checked ? selectedClassName : ''}`);
  return (
    <fieldset className="field">
      <legend className={legendClassName}>{legend}</legend>
      <div className={listClassName}>
        {options.map((o) => (
          <label key={o} className={labelClass(value === o)}>
            <input type="radio" name={name} value={o} checked={value === o} onChange={() => onChange(o)} />
            {optionLabel(o)}
          </label>
        ))}
      </div>
      <FieldError error={error} />
    </fieldset>
  );
}

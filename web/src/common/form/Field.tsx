import type { ReactNode } from 'react';

/**
 * A labelled form field: `.field` with the label tied to the control `id`, the control (and any hint) as children,
 * then the error, whose id `${id}-error` the control names with `errorAria`.
 */
export function Field({ id, label, error, children }: { id: string; label: ReactNode; error?: string; children: ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children}
      <FieldError id={`${id}-error`} error={error} />
    </div>
  );
}

/** A field's message under it; nothing while there is none. */
export function FieldError({ id, error }: { id?: string; error?: string }) {
  return error ? (
    <p id={id} className="field-error">
      {error}
    </p>
  ) : null;
}

/** What a control of a `Field` says of its error, so that a screen reader reads the message with it. */
export function errorAria(id: string, error: string | undefined) {
  return { 'aria-invalid': Boolean(error), 'aria-describedby': error ? `${id}-error` : undefined };
}

interface SwitchRowProps {
  id: string;
  label: ReactNode;
  checked: boolean;
  onChange: (on: boolean) => void;
  describedBy?: string;
  /** Shown before the switch (a button that goes with it); when given, even empty, the two sit in a `.row`. */
  accessory?: ReactNode;
}

/** An on/off setting: its label, and a checkbox with the switch role at the end of the row. */
export function SwitchRow({ id, label, checked, onChange, describedBy, accessory }: SwitchRowProps) {
  const input = <input id={id} type="checkbox" role="switch" checked={checked} onChange={(e) => onChange(e.target.checked)} aria-describedby={describedBy} />;
  return (
    <div className="toggle-row">
      <label htmlFor={id}>{label}</label>
      {accessory === undefined ? (
        input
      ) : (
        <div className="row">
          {accessory}
          {input}
        </div>
      )}
    </div>
  );
}

import { useId, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { defineMessages } from '@/i18n';

const TOGGLE = defineMessages({
  show: { id: 'common.passwordField.showLabel', defaultMessage: 'Show {field}' },
  hide: { id: 'common.passwordField.hideLabel', defaultMessage: 'Hide {field}' },
});

interface Props {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  autoComplete: 'current-password' | 'new-password';
  name?: string;
}

/** A password input with a show/hide toggle and its error message tied to it for screen readers. */
export function PasswordField({ label, value, onChange, error, autoComplete, name }: Props) {
  const intl = useIntl();
  const id = useId();
  const [visible, setVisible] = useState(false);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <div className="input-with-button">
        <input
          id={id}
          name={name}
          type={visible ? 'text' : 'password'}
          value={value}
          autoComplete={autoComplete}
          onChange={(e) => onChange(e.target.value)}
          aria-invalid={Boolean(error)}
          aria-describedby={error ? `${id}-error` : undefined}
        />
        <button
          type="button"
          className="btn btn-ghost"
          onClick={() => setVisible((v) => !v)}
          aria-label={intl.formatMessage(visible ? TOGGLE.hide : TOGGLE.show, { field: label.toLocaleLowerCase(intl.locale) })}
        >
          {visible ? (
            <FormattedMessage id="common.passwordField.hide" defaultMessage="Hide" />
          ) : (
            <FormattedMessage id="common.passwordField.show" defaultMessage="Show" />
          )}
        </button>
      </div>
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

export function TextField(props: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  error?: string;
  type?: string;
  autoComplete?: string;
  name?: string;
  placeholder?: string;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        name={props.name}
        type={props.type ?? 'text'}
        value={props.value}
        placeholder={props.placeholder}
        autoComplete={props.autoComplete}
        onChange={(e) => props.onChange(e.target.value)}
        aria-invalid={Boolean(props.error)}
        aria-describedby={props.error ? `${id}-error` : undefined}
      />
      {props.error && (
        <p id={`${id}-error`} className="field-error">
          {props.error}
        </p>
      )}
    </div>
  );
}

import { FormattedMessage, useIntl } from 'react-intl';
import { SEVERITIES, type Severity } from '@beacon/contracts';
import { severityName } from './labels';

/** Small pieces the alert screens share, the user's and (through index.ts) the admin console's: badges, the severity filter, the load error. */

export function SeverityBadge({ severity }: { severity: Severity }) {
  const intl = useIntl();
  return <span className={`badge badge-${severity}`}>{SEVERITIES.includes(severity) ? severityName(severity, intl) : severity}</span>;
}

/** The severity filter of the alert lists, highest first; '' is all severities. */
export function SeveritySelect({ id, value, onChange }: { id: string; value: Severity | ''; onChange: (value: Severity | '') => void }) {
  const intl = useIntl();
  return (
    <>
      <label htmlFor={id}>
        <FormattedMessage id="alerts.severityFilter.label" defaultMessage="Severity" />
      </label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value as Severity | '')}>
        <option value="">{intl.formatMessage({ id: 'alerts.severityFilter.all', defaultMessage: 'All severities' })}</option>
        {[...SEVERITIES].reverse().map((s) => (
          <option key={s} value={s}>
            {severityName(s, intl)}
          </option>
        ))}
      </select>
    </>
  );
}

/** A list or form that failed to load, with its retry. `message` comes in the reader's language. */
export function LoadError({ message, onRetry }: { message: string; onRetry: () => unknown }) {
  return (
    <div className="empty-state" role="alert">
      <p>{message}</p>
      <button type="button" className="btn btn-outline" onClick={() => onRetry()}>
        <FormattedMessage id="alerts.loadError.retry" defaultMessage="Try Again" />
      </button>
    </div>
  );
}

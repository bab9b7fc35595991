import { SEVERITIES, SEVERITY_INFO, type Severity } from '@beacon/contracts';

/** Small pieces the alert screens share, the user's and (through index.ts) the admin console's: badges, the severity filter, the load error. */

export function SeverityBadge({ severity }: { severity: Severity }) {
  return <span className={`badge badge-${severity}`}>{SEVERITY_INFO[severity]?.label ?? severity}</span>;
}

/** The severity filter of the alert lists, highest first; '' is all severities. */
export function SeveritySelect({ id, value, onChange }: { id: string; value: Severity | ''; onChange: (value: Severity | '') => void }) {
  return (
    <>
      <label htmlFor={id}>Severity</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value as Severity | '')}>
        <option value="">All severities</option>
        {[...SEVERITIES].reverse().map((s) => (
          <option key={s} value={s}>
            {SEVERITY_INFO[s].label}
          </option>
        ))}
      </select>
    </>
  );
}

/** A list or form that failed to load, with its retry. */
export function LoadError({ message, onRetry }: { message: string; onRetry: () => unknown }) {
  return (
    <div className="empty-state" role="alert">
      <p>{message}</p>
      <button type="button" className="btn btn-outline" onClick={() => onRetry()}>
        Try Again
      </button>
    </div>
  );
}

import { useIntl } from 'react-intl';

const LOADING = { id: 'common.spinner.loading', defaultMessage: 'Loading' };

/** A spinner that says what is loading to screen readers ("Loading" unless told). */
export function Spinner({ label, size = 'md' }: { label?: string; size?: 'sm' | 'md' | 'lg' }) {
  const intl = useIntl();
  return (
    <span className={`spinner spinner-${size}`} role="status" aria-live="polite">
      <span className="visually-hidden">{label ?? intl.formatMessage(LOADING)}</span>
    </span>
  );
}

export function FullPageSpinner({ label }: { label?: string }) {
  return (
    <div className="full-page-center">
      <Spinner size="lg" label={label} />
    </div>
  );
}

export function Spinner({ label = 'Loading', size = 'md' }: { label?: string; size?: 'sm' | 'md' | 'lg' }) {
  return (
    <span className={`spinner spinner-${size}`} role="status" aria-live="polite">
      <span className="visually-hidden">{label}</span>
    </span>
  );
}

export function FullPageSpinner({ label = 'Loading' }: { label?: string }) {
  return (
    <div className="full-page-center">
      <Spinner size="lg" label={label} />
    </div>
  );
}

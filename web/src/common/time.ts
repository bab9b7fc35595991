/** 'Just now', 'Nm ago' under an hour, 'Nh ago' under a day, then 'Nd ago' (spec constants). */
export function relativeAge(iso: string | Date, now: Date = new Date()): string {
  const then = typeof iso === 'string' ? new Date(iso) : iso;
  const minutes = Math.floor((now.getTime() - then.getTime()) / 60_000);
  if (Number.isNaN(minutes)) return '';
  if (minutes < 1) return 'Just now';
  if (minutes < 60) return `${minutes}m ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours}h ago`;
  return `${Math.floor(hours / 24)}d ago`;
}

const DATE_TIME = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit' });

/** en-US, short month, with time: 'Mar 5, 2024, 3:07 PM' reformatted to the spec's 'Mar 5, 2024 3:07 PM'; 'Unknown' if invalid. */
export function formatDateTime(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return 'Unknown';
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return 'Unknown';
  return DATE_TIME.format(d).replace(/, (\d{1,2}:\d{2})/, ' $1');
}

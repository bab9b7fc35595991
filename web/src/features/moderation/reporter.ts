import type { IncidentReporter } from '@beacon/contracts';

/** "jane@example.org", or who it was when no e-mail was kept (reports made before it was). */
export function reporterName(reporter: IncidentReporter): string {
  return reporter.email ?? `user ${reporter.id.slice(0, 8)} (no e-mail on record)`;
}

/** "12 verified, 1 rejected", with their other reports still waiting; a reporter with no other report is first-time. */
export function reporterRecord({ history: h }: IncidentReporter): string {
  if (h.verified + h.rejected + h.pending === 0) return 'first-time reporter';
  return `${h.verified} verified, ${h.rejected} rejected${h.pending ? `, ${h.pending} more pending` : ''}`;
}

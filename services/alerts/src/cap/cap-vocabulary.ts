import type { AlertCategory, Severity } from '@beacon/contracts';

/** How Beacon's alert vocabulary reads in OASIS CAP 1.2: only the public feed speaks it, so it lives here. */

/** CAP 1.2 <category> values (the ones Beacon's alerts can be). */
export type CapCategory = 'Met' | 'Transport' | 'Safety' | 'Security' | 'Rescue' | 'Health';
export type CapSeverity = 'Extreme' | 'Severe' | 'Moderate' | 'Minor';
export type CapUrgency = 'Immediate' | 'Expected';

const CAP_CATEGORY_OF: Record<AlertCategory, CapCategory> = {
  weather: 'Met',
  traffic: 'Transport',
  security: 'Security',
  public_safety: 'Safety',
  health: 'Health',
};

/**
 * The CAP category of an alert. The stored category decides, except for an Amber Alert: it is stored as public
 * safety (so it reaches users who follow emergencies) but IPAWS and other CAP consumers file child abductions as Rescue.
 */
export const capCategory = (category: AlertCategory, type: string): CapCategory => (type === 'Amber Alert' ? 'Rescue' : CAP_CATEGORY_OF[category]);

export const CAP_SEVERITY: Record<Severity, CapSeverity> = { critical: 'Extreme', high: 'Severe', medium: 'Moderate', low: 'Minor' };

/** Only a critical alert asks for action now; Beacon stores no separate urgency. */
export const capUrgency = (s: Severity): CapUrgency => (s === 'critical' ? 'Immediate' : 'Expected');

/**
 * The inverse, for CAP taken in from public authorities (cap-sources): any CAP 1.2 category to the Beacon category
 * whose followers it concerns. The categories Beacon has no match for (Geo, Fire, Env, Infra, CBRNE, Other, and
 * Rescue) are public safety.
 */
export function beaconCategoryOfCap(categories: string[]): AlertCategory {
  const of: Record<string, AlertCategory> = { Met: 'weather', Transport: 'traffic', Security: 'security', Health: 'health', Safety: 'public_safety' };
  for (const c of categories) if (of[c]) return of[c];
  return 'public_safety';
}

/** CAP severity to Beacon's (the inverse of CAP_SEVERITY); Unknown is medium. */
export function beaconSeverityOfCap(severity: string): Severity {
  const found = (Object.keys(CAP_SEVERITY) as Severity[]).find((s) => CAP_SEVERITY[s] === severity);
  return found ?? 'medium';
}

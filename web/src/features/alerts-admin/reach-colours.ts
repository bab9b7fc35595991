import { REACH_STATE_LABELS, REACH_STATES, type ReachCell, type ReachCounts, type ReachHelpRequest, type ReachState } from '@beacon/contracts';

/**
 * The reach map's colours, one per state: blue and orange apart for the colour-blind (never green against red), grey for
 * what is still on its way, magenta for help, each dark enough for white text and a 3:1 contrast on the map.
 */
export const REACH_COLOURS: Record<ReachState, string> = {
  reached: '#1d4ed8',
  pending: '#6b7280',
  failed: '#c2410c',
  needs_help: '#a21caf',
};

/** A help request's point: open ones in the colour of help, resolved ones grey. */
export const HELP_COLOURS: Record<ReachHelpRequest['status'], string> = { open: REACH_COLOURS.needs_help, resolved: '#4b5563' };

const rgb = (hex: string) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));

/** A cell's colour: the states' colours mixed in the proportions of its people (all reached: blue; half failed: between). */
export function cellColour(counts: ReachCounts): string {
  const people = REACH_STATES.reduce((n, s) => n + counts[s], 0);
  if (people === 0) return REACH_COLOURS.pending;
  const mix = [0, 0, 0];
  for (const s of REACH_STATES) rgb(REACH_COLOURS[s]).forEach((v, i) => (mix[i] += (v * counts[s]) / people));
  return `#${mix.map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;
}

/** A cell in words (its tooltip): "12 people: 8 Reached, 3 Not yet, 1 Failed". */
export function cellText(c: Pick<ReachCell, 'people' | 'counts'>): string {
  const parts = REACH_STATES.filter((s) => c.counts[s] > 0).map((s) => `${c.counts[s]} ${REACH_STATE_LABELS[s]}`);
  return `${c.people} ${c.people === 1 ? 'person' : 'people'}: ${parts.join(', ')}`;
}

/*
 * Issue #42: the map of an alert's reach (GET /api/alerts/:id/reach). Where the people it was sent to stand, by their
 * home, never one person's home: counted in grid cells of at least REACH_MIN_CELL_PEOPLE people each. Help requests
 * are apart, each at the place its sender chose to share. Shared by the alerts service and the web app.
 */

/**
 * Where one recipient stands, the first that holds: an open help request of theirs for the alert (`needs_help`); a
 * delivery on some channel reached them (`reached`: sent to the provider, delivered or read, as the delivery counts
 * and the fallback define reaching someone; how many a receipt confirmed is said apart); one is still on its way,
 * held or waiting for a retry (`pending`); else nothing reached them and nothing more is tried (`failed`: every
 * delivery failed or was called off).
 */
export const REACH_STATES = ['needs_help', 'reached', 'failed', 'pending'] as const;
export type ReachState = (typeof REACH_STATES)[number];

export type ReachCounts = Record<ReachState, number>;

export const REACH_STATE_LABELS: Record<ReachState, string> = {
  needs_help: 'Needs help',
  reached: 'Reached',
  failed: 'Failed',
  pending: 'Not yet',
};

/** The fewest people a cell of the map may count: fewer are merged into the cell that contains theirs. */
export const REACH_MIN_CELL_PEOPLE = 5;

/**
 * The grid's cell sizes in degrees, finest first; each divides the next, so a cell lies in exactly one cell of every
 * coarser size. The finest the map starts from depends on the extent of the alert's area (at most a few thousand cells
 * across it); people still too few at the coarsest size are only counted (`elsewhere`).
 */
export const REACH_CELL_SIZES_DEG = [0.01, 0.05, 0.2, 1, 5] as const;

export const emptyReachCounts = (): ReachCounts => ({ needs_help: 0, reached: 0, failed: 0, pending: 0 });

/** One cell of the map: a lat/lng square with its people counted by state (never fewer than REACH_MIN_CELL_PEOPLE). */
export interface ReachCell {
  /** Stable while the grid is: `<sizeDeg>:<row>:<column>`. */
  id: string;
  south: number;
  west: number;
  north: number;
  east: number;
  sizeDeg: number;
  /** Everyone the cell counts (the sum of `counts`). */
  people: number;
  counts: ReachCounts;
}

/** A help request as the reach map shows it: where its sender said they were (null when they shared no location). */
export interface ReachHelpRequest {
  id: string;
  status: 'open' | 'resolved';
  createdAt: string;
  /** What they wrote; '' when nothing. */
  message: string;
  lat: number | null;
  lng: number | null;
}

/** GET /api/alerts/:id/reach: the alert's recipients on the map, counted, and its help requests. */
export interface AlertReach {
  alertId: string;
  /** REACH_MIN_CELL_PEOPLE, as the server applied it. */
  minCellPeople: number;
  /**
   * The cells, finest first. A coarser cell may contain finer ones: it then counts only the people of its square
   * that no finer cell counts (those too few to be shown finer).
   */
  cells: ReachCell[];
  /** Every recipient, by state. */
  totals: ReachCounts;
  /** Of `totals.reached`, those a provider's receipt or the person confirmed (delivered, read) on some channel. */
  confirmed: number;
  /** Recipients with a home too few to make a cell even at the coarsest size: counted here, shown nowhere. */
  elsewhere: ReachCounts;
  /** Recipients with no home location on file. */
  unlocated: ReachCounts;
  /** Open ones first, then newest first, at most REACH_HELP_REQUESTS_MAX. */
  helpRequests: ReachHelpRequest[];
  helpRequestsTotal: number;
  /** When the server counted (ISO). */
  at: string;
}

/** The most help requests one reach answer lists (the Help Requests page has them all). */
export const REACH_HELP_REQUESTS_MAX = 500;

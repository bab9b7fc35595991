import type { DeliveryChannel } from './alert-vocabulary';

/** CAP 1.2 categories and severities a source's rule can take. */
export const CAP_INGEST_CATEGORIES = ['Geo', 'Met', 'Safety', 'Security', 'Rescue', 'Fire', 'Health', 'Env', 'Transport', 'Infra', 'CBRNE', 'Other'] as const;
export const CAP_INGEST_SEVERITIES = ['Extreme', 'Severe', 'Moderate', 'Minor', 'Unknown'] as const;
/** draft: every message taken becomes a draft for review; send: sent at once; send_extreme_immediate: only Extreme + Immediate sent at once, the rest drafts. */
export const CAP_SOURCE_MODES = ['draft', 'send', 'send_extreme_immediate'] as const;
export type CapSourceMode = (typeof CAP_SOURCE_MODES)[number];

/** A CAP feed an admin follows (issue 23), with its health. */
export interface CapSource {
  id: string;
  name: string;
  url: string;
  intervalSeconds: number;
  /** Empty: every category. */
  categories: string[];
  /** Empty: every severity. */
  severities: string[];
  mode: CapSourceMode;
  channels: DeliveryChannel[];
  enabled: boolean;
  health: {
    state: 'ok' | 'failing' | 'never_fetched' | 'disabled';
    lastFetchAt: string | null;
    lastSuccessAt: string | null;
    lastError: string | null;
    failures: number;
    nextFetchAt: string;
    recentRefusals: { at: string; url: string | null; reason: string }[];
  };
}

/** Where an alert made from a CAP message came from (GET /api/alerts/:id/cap-origin). */
export interface CapOrigin {
  sourceId: string;
  sourceName: string;
  sender: string;
  identifier: string;
  sent: string;
  /** The original message's address, when it was fetched from one (not embedded in a feed). */
  url: string | null;
}

/** The result of a poll (POST /api/alerts/admin/cap-sources/:id/poll). */
export interface CapPollResult {
  fetched: number;
  created: number;
  updated: number;
  cancelled: number;
  ignored: number;
  refused: number;
  /** Linked messages not fetched, left for the next poll: the poll's deadline (CAP_POLL_DEADLINE_SECONDS) passed or the feed host's rate limit was reached. */
  leftForNextPoll: number;
}

import { useSyncExternalStore } from 'react';

/**
 * What the app knows of its connection to Beacon: since when it has been offline (null while it is online), and when it
 * last heard from the alerts service about the person's alerts. The browser's online/offline events say part of it; a
 * request that cannot reach Beacon at all (a fetch that fails, not an error answer) says the rest, since a phone can
 * believe it is online with no route to anywhere.
 *
 * "Offline since" outlives a reload made while offline (localStorage), so a Refresh does not restart the clock.
 */
export interface Connectivity {
  offlineSince: number | null;
  lastUpdatedAt: number | null;
}

const OFFLINE_SINCE_KEY = 'beacon.offline-since';

function storedOfflineSince(): number | null {
  try {
    const raw = localStorage.getItem(OFFLINE_SINCE_KEY);
    const at = raw === null ? NaN : Number(raw);
    return Number.isFinite(at) ? at : null;
  } catch {
    return null;
  }
}

let state: Connectivity = { offlineSince: null, lastUpdatedAt: null };
const listeners = new Set<() => void>();

function set(next: Partial<Connectivity>) {
  const merged = { ...state, ...next };
  if (merged.offlineSince === state.offlineSince && merged.lastUpdatedAt === state.lastUpdatedAt) return;
  state = merged;
  for (const l of listeners) l();
}

/** Beacon could not be reached: offline from now, or from when it first went (kept across reloads). */
export function markUnreachable(now = Date.now()) {
  if (state.offlineSince !== null) return;
  const since = storedOfflineSince() ?? now;
  try {
    localStorage.setItem(OFFLINE_SINCE_KEY, String(since));
  } catch {
    // private mode without storage: the time is still shown until the next reload
  }
  set({ offlineSince: since });
}

/** Beacon answered (any HTTP answer, an error one too): online. */
export function markReachable() {
  try {
    localStorage.removeItem(OFFLINE_SINCE_KEY);
  } catch {
    // nothing kept
  }
  set({ offlineSince: null });
}

/** The person's alerts as shown were last brought up to date at `at` (ms). An older time never replaces a newer one. */
export function noteUpdated(at: number) {
  if (state.lastUpdatedAt !== null && state.lastUpdatedAt >= at) return;
  set({ lastUpdatedAt: at });
}

/** Back to nothing known (sign-out, and between specs). */
export function resetConnectivity() {
  try {
    localStorage.removeItem(OFFLINE_SINCE_KEY);
  } catch {
    // nothing kept
  }
  state = { offlineSince: null, lastUpdatedAt: null };
  for (const l of listeners) l();
}

export function connectivity(): Connectivity {
  return state;
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** The connection as a component sees it, re-rendering when it changes. */
export function useConnectivity(): Connectivity {
  return useSyncExternalStore(subscribe, connectivity, connectivity);
}

/**
 * Follows the browser's own online/offline events; returns the function that stops. The browser saying "online" is
 * taken at its word for the indicator: the next request that fails puts it back.
 */
export function watchBrowserConnection(onBackOnline?: () => void): () => void {
  if (typeof navigator !== 'undefined' && navigator.onLine === false) markUnreachable();
  const offline = () => markUnreachable();
  const online = () => {
    markReachable();
    onBackOnline?.();
  };
  window.addEventListener('offline', offline);
  window.addEventListener('online', online);
  return () => {
    window.removeEventListener('offline', offline);
    window.removeEventListener('online', online);
  };
}

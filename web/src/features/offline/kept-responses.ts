import type { FetchArgs } from '@reduxjs/toolkit/query';

/**
 * The person's last answers from the alerts service, kept in localStorage so that what Beacon knew survives going
 * offline, a Refresh and a reload: their alert lists (unsearched: a search is not worth keeping), the counts, an
 * alert's page, and their preferences. One person at a time: another person signing in on this browser replaces
 * them, and signing out forgets them.
 *
 * An answer is kept under its request (path and sorted query), exactly as the app asks for it, so the same request
 * made offline finds it.
 */

const STORAGE_KEY = 'beacon.kept-responses.v1';
/** More than the lists, pages and counts one person's screens ask for; the oldest go first. */
export const MAX_KEPT = 40;

/** The alerts service's answers worth keeping: what the person reads about their own alerts and settings. */
const KEPT_PATHS = [
  /^api\/alerts\/me\/alerts$/,
  /^api\/alerts\/me\/alerts\/active$/,
  /^api\/alerts\/me\/alerts\/unread-count$/,
  /^api\/alerts\/me\/alerts\/[0-9a-f-]{36}$/,
  /^api\/alerts\/me\/preferences$/,
];

interface KeptAnswer {
  data: unknown;
  /** When the service gave it (ms). */
  savedAt: number;
}

interface KeptStore {
  userId: string;
  answers: Record<string, KeptAnswer>;
}

/**
 * What localStorage holds, parsed once (it is read on every request) and read again only when another tab changed it.
 * Never changed in place: every change writes a new store (the answers' data is shared with, and frozen by, the cache).
 */
let memory: KeptStore | null | undefined;
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (e) => {
    if (e.key === STORAGE_KEY || e.key === null) memory = undefined;
  });
}

function read(): KeptStore | null {
  if (memory !== undefined) return memory;
  try {
    const raw = localStorage.getItem(STORAGE_KEY);
    const parsed = raw ? (JSON.parse(raw) as KeptStore) : null;
    memory = parsed && typeof parsed.userId === 'string' && parsed.answers && typeof parsed.answers === 'object' ? parsed : null;
  } catch {
    memory = null;
  }
  return memory;
}

function write(store: KeptStore) {
  for (;;) {
    try {
      localStorage.setItem(STORAGE_KEY, JSON.stringify(store));
      memory = store;
      return;
    } catch {
      // full: drop the oldest answer and try again; with nothing left to drop, keep nothing
      const oldest = Object.entries(store.answers).sort(([, a], [, b]) => a.savedAt - b.savedAt)[0];
      if (!oldest) return;
      delete store.answers[oldest[0]];
    }
  }
}

/** The key of a request: its path without a leading slash, and its query sorted, without empty values. */
export function requestKey(path: string, params: Record<string, unknown> = {}): string {
  const url = new URL(path.replace(/^\/*/, '/'), 'http://beacon.invalid');
  const query = new URLSearchParams(url.search);
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') query.set(k, String(v));
  query.sort();
  const q = query.toString();
  return url.pathname.slice(1) + (q ? `?${q}` : '');
}

/** The key of an RTK Query request when its answer is one to keep, or null. */
export function keptRequestKey(args: string | FetchArgs): string | null {
  const { url, params, method } = typeof args === 'string' ? { url: args, params: undefined, method: 'GET' } : args;
  if ((method ?? 'GET').toUpperCase() !== 'GET') return null;
  const key = requestKey(url, params);
  const [path, query = ''] = key.split('?');
  if (!KEPT_PATHS.some((p) => p.test(path))) return null;
  if (new URLSearchParams(query).has('search')) return null;
  return key;
}

/** Keeps the service's answer to a request for this person. */
export function keepAnswer(userId: string, key: string, data: unknown, savedAt = Date.now()) {
  const current = read();
  const store: KeptStore = { userId, answers: current?.userId === userId ? { ...current.answers } : {} };
  store.answers[key] = { data, savedAt };
  const keys = Object.keys(store.answers);
  if (keys.length > MAX_KEPT) {
    const oldest = keys.sort((a, b) => store.answers[a].savedAt - store.answers[b].savedAt).slice(0, keys.length - MAX_KEPT);
    for (const k of oldest) delete store.answers[k];
  }
  write(store);
}

/**
 * Replaces the data of an answer already kept, keeping when the service gave it: a live change (a new alert heard on
 * the socket, a saved preference) that the service has told the screen since. A request never kept stays unkept.
 */
export function reviseAnswer(userId: string, key: string, data: unknown) {
  const store = read();
  const kept = store?.userId === userId ? store.answers[key] : undefined;
  if (!store || !kept) return;
  write({ userId, answers: { ...store.answers, [key]: { ...kept, data } } });
}

/** The answer kept for this person's request, or null. */
export function keptAnswer(userId: string, key: string): KeptAnswer | null {
  const store = read();
  return store?.userId === userId ? (store.answers[key] ?? null) : null;
}

/** When this person's alerts were last brought up to date by the service (their newest kept alert answer), or null. */
export function lastKeptUpdate(userId: string): number | null {
  const store = read();
  if (store?.userId !== userId) return null;
  const times = Object.entries(store.answers)
    .filter(([key]) => key.startsWith('api/alerts/me/alerts'))
    .map(([, a]) => a.savedAt);
  return times.length ? Math.max(...times) : null;
}

/** Forgets everything kept (sign-out). */
export function forgetKeptAnswers() {
  memory = null;
  try {
    localStorage.removeItem(STORAGE_KEY);
  } catch {
    // nothing kept
  }
}

import { useSyncExternalStore } from 'react';
import type { AlertSummary, Language } from '@beacon/contracts';

/**
 * The warnings on screen in this tab: a banner per alert (its latest news: new, updated, all clear, ended) and,
 * for a critical alert in effect not yet acknowledged, the takeover. Kept outside React so that they survive the
 * layout changing under them (the dashboard's shell and the public pages' header each mount the layer), and for one
 * person: another's sign-in starts empty.
 */
export type AnnouncementKind = 'new' | 'update' | 'all_clear' | 'ended';

export interface Announcement {
  /** The version announced (once.ts versionKey). */
  key: string;
  kind: AnnouncementKind;
  alert: AlertSummary & { language?: Language };
  /** Listed quietly: the person's quiet hours or digest hold it (no sound, voice or takeover). */
  held: boolean;
  /** Shown as the takeover until acknowledged. */
  takeover: boolean;
}

/** Banners kept per tab; the screen shows the newest few. */
const KEEP = 20;

let owner: string | null = null;
let items: Announcement[] = [];
/** The versions this tab has handled (told live or caught up): each once, whatever remounts the layer. */
let handled = new Set<string>();
/** Whether this tab has read the person's list once: what it held then is the baseline, not news. */
let baselined = false;
const listeners = new Set<() => void>();

function set(next: Announcement[]) {
  items = next;
  for (const l of listeners) l();
}

/** The person the warnings are for: another one (a sign-in as someone else) clears them. */
export function announcementsFor(userId: string | null) {
  if (owner === userId) return;
  owner = userId;
  handled = new Set();
  baselined = false;
  set([]);
}

/** True the first time this tab reads the person's list (and never again for them). */
export function firstListRead(): boolean {
  if (baselined) return false;
  baselined = true;
  return true;
}

/** Notes that this tab handles `key` now; false when it already did. */
export function markHandled(key: string): boolean {
  if (handled.has(key)) return false;
  handled.add(key);
  return true;
}

export const handledInTab = (key: string) => handled.has(key);

/** Shows an alert's news; it replaces any earlier news of the same alert (an update supersedes the alert). */
export function announce(a: Announcement) {
  if (items.some((i) => i.key === a.key)) return;
  set([a, ...items.filter((i) => i.alert.id !== a.alert.id)].slice(0, KEEP));
}

export function dismissAnnouncement(key: string) {
  set(items.filter((i) => i.key !== key));
}

/**
 * The takeovers of these versions are acknowledged (here, or in another tab): they close. The person has just read
 * them; the alert stays in their list and count, without a banner left over the page.
 */
export function acknowledgeAnnouncements(keys: readonly string[]) {
  if (!items.some((i) => i.takeover && keys.includes(i.key))) return;
  set(items.filter((i) => !(i.takeover && keys.includes(i.key))));
}

export const currentAnnouncements = () => items;

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useAnnouncements(): Announcement[] {
  return useSyncExternalStore(subscribe, currentAnnouncements, currentAnnouncements);
}

/** For specs: a tab with nothing on screen. */
export function resetAnnouncements() {
  owner = null;
  handled = new Set();
  baselined = false;
  set([]);
}

/**
 * What this browser already did about an alert's versions, shared by all its tabs through localStorage: which
 * versions were announced (one tab sounds and speaks each, the one that claims it first) and which critical versions
 * the person acknowledged (a takeover acknowledged in one tab closes in the others, through the storage event).
 *
 * Two tabs told of the same version at the same instant both try to claim it: navigator.locks (Web Locks, every
 * current browser) runs their read-and-write one after the other, so exactly one finds it unclaimed. Without Web
 * Locks the claim is a plain read-and-write, which two tabs can still both win in the same few microseconds.
 */

export type RecordName = 'announced' | 'acknowledged';

/** Versions kept per record: far more than a person gets in a day; the oldest go first. */
const RECORD_MAX = 300;
const LOCK_NAME = 'beacon:warnings';

export const recordKey = (userId: string, name: RecordName) => `beacon:warnings:${name}:${userId}`;

/** The key of one version of an alert in one state: an end (cancelled, expired) keeps the version it ended at. */
export const versionKey = (a: { id: string; version: number; status: string }) => `${a.id}:${a.version}:${a.status}`;

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null; // storage disabled (privacy settings): each tab decides alone
  }
}

export function readRecord(userId: string, name: RecordName): string[] {
  try {
    const raw = storage()?.getItem(recordKey(userId, name));
    const list: unknown = raw ? JSON.parse(raw) : [];
    return Array.isArray(list) ? list.filter((k): k is string => typeof k === 'string') : [];
  } catch {
    return [];
  }
}

export const hasRecord = (userId: string, name: RecordName, key: string) => readRecord(userId, name).includes(key);

/** Whether any version of the alert was announced in this browser (its next one is an update, not news). */
export const announcedAnyVersion = (userId: string, alertId: string) => readRecord(userId, 'announced').some((k) => k.startsWith(`${alertId}:`));

/** Adds `key`; false when it was there already. */
export function addToRecord(userId: string, name: RecordName, key: string): boolean {
  const list = readRecord(userId, name);
  if (list.includes(key)) return false;
  try {
    storage()?.setItem(recordKey(userId, name), JSON.stringify([...list, key].slice(-RECORD_MAX)));
  } catch {
    // full or disabled storage: the tab still acts once on its own
  }
  return true;
}

interface LockManagerLike {
  request<T>(name: string, callback: () => T | Promise<T>): Promise<T>;
}

const locks = (): LockManagerLike | undefined => (typeof navigator === 'undefined' ? undefined : (navigator as { locks?: LockManagerLike }).locks);

/** True for the one tab of this browser that claims `key` first; every other claim of it, in any tab, is false. */
export async function claimOnce(userId: string, name: RecordName, key: string): Promise<boolean> {
  const claim = () => addToRecord(userId, name, key);
  const manager = locks();
  if (!manager) return claim();
  try {
    return await manager.request(LOCK_NAME, claim);
  } catch {
    return claim();
  }
}

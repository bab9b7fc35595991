import { openDB, type IDBPDatabase } from 'idb';

/**
 * What this browser already did about an alert's versions, shared by all its tabs: which versions were announced (one
 * tab sounds and speaks each, the one that claims it first) and which critical versions the person acknowledged (a
 * takeover acknowledged in one tab closes in the others, through the storage event).
 *
 * The claim itself is an IndexedDB insert: the browser runs every tab's write transactions on one store one after the
 * other, and an insert of a key that exists fails, so of two tabs told of a version at the same instant exactly one
 * wins. localStorage cannot decide it: Chromium keeps a copy of it per renderer process and hands writes to the other
 * tabs later, so a tab can read "unclaimed" after another tab's write, Web Lock or not (two tabs then spoke one
 * version twice). The records in localStorage stay for what is read synchronously (was any version announced, was
 * this one acknowledged) and for the storage event. Without IndexedDB (some private modes) the claim falls back to a
 * read-and-write of localStorage under a Web Lock, which holds within one process.
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

const CLAIMS_DB = 'beacon-warnings';
const CLAIMS_STORE = 'claims';
/** Claims older than this are removed when the database is opened: an alert's version is news for far less. */
const CLAIM_KEEP_MS = 30 * 24 * 3_600_000;

let claimsDb: Promise<IDBPDatabase | null> | null = null;

function claimsDatabase(): Promise<IDBPDatabase | null> {
  if (typeof indexedDB === 'undefined') return Promise.resolve(null);
  claimsDb ??= openDB(CLAIMS_DB, 1, {
    upgrade(db) {
      db.createObjectStore(CLAIMS_STORE, { keyPath: 'key' }).createIndex('at', 'at');
    },
  })
    .then((db) => {
      void forgetOldClaims(db);
      return db;
    })
    .catch(() => null);
  return claimsDb;
}

async function forgetOldClaims(db: IDBPDatabase) {
  try {
    const tx = db.transaction(CLAIMS_STORE, 'readwrite');
    let cursor = await tx.store.index('at').openCursor(IDBKeyRange.upperBound(Date.now() - CLAIM_KEEP_MS));
    while (cursor) {
      await cursor.delete();
      cursor = await cursor.continue();
    }
    await tx.done;
  } catch {
    // a later opening tries again
  }
}

/** The claim under a Web Lock, decided by localStorage: exact within one renderer process only (see above). */
async function claimInLocalStorage(userId: string, name: RecordName, key: string): Promise<boolean> {
  const claim = () => addToRecord(userId, name, key);
  const manager = locks();
  if (!manager) return claim();
  try {
    return await manager.request(LOCK_NAME, claim);
  } catch {
    return claim();
  }
}

/** True for the one tab of this browser that claims `key` first; every other claim of it, in any tab, is false. */
export async function claimOnce(userId: string, name: RecordName, key: string): Promise<boolean> {
  if (hasRecord(userId, name, key)) return false;
  const db = await claimsDatabase();
  if (!db) return claimInLocalStorage(userId, name, key);
  try {
    await db.add(CLAIMS_STORE, { key: `${name}:${userId}:${key}`, at: Date.now() });
  } catch (err) {
    if ((err as { name?: unknown } | null)?.name === 'ConstraintError') {
      addToRecord(userId, name, key);
      return false;
    }
    return claimInLocalStorage(userId, name, key);
  }
  addToRecord(userId, name, key);
  return true;
}

import * as fakeIndexedDb from 'fake-indexeddb';
import { addToRecord, announcedAnyVersion, claimOnce, hasRecord, readRecord, versionKey } from './once';

/**
 * Web Locks as a browser gives them to the tabs of one origin: one holder at a time, the others wait their turn. Two
 * "tabs" here are two callers sharing localStorage and this lock manager, each told of the version at the same moment.
 */
function fakeLocks() {
  let tail: Promise<unknown> = Promise.resolve();
  return {
    request<T>(_name: string, callback: () => T | Promise<T>): Promise<T> {
      const run = tail.then(
        // each holder yields once while it holds the lock, as a real one would between reading and writing
        async () => {
          await Promise.resolve();
          return callback();
        },
      );
      tail = run.catch(() => undefined);
      return run;
    },
  };
}

const PERSON = 'user-1';
const v2 = versionKey({ id: 'alert-1', version: 2, status: 'active' });

beforeEach(() => localStorage.clear());
afterEach(() => delete (navigator as { locks?: unknown }).locks);

describe('once per alert version across the tabs of a browser', () => {
  it('lets exactly one of two tabs told at the same instant claim the version', async () => {
    Object.defineProperty(navigator, 'locks', { configurable: true, value: fakeLocks() });
    const [tabA, tabB] = await Promise.all([claimOnce(PERSON, 'announced', v2), claimOnce(PERSON, 'announced', v2)]);
    expect([tabA, tabB].filter(Boolean)).toHaveLength(1);
    // and neither claims it again later (a reload, a catch-up)
    expect(await claimOnce(PERSON, 'announced', v2)).toBe(false);
    // its next version is news again
    expect(await claimOnce(PERSON, 'announced', versionKey({ id: 'alert-1', version: 3, status: 'all_clear' }))).toBe(true);
  });

  it('claims once without Web Locks too', async () => {
    expect(await claimOnce(PERSON, 'announced', v2)).toBe(true);
    expect(await claimOnce(PERSON, 'announced', v2)).toBe(false);
  });

  it('keeps each person’s record apart, and knows an alert by any of its versions', () => {
    addToRecord(PERSON, 'announced', v2);
    expect(hasRecord(PERSON, 'announced', v2)).toBe(true);
    expect(hasRecord('user-2', 'announced', v2)).toBe(false);
    expect(hasRecord(PERSON, 'acknowledged', v2)).toBe(false);
    expect(announcedAnyVersion(PERSON, 'alert-1')).toBe(true);
    expect(announcedAnyVersion(PERSON, 'alert-10')).toBe(false);
  });

  it('keeps the newest 300 versions and survives a damaged record', () => {
    for (let i = 0; i < 305; i++) addToRecord(PERSON, 'announced', `a:${i}:active`);
    const record = readRecord(PERSON, 'announced');
    expect(record).toHaveLength(300);
    expect(record[0]).toBe('a:5:active');
    localStorage.setItem(`beacon:warnings:announced:${PERSON}`, '{not json');
    expect(readRecord(PERSON, 'announced')).toEqual([]);
    expect(addToRecord(PERSON, 'announced', v2)).toBe(true);
  });

  describe('with IndexedDB, as every current browser has it', () => {
    let person = 0;
    const nextPerson = () => `idb-person-${++person}`;
    // IndexedDB's globals only here: the tests above are of a browser without it
    const globals = Object.keys(fakeIndexedDb).filter((name) => name.startsWith('IDB'));
    beforeAll(() =>
      Object.assign(globalThis, Object.fromEntries(globals.map((name) => [name, fakeIndexedDb[name as keyof typeof fakeIndexedDb]])), {
        indexedDB: fakeIndexedDb.indexedDB,
      }),
    );
    afterAll(() => {
      for (const name of [...globals, 'indexedDB']) delete (globalThis as Record<string, unknown>)[name];
    });
    afterEach(() => jest.restoreAllMocks());

    it('lets exactly one of two tabs claim a version even when neither tab sees the other’s localStorage writes yet', async () => {
      // Chromium hands a tab's localStorage writes to the other tabs' processes later: each tab reads its stale copy.
      jest.spyOn(Storage.prototype, 'getItem').mockReturnValue(null);
      Object.defineProperty(navigator, 'locks', { configurable: true, value: fakeLocks() });
      const who = nextPerson();
      const claims = await Promise.all([claimOnce(who, 'announced', v2), claimOnce(who, 'announced', v2)]);
      expect(claims.filter(Boolean)).toHaveLength(1);
      // a reload of either tab (its localStorage copy still stale) does not claim it again
      expect(await claimOnce(who, 'announced', v2)).toBe(false);
    });

    it('claims each version, person and record apart, and records the claim for the synchronous readers', async () => {
      const who = nextPerson();
      expect(await claimOnce(who, 'announced', v2)).toBe(true);
      expect(hasRecord(who, 'announced', v2)).toBe(true);
      expect(await claimOnce(who, 'acknowledged', v2)).toBe(true);
      expect(await claimOnce(nextPerson(), 'announced', v2)).toBe(true);
      expect(await claimOnce(who, 'announced', versionKey({ id: 'alert-1', version: 3, status: 'all_clear' }))).toBe(true);
    });

    it('does not claim what this tab already recorded as announced', async () => {
      const who = nextPerson();
      addToRecord(who, 'announced', v2);
      expect(await claimOnce(who, 'announced', v2)).toBe(false);
    });
  });
});

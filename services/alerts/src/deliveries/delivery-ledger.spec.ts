import { messageKind, VersionTime, versionOf } from './delivery-ledger.repository';
import { ALL_CLEAR_ROUND, revisionRound } from './deliveries.repository';

const at = (m: number) => new Date(Date.UTC(2026, 0, 1, 10, m));

describe('what a delivery carried', () => {
  const versions: VersionTime[] = [
    { version: 1, kind: 'original', at: at(0) },
    { version: 2, kind: 'update', at: at(10) },
    { version: 3, kind: 'all_clear', at: at(20) },
  ];

  it("reads an update's and the all-clear's version from their round", () => {
    expect(versionOf({ round: revisionRound(2), sent_at: at(30), updated_at: at(30) }, versions)).toBe(2);
    expect(versionOf({ round: ALL_CLEAR_ROUND, sent_at: null, updated_at: at(21) }, versions)).toBe(3);
  });

  it('gives a first message, a reminder or a fallback the version the alert had when it went out', () => {
    expect(versionOf({ round: 0, sent_at: at(1), updated_at: at(1) }, versions)).toBe(1);
    // held until after the update: it carried the new text
    expect(versionOf({ round: 0, sent_at: at(15), updated_at: at(15) }, versions)).toBe(2);
    // never sent: as of its last change
    expect(versionOf({ round: 1, sent_at: null, updated_at: at(5) }, versions)).toBe(1);
    // an alert never updated has no versions stored
    expect(versionOf({ round: 0, sent_at: at(1), updated_at: at(1) }, [])).toBe(1);
  });

  it('says fallback for the alert sent by an operator to the unreached', () => {
    expect(messageKind({ kind: 'alert', fallback: true })).toBe('fallback');
    expect(messageKind({ kind: 'alert', fallback: false })).toBe('alert');
    expect(messageKind({ kind: 'left_area', fallback: false })).toBe('left_area');
  });
});

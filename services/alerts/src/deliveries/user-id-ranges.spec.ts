import { randomUUID } from 'node:crypto';
import { userIdRanges } from './deliveries.repository';

describe('userIdRanges', () => {
  it('one part is every user', () => {
    expect(userIdRanges(1)).toEqual([{ from: null, to: null }]);
    expect(userIdRanges(0)).toEqual([{ from: null, to: null }]);
  });

  it('splits the uuid space into contiguous, equal, ordered ranges', () => {
    const ranges = userIdRanges(4);
    expect(ranges).toEqual([
      { from: null, to: '40000000-0000-0000-0000-000000000000' },
      { from: '40000000-0000-0000-0000-000000000000', to: '80000000-0000-0000-0000-000000000000' },
      { from: '80000000-0000-0000-0000-000000000000', to: 'c0000000-0000-0000-0000-000000000000' },
      { from: 'c0000000-0000-0000-0000-000000000000', to: null },
    ]);
    const three = userIdRanges(3);
    expect(three.map((r) => r.to)).toEqual(['55555555-5555-5555-5555-555555555555', 'aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa', null]);
  });

  it('puts every uuid in exactly one range, the extremes included, about evenly', () => {
    const ranges = userIdRanges(3);
    const ids = ['00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff', ...Array.from({ length: 3000 }, () => randomUUID())];
    const counts = [0, 0, 0];
    for (const id of ids) {
      // PostgreSQL compares uuids byte-wise, which for the lower-case canonical form is string order.
      const inside = ranges.map((r, i) => ((!r.from || id >= r.from) && (!r.to || id < r.to) ? i : -1)).filter((i) => i >= 0);
      expect(inside).toHaveLength(1);
      counts[inside[0]]++;
    }
    for (const c of counts) expect(c).toBeGreaterThan(800);
  });
});

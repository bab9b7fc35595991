import { mergeActivity, type ActivityItem } from './activity';

const item = (id: string, time: string, type: ActivityItem['type'] = 'alert'): ActivityItem =>
  ({ id, type, title: id, detail: null, time, severity: 'low', location: null, href: null });

describe('mergeActivity', () => {
  it('orders every source newest first', () => {
    const merged = mergeActivity([
      { items: [item('a1', '2025-01-05T00:00:00Z'), item('a2', '2025-01-01T00:00:00Z')], hasMore: false },
      { items: [item('r1', '2025-01-03T00:00:00Z', 'report')], hasMore: false },
    ]);
    expect(merged.items.map((i) => i.id)).toEqual(['a1', 'r1', 'a2']);
    expect(merged.hasMore).toBe(false);
  });

  it('holds back items older than what a source with more pages has loaded', () => {
    const merged = mergeActivity([
      { items: [item('a1', '2025-01-05T00:00:00Z'), item('a2', '2025-01-04T00:00:00Z')], hasMore: true },
      { items: [item('r1', '2025-01-03T00:00:00Z', 'report'), item('r2', '2025-01-01T00:00:00Z', 'report')], hasMore: false },
    ]);
    // an unloaded alert could be newer than r1, so r1 and r2 wait for the next page
    expect(merged.items.map((i) => i.id)).toEqual(['a1', 'a2']);
    expect(merged.hasMore).toBe(true);
  });
});

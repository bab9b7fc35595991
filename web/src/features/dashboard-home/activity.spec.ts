import type { MyCommunityActivity } from '@beacon/contracts';
import { activityFailureMessage, communityActivity, mergeActivity, type ActivityItem } from './activity';

const item = (id: string, time: string, type: ActivityItem['type'] = 'alert'): ActivityItem => ({
  id,
  type,
  title: id,
  detail: null,
  time,
  severity: 'low',
  location: null,
  href: null,
});

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

  it('interleaves community activity with alerts and reports by time', () => {
    const merged = mergeActivity([
      { items: [item('a1', '2025-01-05T00:00:00Z'), item('a2', '2025-01-01T00:00:00Z')], hasMore: false },
      { items: [item('r1', '2025-01-03T00:00:00Z', 'report')], hasMore: false },
      { items: [item('c1', '2025-01-04T00:00:00Z', 'community'), item('c2', '2025-01-02T00:00:00Z', 'community')], hasMore: false },
    ]);
    expect(merged.items.map((i) => i.id)).toEqual(['a1', 'c1', 'r1', 'c2', 'a2']);
  });
});

describe('communityActivity', () => {
  const at = '2025-02-01T10:00:00.000Z';
  const map = (c: MyCommunityActivity) => communityActivity(c);

  it('turns my post into a community item that leads to the forum', () => {
    expect(map({ kind: 'post', id: 'p1', postId: 'p1', title: 'Wrong way on I-10', category: 'wrong-way-driver', createdAt: at })).toEqual({
      id: 'community:post:p1',
      type: 'community',
      title: 'You posted: Wrong way on I-10',
      detail: 'Wrong-way Driver',
      time: at,
      severity: 'high',
      location: null,
      href: '/dashboard/community',
    });
    expect(map({ kind: 'post', id: 'p2', postId: 'p2', title: 'Chat', category: 'other', createdAt: at }).severity).toBe('low');
  });

  it('names the post I commented on and shows my words', () => {
    expect(map({ kind: 'comment', id: 'c1', postId: 'p9', postTitle: 'Pothole on Central', excerpt: 'Still there today', createdAt: at })).toMatchObject({
      id: 'community:comment:c1',
      type: 'community',
      title: 'You commented on: Pothole on Central',
      detail: 'Still there today',
      severity: 'low',
      href: '/dashboard/community',
    });
  });

  it('makes a level reached an achievement', () => {
    expect(map({ kind: 'level', id: 'level-2', level: 2, levelName: 'Regular', createdAt: at })).toMatchObject({
      id: 'community:level:level-2',
      type: 'achievement',
      title: 'You reached level 2: Regular',
      time: at,
    });
  });
});

describe('activityFailureMessage', () => {
  const failed = (alerts: boolean, reports: boolean, community: boolean) => activityFailureMessage({ alerts, reports, community });

  it('names the source that failed, or says all of it is unavailable', () => {
    expect(failed(false, false, false)).toBeNull();
    expect(failed(true, false, false)).toBe('Alerts are not available right now.');
    expect(failed(false, true, false)).toBe('Reports are not available right now.');
    expect(failed(false, false, true)).toBe('Community activity is not available right now.');
    expect(failed(true, false, true)).toBe('Alerts and community activity are not available right now.');
    expect(failed(true, true, false)).toBe('Alerts and reports are not available right now.');
    expect(failed(true, true, true)).toBe('Your activity is not available right now.');
  });
});

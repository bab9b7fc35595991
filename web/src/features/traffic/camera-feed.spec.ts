import { cameraFeedReducer, initialCameraFeed, LOAD_FAILED_MESSAGE, type CameraFeedState } from './camera-feed';
import type { Camera } from './traffic.api';

const cam = (id: string, lastUpdated = '2024-03-05T22:07:00Z'): Camera => ({
  cameraId: id,
  roadway: 'I-10',
  direction: null,
  description: null,
  lat: null,
  lng: null,
  imageUrl: `https://x.test/${id}.jpg`,
  lastUpdated,
});
const t0 = 1_700_000_000_000;

function loaded(cameras: Camera[]): CameraFeedState {
  return cameraFeedReducer(cameraFeedReducer(initialCameraFeed, { type: 'load' }), { type: 'received', cameras, at: t0 });
}

describe('cameraFeedReducer', () => {
  it('goes from loading to loaded', () => {
    const s = loaded([cam('a')]);
    expect(s).toMatchObject({ status: 'ready', cameras: [cam('a')], refreshing: false, lastReplacedAt: t0 });
  });

  it('goes from loading to error with the spec message, and Try Again loads again', () => {
    const failed = cameraFeedReducer(initialCameraFeed, { type: 'failed', message: LOAD_FAILED_MESSAGE });
    expect(failed).toMatchObject({ status: 'error', error: LOAD_FAILED_MESSAGE });
    expect(LOAD_FAILED_MESSAGE.defaultMessage).toBe('Failed to load cameras. Please try again.');
    expect(cameraFeedReducer(failed, { type: 'load' })).toMatchObject({ status: 'loading', error: null });
  });

  it('keeps the list visible with a refreshing flag while refreshing', () => {
    const s = cameraFeedReducer(loaded([cam('a')]), { type: 'refresh' });
    expect(s).toMatchObject({ status: 'ready', refreshing: true, cameras: [cam('a')] });
  });

  it('keeps the same list (same object) when a refresh brings identical data within 5 minutes', () => {
    const before = loaded([cam('a')]);
    const after = cameraFeedReducer(cameraFeedReducer(before, { type: 'refresh' }), { type: 'received', cameras: [cam('a')], at: t0 + 60_000 });
    expect(after.cameras).toBe(before.cameras);
    expect(after).toMatchObject({ refreshing: false, lastReplacedAt: t0, generation: before.generation + 1 });
  });

  it('replaces the list when a refresh brings different data', () => {
    const after = cameraFeedReducer(loaded([cam('a')]), { type: 'received', cameras: [cam('a'), cam('b')], at: t0 + 60_000 });
    expect(after.cameras.map((c) => c.cameraId)).toEqual(['a', 'b']);
    expect(after.lastReplacedAt).toBe(t0 + 60_000);
  });

  it('replaces an unchanged list once more than 5 minutes have passed since the last replacement', () => {
    let s = loaded([cam('a')]);
    for (const minute of [1, 2, 3, 4, 5]) {
      s = cameraFeedReducer(s, { type: 'received', cameras: [cam('a')], at: t0 + minute * 60_000 });
      expect(s.lastReplacedAt).toBe(t0);
    }
    const fresh = [cam('a')];
    s = cameraFeedReducer(s, { type: 'received', cameras: fresh, at: t0 + 6 * 60_000 });
    expect(s.cameras).toBe(fresh);
    expect(s.lastReplacedAt).toBe(t0 + 6 * 60_000);
  });

  it('keeps the list when a refresh fails', () => {
    const s = cameraFeedReducer(cameraFeedReducer(loaded([cam('a')]), { type: 'refresh' }), { type: 'failed', message: LOAD_FAILED_MESSAGE });
    expect(s).toMatchObject({ status: 'ready', refreshing: false, cameras: [cam('a')], error: null });
  });

  it('loads an empty list as loaded (the empty state)', () => {
    expect(loaded([])).toMatchObject({ status: 'ready', cameras: [] });
  });
});

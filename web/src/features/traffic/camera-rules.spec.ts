import {
  cameraFeedKind,
  isDrawnSnapshot,
  CAMERAS_FORCE_REPLACE_MS,
  isUnavailable,
  markImageFailed,
  markImageLoaded,
  sameCameras,
  shouldReplaceList,
  sortCameras,
  UNAVAILABLE_PHRASES,
  unavailableByData,
} from './camera-rules';
import type { Camera } from './traffic.api';

const cam = (id: string, extra: Partial<Camera> = {}): Camera => ({
  cameraId: id,
  roadway: 'I-10',
  direction: 'Eastbound',
  description: 'I-10 EB at 7th St',
  lat: 33.46,
  lng: -112.06,
  imageUrl: `https://images.example.test/${id}.jpg`,
  lastUpdated: '2024-03-05T22:07:00Z',
  ...extra,
});
const none: ReadonlySet<string> = new Set();

describe('camera availability', () => {
  it('the spec lists exactly these phrases', () => {
    expect(UNAVAILABLE_PHRASES).toEqual([
      'no-image',
      'unavailable',
      'no live camera',
      'no live camera feed',
      'no camera feed',
      'not available',
      'offline',
      'maintenance',
      'out of service',
      'feed at this time',
    ]);
  });

  it('a camera with an image URL and a plain description is available', () => {
    expect(unavailableByData(cam('a'))).toBe(false);
    expect(isUnavailable(cam('a'), none)).toBe(false);
  });

  it.each([null, ''])('a camera without an image URL (%p) is unavailable', (imageUrl) => {
    expect(unavailableByData(cam('a', { imageUrl }))).toBe(true);
  });

  describe.each(UNAVAILABLE_PHRASES.map((p) => [p]))('the phrase %p', (phrase) => {
    const upper = phrase.toUpperCase();
    const mixed = phrase.replace(/(^|\s)(\w)/g, (_m, s: string, c: string) => s + c.toUpperCase());

    it('in the description, in any case, makes the camera unavailable', () => {
      for (const text of [phrase, upper, mixed]) {
        expect(unavailableByData(cam('a', { description: `I-17 NB at Bell Rd - ${text}` }))).toBe(true);
      }
    });

    it('in the image URL, in any case, makes the camera unavailable', () => {
      for (const text of [phrase, upper, mixed]) {
        expect(unavailableByData(cam('a', { imageUrl: `https://images.example.test/${encodeURI(text)}/cam.jpg`.replace(/%20/g, ' ') }))).toBe(true);
      }
    });
  });

  it('phrases elsewhere (roadway, direction) do not count', () => {
    expect(unavailableByData(cam('a', { roadway: 'Maintenance Rd', direction: 'offline' }))).toBe(false);
  });

  it('a failed image load marks the camera unavailable, and a later successful load clears it', () => {
    const camera = cam('a');
    let failed = markImageFailed(none, 'a');
    expect(isUnavailable(camera, failed)).toBe(true);
    expect(isUnavailable(cam('b'), failed)).toBe(false); // only that camera
    failed = markImageFailed(failed, 'a');
    expect([...failed]).toEqual(['a']);
    failed = markImageLoaded(failed, 'a');
    expect(isUnavailable(camera, failed)).toBe(false);
  });

  it('a successful load does not make a camera available that its data marks unavailable', () => {
    const offline = cam('a', { description: 'Camera offline' });
    expect(isUnavailable(offline, markImageLoaded(markImageFailed(none, 'a'), 'a'))).toBe(true);
  });

  it('returns the same set when nothing changes (no needless re-render)', () => {
    const failed = markImageFailed(none, 'a');
    expect(markImageFailed(failed, 'a')).toBe(failed);
    expect(markImageLoaded(none, 'a')).toBe(none);
  });
});

describe('sortCameras', () => {
  it('puts available cameras first, then orders by roadway A to Z, keeping server order on ties', () => {
    const list = [
      cam('1', { roadway: 'US 60' }),
      cam('2', { roadway: 'I-17', description: 'offline' }),
      cam('3', { roadway: 'Loop 101' }),
      cam('4', { roadway: 'I-10', imageUrl: null }),
      cam('5', { roadway: 'I-10' }),
      cam('6', { roadway: 'Loop 101' }),
      cam('7', { roadway: 'I-17' }),
    ];
    expect(sortCameras(list, none).map((c) => c.cameraId)).toEqual(['5', '7', '3', '6', '1', '4', '2']);
  });

  it('moves a camera whose image failed behind the available ones', () => {
    const list = [cam('1', { roadway: 'A' }), cam('2', { roadway: 'B' })];
    expect(sortCameras(list, new Set(['1'])).map((c) => c.cameraId)).toEqual(['2', '1']);
  });

  it('compares roadways without regard to case, and numbers by value', () => {
    const list = [cam('1', { roadway: 'loop 202' }), cam('2', { roadway: 'Loop 101' }), cam('3', { roadway: 'SR 51' }), cam('4', { roadway: 'SR 143' })];
    expect(sortCameras(list, none).map((c) => c.roadway)).toEqual(['Loop 101', 'loop 202', 'SR 51', 'SR 143']);
  });
});

describe('shouldReplaceList (refresh rule)', () => {
  const t0 = Date.UTC(2024, 2, 5, 22, 0);
  const current = [cam('a'), cam('b')];

  it('replaces when there is no list yet', () => {
    expect(shouldReplaceList(null, current, null, t0)).toBe(true);
  });

  it('keeps the list when the new data is the same and 5 minutes have not passed', () => {
    const copy = current.map((c) => ({ ...c }));
    expect(shouldReplaceList(current, copy, t0, t0 + 60_000)).toBe(false);
    expect(shouldReplaceList(current, copy, t0, t0 + CAMERAS_FORCE_REPLACE_MS)).toBe(false); // exactly 5 minutes: not "more than"
  });

  it('replaces when more than 5 minutes have passed, even if nothing changed', () => {
    expect(
      shouldReplaceList(
        current,
        current.map((c) => ({ ...c })),
        t0,
        t0 + CAMERAS_FORCE_REPLACE_MS + 1,
      ),
    ).toBe(true);
  });

  it.each<[string, Camera[]]>([
    ['a camera was added', [cam('a'), cam('b'), cam('c')]],
    ['a camera was removed', [cam('a')]],
    ['the order changed', [cam('b'), cam('a')]],
    ['an image URL changed', [cam('a'), cam('b', { imageUrl: 'https://images.example.test/b2.jpg' })]],
    ['a description changed', [cam('a', { description: 'Camera offline' }), cam('b')]],
    ['the update time changed', [cam('a', { lastUpdated: '2024-03-05T22:08:00Z' }), cam('b')]],
  ])('replaces at once when %s', (_what, next) => {
    expect(shouldReplaceList(current, next, t0, t0 + 1000)).toBe(true);
  });

  it('sameCameras compares every field', () => {
    expect(
      sameCameras(
        current,
        current.map((c) => ({ ...c })),
      ),
    ).toBe(true);
    expect(sameCameras(current, [cam('a'), cam('b', { lat: 1 })])).toBe(false);
  });
});

describe('isDrawnSnapshot', () => {
  it.each([
    ['/api/traffic/camera-images/cam-101.svg', true],
    ['/api/traffic/camera-images/cam-101.svg?t=123', true],
    ['https://az511.gov/map/Cctv/123', false],
    ['https://example.test/camera.jpg', false],
    [null, false],
  ])('%s -> %s', (url, drawn) => {
    expect(isDrawnSnapshot(url)).toBe(drawn);
  });
});

describe('cameraFeedKind', () => {
  const drawn = (id: string) => cam(id, { imageUrl: `/api/traffic/camera-images/${id}.svg` });
  it('is live only when an available camera shows a photo, illustrated when all show drawings', () => {
    expect(cameraFeedKind([cam('a'), cam('b')], none)).toBe('live');
    expect(cameraFeedKind([drawn('a'), drawn('b')], none)).toBe('illustrated');
    expect(cameraFeedKind([cam('a'), drawn('b')], none)).toBe('mixed');
    expect(cameraFeedKind([], none)).toBe('none');
  });

  it('leaves out cameras that show nothing: no image, an unavailable phrase, a failed load', () => {
    expect(cameraFeedKind([cam('a', { imageUrl: null }), drawn('b')], none)).toBe('illustrated');
    expect(cameraFeedKind([cam('a', { description: 'Camera offline' }), drawn('b')], none)).toBe('illustrated');
    expect(cameraFeedKind([cam('a'), drawn('b')], new Set(['a']))).toBe('illustrated');
    expect(cameraFeedKind([cam('a')], new Set(['a']))).toBe('none');
  });
});

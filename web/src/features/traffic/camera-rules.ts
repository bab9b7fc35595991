import type { Camera } from './traffic.api';

/**
 * The spec's camera rules, as plain functions (unit tested in camera-rules.spec.ts):
 * availability, display order, and when a refresh may replace the list on screen.
 */

/** Lowercased image URL or description containing any of these marks the camera unavailable. */
export const UNAVAILABLE_PHRASES = [
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
] as const;

export const CAMERAS_PAGE_SIZE = 9;
export const CAMERAS_AUTO_REFRESH_MS = 60_000;
export const CAMERAS_FORCE_REPLACE_MS = 300_000;

/** Unavailable by its data alone: no image URL, or a phrase in the URL or description. */
export function unavailableByData(camera: Pick<Camera, 'imageUrl' | 'description'>): boolean {
  if (!camera.imageUrl) return true;
  const haystacks = [camera.imageUrl.toLowerCase(), (camera.description ?? '').toLowerCase()];
  return UNAVAILABLE_PHRASES.some((phrase) => haystacks.some((h) => h.includes(phrase)));
}

/** Unavailable by its data, or because its image failed to load (and has not loaded since). */
export function isUnavailable(camera: Camera, failedImages: ReadonlySet<string>): boolean {
  return unavailableByData(camera) || failedImages.has(camera.cameraId);
}

/** A failed load marks the camera failed... */
export function markImageFailed(failed: ReadonlySet<string>, cameraId: string): ReadonlySet<string> {
  if (failed.has(cameraId)) return failed;
  return new Set(failed).add(cameraId);
}

/** ...and a later successful load of that image clears the mark. */
export function markImageLoaded(failed: ReadonlySet<string>, cameraId: string): ReadonlySet<string> {
  if (!failed.has(cameraId)) return failed;
  const next = new Set(failed);
  next.delete(cameraId);
  return next;
}

/** Available cameras first, then roadway A to Z; ties keep the server's order. */
export function sortCameras(cameras: readonly Camera[], failedImages: ReadonlySet<string>): Camera[] {
  return cameras
    .map((camera, index) => ({ camera, index, unavailable: isUnavailable(camera, failedImages) }))
    .sort(
      (a, b) =>
        Number(a.unavailable) - Number(b.unavailable) ||
        a.camera.roadway.localeCompare(b.camera.roadway, 'en', { sensitivity: 'base', numeric: true }) ||
        a.index - b.index,
    )
    .map((x) => x.camera);
}

/** Same cameras with the same fields, in the same order. */
export function sameCameras(a: readonly Camera[], b: readonly Camera[]): boolean {
  if (a.length !== b.length) return false;
  return a.every((x, i) => {
    const y = b[i];
    return (
      x.cameraId === y.cameraId &&
      x.roadway === y.roadway &&
      x.direction === y.direction &&
      x.description === y.description &&
      x.lat === y.lat &&
      x.lng === y.lng &&
      x.imageUrl === y.imageUrl &&
      x.lastUpdated === y.lastUpdated
    );
  });
}

/**
 * New data replaces the list on screen only if it differs from it, or if more than 5 minutes have passed since
 * the last replacement (so the 'Updated' times and any broken images get a fresh chance even when nothing changed).
 */
export function shouldReplaceList(current: readonly Camera[] | null, next: readonly Camera[], lastReplacedAt: number | null, now: number): boolean {
  if (current === null || lastReplacedAt === null) return true;
  return !sameCameras(current, next) || now - lastReplacedAt > CAMERAS_FORCE_REPLACE_MS;
}

/**
 * A still the traffic service draws itself (its /camera-images/<id>.svg: the demo cameras) rather than a photo from
 * a real camera. Such an image is labelled an illustration, never LIVE.
 */
export function isDrawnSnapshot(imageUrl: string | null | undefined): boolean {
  return Boolean(imageUrl && /\/camera-images\/[^/?#]+\.svg(?:[?#]|$)/.test(imageUrl));
}

/** What the cameras on screen show: photos from real cameras, the service's drawn stills, both, or neither. */
export type CameraFeedKind = 'live' | 'illustrated' | 'mixed' | 'none';

/**
 * The kind of feed the page header may claim, from the available cameras' images (an unavailable camera shows
 * nothing, so it claims nothing): the header says "Live" only when at least one card does.
 */
export function cameraFeedKind(cameras: readonly Camera[], failedImages: ReadonlySet<string>): CameraFeedKind {
  let live = 0;
  let drawn = 0;
  for (const camera of cameras) {
    if (isUnavailable(camera, failedImages)) continue;
    if (isDrawnSnapshot(camera.imageUrl)) drawn++;
    else live++;
  }
  if (live && drawn) return 'mixed';
  return live ? 'live' : drawn ? 'illustrated' : 'none';
}

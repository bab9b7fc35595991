import { useCallback, useMemo, useState } from 'react';
import { Spinner } from '@/common/Spinner';
import { CameraCard } from './CameraCard';
import {
  CAMERAS_PAGE_SIZE,
  cameraFeedKind,
  isUnavailable,
  markImageFailed,
  markImageLoaded,
  sortCameras,
  unavailableByData,
  type CameraFeedKind,
} from './camera-rules';
import { useCameraFeed } from './useCameraFeed';
import './cameras.css';

/**
 * The header's words for each kind of feed: "Live" only for photos from real cameras, never for the drawn stills
 * the cards label "Illustration". One place for the page's texts about what the pictures are.
 */
const FEED_TEXT: Record<CameraFeedKind, { subtitle: string; indicator: string | null; note: string | null }> = {
  live: { subtitle: 'Live views from freeway cameras across the Phoenix metro area', indicator: 'Live', note: null },
  mixed: {
    subtitle: 'Views from freeway cameras across the Phoenix metro area',
    indicator: 'Live',
    note: 'Cards marked LIVE show the camera’s latest photo; cards marked Illustration show a drawing of the scene.',
  },
  illustrated: {
    subtitle: 'Freeway camera locations across the Phoenix metro area',
    indicator: null,
    note: 'These pictures are illustrations of each camera’s scene, not photos from the cameras.',
  },
  none: { subtitle: 'Freeway camera locations across the Phoenix metro area', indicator: null, note: null },
};
/** Before the list is in, nothing is claimed about what the pictures are. */
const LOADING_SUBTITLE = 'Freeway cameras across the Phoenix metro area';

/** Traffic Cameras (spec part 1): loading, error, empty and loaded states; 9 at a time, available first. */
export function CamerasPage() {
  const feed = useCameraFeed();
  const [failed, setFailed] = useState<ReadonlySet<string>>(() => new Set());
  const [shownCount, setShownCount] = useState(CAMERAS_PAGE_SIZE);

  const onImageError = useCallback((id: string) => setFailed((f) => markImageFailed(f, id)), []);
  const onImageLoad = useCallback((id: string) => setFailed((f) => markImageLoaded(f, id)), []);

  const sorted = useMemo(() => sortCameras(feed.cameras, failed), [feed.cameras, failed]);
  const availableCount = useMemo(() => feed.cameras.filter((c) => !isUnavailable(c, failed)).length, [feed.cameras, failed]);
  const text = FEED_TEXT[useMemo(() => cameraFeedKind(feed.cameras, failed), [feed.cameras, failed])];

  if (feed.status === 'loading') {
    return (
      <section className="page cameras-page" aria-busy="true">
        <h1>Traffic Cameras</h1>
        <p className="muted">{LOADING_SUBTITLE}</p>
        <div className="center cameras-loading">
          <Spinner size="lg" label="Loading cameras" />
        </div>
      </section>
    );
  }

  if (feed.status === 'error') {
    return (
      <section className="page cameras-page">
        <div className="card center cameras-error" role="alert">
          <h1>Error Loading Cameras</h1>
          <p>{feed.error}</p>
          <button type="button" className="btn btn-primary" onClick={feed.retry}>
            Try Again
          </button>
        </div>
      </section>
    );
  }

  const total = sorted.length;
  const shown = sorted.slice(0, shownCount);
  const remaining = total - shown.length;

  return (
    <section className="page cameras-page" aria-busy={feed.refreshing}>
      <div className="page-header">
        <div>
          <h1>Traffic Cameras</h1>
          <p className="muted">{text.subtitle}</p>
        </div>
        <button type="button" className="btn btn-outline" onClick={feed.refresh} disabled={feed.refreshing}>
          {feed.refreshing ? 'Refreshing...' : 'Refresh'}
        </button>
      </div>

      {total === 0 ? (
        <div className="card empty-state">
          <h2>No cameras available</h2>
          <p>Camera feeds are currently unavailable. Please check back later.</p>
        </div>
      ) : (
        <>
          <div className="card camera-summary" role="status" aria-live="polite">
            <div>
              <h2>{availableCount} Cameras Available</h2>
              <p className="muted">
                Showing {shown.length} of {total} cameras
              </p>
              {text.note && <p className="muted small camera-feed-note">{text.note}</p>}
            </div>
            <div className="row">
              <span className="muted small">Auto-refresh every 60s</span>
              {text.indicator && (
                <span className="live-indicator">
                  <span className="live-dot" aria-hidden="true" />
                  {text.indicator}
                </span>
              )}
            </div>
          </div>

          <div className="grid-3 camera-grid">
            {shown.map((camera) => (
              <CameraCard
                key={camera.cameraId}
                camera={camera}
                unavailable={isUnavailable(camera, failed)}
                imageFailed={failed.has(camera.cameraId) && !unavailableByData(camera)}
                generation={feed.generation}
                onImageError={onImageError}
                onImageLoad={onImageLoad}
              />
            ))}
          </div>

          {remaining > 0 && (
            <div className="center camera-more">
              <button type="button" className="btn btn-outline" onClick={() => setShownCount((n) => n + CAMERAS_PAGE_SIZE)}>
                Show More Cameras ({remaining} remaining)
              </button>
            </div>
          )}
        </>
      )}
    </section>
  );
}

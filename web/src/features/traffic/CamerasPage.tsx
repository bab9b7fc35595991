import { useCallback, useMemo, useState } from 'react';
import { FormattedMessage, useIntl, type MessageDescriptor } from 'react-intl';
import { Spinner } from '@/common/Spinner';
import { defineMessages } from '@/i18n';
import { CameraCard } from './CameraCard';
import {
  CAMERAS_AUTO_REFRESH_MS,
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
const FEED_WORDS = defineMessages({
  liveSubtitle: { id: 'traffic.cameras.subtitle.live', defaultMessage: 'Live views from freeway cameras across the Phoenix metro area' },
  mixedSubtitle: { id: 'traffic.cameras.subtitle.mixed', defaultMessage: 'Views from freeway cameras across the Phoenix metro area' },
  locationsSubtitle: { id: 'traffic.cameras.subtitle.locations', defaultMessage: 'Freeway camera locations across the Phoenix metro area' },
  /** Before the list is in, nothing is claimed about what the pictures are. */
  loadingSubtitle: { id: 'traffic.cameras.subtitle.loading', defaultMessage: 'Freeway cameras across the Phoenix metro area' },
  live: { id: 'traffic.cameras.liveIndicator', defaultMessage: 'Live' },
  mixedNote: {
    id: 'traffic.cameras.note.mixed',
    defaultMessage: 'Cards marked LIVE show the camera’s latest photo; cards marked Illustration show a drawing of the scene.',
  },
  illustratedNote: {
    id: 'traffic.cameras.note.illustrated',
    defaultMessage: 'These pictures are illustrations of each camera’s scene, not photos from the cameras.',
  },
});

const FEED_TEXT: Record<CameraFeedKind, { subtitle: MessageDescriptor; indicator: MessageDescriptor | null; note: MessageDescriptor | null }> = {
  live: { subtitle: FEED_WORDS.liveSubtitle, indicator: FEED_WORDS.live, note: null },
  mixed: { subtitle: FEED_WORDS.mixedSubtitle, indicator: FEED_WORDS.live, note: FEED_WORDS.mixedNote },
  illustrated: { subtitle: FEED_WORDS.locationsSubtitle, indicator: null, note: FEED_WORDS.illustratedNote },
  none: { subtitle: FEED_WORDS.locationsSubtitle, indicator: null, note: null },
};

const TEXT = defineMessages({
  title: { id: 'traffic.cameras.title', defaultMessage: 'Traffic Cameras' },
  loading: { id: 'traffic.cameras.loading', defaultMessage: 'Loading cameras' },
  refresh: { id: 'traffic.cameras.refresh', defaultMessage: 'Refresh' },
  refreshing: { id: 'traffic.cameras.refreshing', defaultMessage: 'Refreshing...' },
  available: { id: 'traffic.cameras.available', defaultMessage: '{count, plural, other {# Cameras Available}}' },
  showing: { id: 'traffic.cameras.showing', defaultMessage: 'Showing {shown, number} of {total, plural, one {# camera} other {# cameras}}' },
  autoRefresh: { id: 'traffic.cameras.autoRefresh', defaultMessage: 'Auto-refresh every {seconds}s' },
  showMore: { id: 'traffic.cameras.showMore', defaultMessage: '{remaining, plural, other {Show More Cameras (# remaining)}}' },
});

/** Traffic Cameras (spec part 1): loading, error, empty and loaded states; 9 at a time, available first. */
export function CamerasPage() {
  const intl = useIntl();
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
        <h1>{intl.formatMessage(TEXT.title)}</h1>
        <p className="muted">{intl.formatMessage(FEED_WORDS.loadingSubtitle)}</p>
        <div className="center cameras-loading">
          <Spinner size="lg" label={intl.formatMessage(TEXT.loading)} />
        </div>
      </section>
    );
  }

  if (feed.status === 'error') {
    return (
      <section className="page cameras-page">
        <div className="card center cameras-error" role="alert">
          <h1>
            <FormattedMessage id="traffic.cameras.errorTitle" defaultMessage="Error Loading Cameras" />
          </h1>
          {feed.error && <p>{intl.formatMessage(feed.error)}</p>}
          <button type="button" className="btn btn-primary" onClick={feed.retry}>
            <FormattedMessage id="traffic.cameras.tryAgain" defaultMessage="Try Again" />
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
          <h1>{intl.formatMessage(TEXT.title)}</h1>
          <p className="muted">{intl.formatMessage(text.subtitle)}</p>
        </div>
        <button type="button" className="btn btn-outline" onClick={feed.refresh} disabled={feed.refreshing}>
          {intl.formatMessage(feed.refreshing ? TEXT.refreshing : TEXT.refresh)}
        </button>
      </div>

      {total === 0 ? (
        <div className="card empty-state">
          <h2>
            <FormattedMessage id="traffic.cameras.emptyTitle" defaultMessage="No cameras available" />
          </h2>
          <p>
            <FormattedMessage id="traffic.cameras.emptyText" defaultMessage="Camera feeds are currently unavailable. Please check back later." />
          </p>
        </div>
      ) : (
        <>
          <div className="card camera-summary" role="status" aria-live="polite">
            <div>
              <h2>{intl.formatMessage(TEXT.available, { count: availableCount })}</h2>
              <p className="muted">{intl.formatMessage(TEXT.showing, { shown: shown.length, total })}</p>
              {text.note && <p className="muted small camera-feed-note">{intl.formatMessage(text.note)}</p>}
            </div>
            <div className="row">
              <span className="muted small">{intl.formatMessage(TEXT.autoRefresh, { seconds: CAMERAS_AUTO_REFRESH_MS / 1000 })}</span>
              {text.indicator && (
                <span className="live-indicator">
                  <span className="live-dot" aria-hidden="true" />
                  {intl.formatMessage(text.indicator)}
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
                {intl.formatMessage(TEXT.showMore, { remaining })}
              </button>
            </div>
          )}
        </>
      )}
    </section>
  );
}

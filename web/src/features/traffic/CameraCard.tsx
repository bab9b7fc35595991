import { useRef } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { formatDateTime } from '@/common/time';
import { defineMessages } from '@/i18n';
import type { Camera } from './traffic.api';
import { isDrawnSnapshot } from './camera-rules';
import { CAMERA_TEXTS, cameraName, cameraTitle } from './camera-texts';
import { Camera as CameraIcon, Maximize2 } from 'lucide-react';

const TEXT = defineMessages({
  card: { id: 'traffic.card.label', defaultMessage: 'Camera {camera}' },
  illustrationHint: { id: 'traffic.card.illustrationHint', defaultMessage: 'A drawn picture of the scene, not a photo from the camera' },
  viewFullImage: { id: 'traffic.card.viewFullImage', defaultMessage: 'View full image' },
  viewFullOf: { id: 'traffic.card.viewFullOf', defaultMessage: 'View Full image of {camera}' },
});

export interface CameraCardProps {
  camera: Camera;
  /** By the availability rules, including a failed image load. */
  unavailable: boolean;
  /** The image failed to load; its URL is still tried again on each refresh. */
  imageFailed: boolean;
  /** Changes on each refresh, so a failed image gets another try. */
  generation: number;
  onImageError: (cameraId: string) => void;
  onImageLoad: (cameraId: string) => void;
}

/** Opens the image in a new tab with no opener and no referrer. */
function openImage(url: string) {
  window.open(url, '_blank', 'noopener,noreferrer');
}

export function CameraCard({ camera, unavailable, imageFailed, generation, onImageError, onImageLoad }: CameraCardProps) {
  const intl = useIntl();
  const title = cameraTitle(camera);
  const name = cameraName(camera, intl);
  const url = camera.imageUrl;
  const drawn = isDrawnSnapshot(url);
  // the refresh during which the image last failed: the hidden retry waits for the next one
  const failedAt = useRef<number | null>(null);
  // tried while the data says the camera has an image: visible when it loads, a hidden retry after a failure
  const tryImage = !!url && (!unavailable || (imageFailed && failedAt.current !== generation));
  return (
    <article className="card camera-card" aria-label={intl.formatMessage(TEXT.card, { camera: name })} data-testid="camera-card" data-unavailable={unavailable}>
      <div className="camera-frame">
        {tryImage && (
          <img
            key={imageFailed ? `retry-${generation}` : 'image'}
            src={url}
            alt={intl.formatMessage(drawn ? CAMERA_TEXTS.drawnView : CAMERA_TEXTS.photoView, { camera: name })}
            hidden={imageFailed}
            onError={() => {
              failedAt.current = generation;
              onImageError(camera.cameraId);
            }}
            onLoad={() => onImageLoad(camera.cameraId)}
          />
        )}
        {unavailable && (
          <div className="camera-placeholder">
            <span aria-hidden="true" className="camera-placeholder-icon">
              <CameraIcon size={32} />
            </span>
            <span>
              <FormattedMessage id="traffic.card.imageUnavailable" defaultMessage="Image unavailable" />
            </span>
          </div>
        )}
        {!unavailable && url && (
          <>
            {drawn ? (
              <span className="badge camera-live" title={intl.formatMessage(TEXT.illustrationHint)}>
                <FormattedMessage id="traffic.card.illustration" defaultMessage="Illustration" />
              </span>
            ) : (
              <span className="badge badge-live camera-live">
                <FormattedMessage id="traffic.card.live" defaultMessage="LIVE" />
              </span>
            )}
            <button
              type="button"
              className="camera-expand"
              aria-label={intl.formatMessage(TEXT.viewFullImage)}
              title={intl.formatMessage(TEXT.viewFullImage)}
              onClick={() => openImage(url)}
            >
              <Maximize2 aria-hidden="true" size={16} />
            </button>
          </>
        )}
      </div>
      <div className="camera-body">
        <h3>{camera.roadway}</h3>
        {camera.direction && <p className="camera-direction">{camera.direction}</p>}
        {camera.description && (
          <p className="camera-description muted" title={camera.description}>
            {camera.description}
          </p>
        )}
      </div>
      <footer className="camera-footer">
        <span className="muted small">
          <FormattedMessage id="traffic.card.updated" defaultMessage="Updated {time}" values={{ time: formatDateTime(camera.lastUpdated, intl) }} />
        </span>
        {!unavailable && url && (
          <a href={url} target="_blank" rel="noopener noreferrer" aria-label={intl.formatMessage(TEXT.viewFullOf, { camera: title })}>
            <FormattedMessage id="traffic.card.viewFull" defaultMessage="View Full" />
          </a>
        )}
      </footer>
    </article>
  );
}

import { useRef } from 'react';
import { formatDateTime } from '@/common/time';
import type { Camera } from './traffic.api';
import { isDrawnSnapshot } from './camera-rules';
import { Camera as CameraIcon } from 'lucide-react';

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
  const title = [camera.roadway, camera.direction].filter(Boolean).join(' ');
  const url = camera.imageUrl;
  const drawn = isDrawnSnapshot(url);
  // the refresh during which the image last failed: the hidden retry waits for the next one
  const failedAt = useRef<number | null>(null);
  // tried while the data says the camera has an image: visible when it loads, a hidden retry after a failure
  const tryImage = !!url && (!unavailable || (imageFailed && failedAt.current !== generation));
  return (
    <article
      className="card camera-card"
      aria-label={`Camera ${title}${camera.description ? `, ${camera.description}` : ''}`}
      data-testid="camera-card"
      data-unavailable={unavailable}
    >
      <div className="camera-frame">
        {tryImage && (
          <img
            key={imageFailed ? `retry-${generation}` : 'image'}
            src={url}
            alt={`${drawn ? 'Illustration of a traffic camera view' : 'Traffic camera view'}: ${title}${camera.description ? `, ${camera.description}` : ''}`}
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
            <span>Image unavailable</span>
          </div>
        )}
        {!unavailable && url && (
          <>
            {drawn ? (
              <span className="badge camera-live" title="A drawn picture of the scene, not a photo from the camera">
                Illustration
              </span>
            ) : (
              <span className="badge badge-live camera-live">LIVE</span>
            )}
            <button type="button" className="camera-expand" aria-label="View full image" title="View full image" onClick={() => openImage(url)}>
              <span aria-hidden="true">⤢</span>
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
        <span className="muted small">Updated {formatDateTime(camera.lastUpdated)}</span>
        {!unavailable && url && (
          <a href={url} target="_blank" rel="noopener noreferrer" aria-label={`View Full image of ${title}`}>
            View Full
          </a>
        )}
      </footer>
    </article>
  );
}

import { useEffect, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { formatDateTime } from '@/common/time';
import { isDrawnSnapshot, unavailableByData } from '@/features/traffic/camera-rules';
import type { Camera } from '@/features/traffic/traffic.api';
import { CAMERA_TEXTS, cameraTitle } from '@/features/traffic/camera-texts';
import { X } from 'lucide-react';

/** The camera's image, description, last update and a full-size link; 'Camera feed unavailable' when the image fails. */
export function CameraModal({ camera, onClose }: { camera: Camera; onClose: () => void }) {
  const intl = useIntl();
  const [failed, setFailed] = useState(false);
  const closeRef = useRef<HTMLButtonElement>(null);
  const title = cameraTitle(camera);
  const unavailable = failed || unavailableByData(camera);

  useEffect(() => {
    setFailed(false);
  }, [camera.cameraId]);

  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    closeRef.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      previous?.focus?.();
    };
  }, [onClose]);

  return (
    <div className="modal-backdrop" onClick={onClose}>
      <div className="modal camera-modal" role="dialog" aria-modal="true" aria-labelledby="camera-modal-title" onClick={(e) => e.stopPropagation()}>
        <div className="row-between">
          <h2 id="camera-modal-title">{title}</h2>
          <button
            ref={closeRef}
            type="button"
            className="btn btn-ghost btn-sm"
            aria-label={intl.formatMessage({ id: 'map.cameraModal.close', defaultMessage: 'Close' })}
            onClick={onClose}
          >
            <X aria-hidden="true" size={20} />
          </button>
        </div>
        <div className="camera-modal-frame">
          {unavailable || !camera.imageUrl ? (
            <div className="camera-modal-unavailable">
              <FormattedMessage id="map.cameraModal.unavailable" defaultMessage="Camera feed unavailable" />
            </div>
          ) : (
            <img
              src={camera.imageUrl}
              alt={intl.formatMessage(isDrawnSnapshot(camera.imageUrl) ? CAMERA_TEXTS.drawnView : CAMERA_TEXTS.photoView, { camera: title })}
              onError={() => setFailed(true)}
            />
          )}
        </div>
        {isDrawnSnapshot(camera.imageUrl) && (
          <p className="muted small">
            <FormattedMessage id="map.cameraModal.illustrationNote" defaultMessage="Illustration: a drawn picture of the scene, not a photo from the camera." />
          </p>
        )}
        {camera.description && <p>{camera.description}</p>}
        <p className="muted small">
          <FormattedMessage
            id="map.cameraModal.lastUpdated"
            defaultMessage="Last updated: {time}"
            values={{ time: formatDateTime(camera.lastUpdated, intl) }}
          />
        </p>
        {camera.imageUrl && !unavailable && (
          <a className="btn btn-outline btn-sm" href={camera.imageUrl} target="_blank" rel="noopener noreferrer">
            <FormattedMessage id="map.cameraModal.viewFullSize" defaultMessage="View Full Size" />
          </a>
        )}
      </div>
    </div>
  );
}

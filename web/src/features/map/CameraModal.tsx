import { useEffect, useRef, useState } from 'react';
import { formatDateTime } from '@/common/time';
import { isDrawnSnapshot, unavailableByData } from '@/features/traffic/camera-rules';
import type { Camera } from '@/features/traffic/traffic.api';
import { X } from 'lucide-react';

/** The camera's image, description, last update and a full-size link; 'Camera feed unavailable' when the image fails. */
export function CameraModal({ camera, onClose }: { camera: Camera; onClose: () => void }) {
  const [failed, setFailed] = useState(false);
  const closeRef = useRef<HTMLButtonElement>(null);
  const title = [camera.roadway, camera.direction].filter(Boolean).join(' ');
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
          <button ref={closeRef} type="button" className="btn btn-ghost btn-sm" aria-label="Close" onClick={onClose}>
            <X aria-hidden="true" size={20} />
          </button>
        </div>
        <div className="camera-modal-frame">
          {unavailable || !camera.imageUrl ? (
            <div className="camera-modal-unavailable">Camera feed unavailable</div>
          ) : (
            <img
              src={camera.imageUrl}
              alt={`${isDrawnSnapshot(camera.imageUrl) ? 'Illustration of a traffic camera view' : 'Traffic camera view'}: ${title}`}
              onError={() => setFailed(true)}
            />
          )}
        </div>
        {isDrawnSnapshot(camera.imageUrl) && <p className="muted small">Illustration: a drawn picture of the scene, not a photo from the camera.</p>}
        {camera.description && <p>{camera.description}</p>}
        <p className="muted small">Last updated: {formatDateTime(camera.lastUpdated)}</p>
        {camera.imageUrl && !unavailable && (
          <a className="btn btn-outline btn-sm" href={camera.imageUrl} target="_blank" rel="noopener noreferrer">
            View Full Size
          </a>
        )}
      </div>
    </div>
  );
}

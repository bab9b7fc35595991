import type { IntlShape } from 'react-intl';
import type { Camera } from '@beacon/contracts';
import { currentIntl, defineMessages } from '@/i18n';

/** What the cameras page and the map's camera window both say about a camera's picture. */
export const CAMERA_TEXTS = defineMessages({
  drawnView: { id: 'traffic.camera.drawnViewAlt', defaultMessage: 'Illustration of a traffic camera view: {camera}' },
  photoView: { id: 'traffic.camera.photoViewAlt', defaultMessage: 'Traffic camera view: {camera}' },
  withDescription: { id: 'traffic.camera.nameWithDescription', defaultMessage: '{name}, {description}' },
});

/** A camera's road and direction ("I-17 Northbound"): the service's words. */
export const cameraTitle = (camera: Pick<Camera, 'roadway' | 'direction'>): string => [camera.roadway, camera.direction].filter(Boolean).join(' ');

/** A camera's road and direction, then its description when it has one ("I-17 Northbound, I-17 NB at Camelback Rd"). */
export function cameraName(camera: Pick<Camera, 'roadway' | 'direction' | 'description'>, intl: IntlShape = currentIntl()): string {
  const name = cameraTitle(camera);
  return camera.description ? intl.formatMessage(CAMERA_TEXTS.withDescription, { name, description: camera.description }) : name;
}

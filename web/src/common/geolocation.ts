import toast from 'react-hot-toast';
import { GEOLOCATION_MESSAGES, GEOLOCATION_OPTIONS } from '@beacon/contracts';
import { currentIntl, defineMessages } from '@/i18n';

/** The spec's three toasts (GEOLOCATION_MESSAGES), in the reader's language. */
const TOASTS = defineMessages({
  detected: { id: 'common.geolocation.detected', defaultMessage: 'Location detected successfully' },
  failed: { id: 'common.geolocation.failed', defaultMessage: 'Unable to get your location. Please select manually on the map.' },
  unsupported: { id: 'common.geolocation.unsupported', defaultMessage: 'Geolocation is not supported by this browser' },
}) satisfies Record<keyof typeof GEOLOCATION_MESSAGES, unknown>;

export interface Position {
  lat: number;
  lng: number;
}

/** The browser's position with the spec's settings, as it reports it; null when it is not available. */
export function currentPosition(): Promise<Position | null> {
  if (!('geolocation' in navigator)) return Promise.resolve(null);
  return new Promise((resolve) => {
    navigator.geolocation.getCurrentPosition(
      (pos) => resolve({ lat: pos.coords.latitude, lng: pos.coords.longitude }),
      () => resolve(null),
      { ...GEOLOCATION_OPTIONS },
    );
  });
}

/**
 * The position for a form the user fills in: with the spec's three toasts, rounded to what the forms keep.
 * Resolves null when the position is not available.
 */
export async function detectLocation(): Promise<Position | null> {
  if (!('geolocation' in navigator)) {
    toast.error(currentIntl().formatMessage(TOASTS.unsupported));
    return null;
  }
  const pos = await currentPosition();
  if (!pos) {
    toast.error(currentIntl().formatMessage(TOASTS.failed));
    return null;
  }
  toast.success(currentIntl().formatMessage(TOASTS.detected));
  return { lat: round(pos.lat), lng: round(pos.lng) };
}

/** Six decimals is about 10 cm. */
const round = (n: number) => Math.round(n * 1e6) / 1e6;

import toast from 'react-hot-toast';

/**
 * The browser's position with the spec's settings (high accuracy, 10 s timeout, cached up to 5 minutes)
 * and its three toasts. Resolves null when the position is not available.
 */
export function detectLocation(): Promise<{ lat: number; lng: number } | null> {
  if (!('geolocation' in navigator)) {
    toast.error('Geolocation is not supported by this browser');
    return Promise.resolve(null);
  }
  return new Promise((resolve) => {
    navigator.geolocation.getCurrentPosition(
      (pos) => {
        toast.success('Location detected successfully');
        resolve({ lat: round(pos.coords.latitude), lng: round(pos.coords.longitude) });
      },
      () => {
        toast.error('Unable to get your location. Please select manually on the map.');
        resolve(null);
      },
      { enableHighAccuracy: true, timeout: 10_000, maximumAge: 300_000 },
    );
  });
}

const round = (n: number) => Math.round(n * 1e6) / 1e6;

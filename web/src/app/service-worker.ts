/** The app's one service worker (web/public/push-sw.js): Web Push, and the offline page for navigations. */
export const SERVICE_WORKER_URL = '/push-sw.js';

/**
 * Registers the service worker for every visitor once the page has loaded, so the offline page works before anyone
 * turns on notifications (turning them on registers the same worker: features/alerts/notifications.ts). A browser
 * without service workers, or one that refuses, simply has no offline page.
 */
export function registerServiceWorker() {
  if (!('serviceWorker' in navigator)) return;
  const register = () => void navigator.serviceWorker.register(SERVICE_WORKER_URL).catch(() => undefined);
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}

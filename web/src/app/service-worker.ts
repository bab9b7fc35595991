/** The app's one service worker (web/public/push-sw.js): Web Push, the offline page, and the kept app shell. */
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

/** The app's built files this page has loaded so far (its entry, styles and every section opened). */
function loadedAssets(): string[] {
  const own = (url: string) => {
    const u = new URL(url, window.location.href);
    return u.origin === window.location.origin && u.pathname.startsWith('/assets/') ? u.pathname : null;
  };
  const fromTags = [...document.querySelectorAll<HTMLScriptElement | HTMLLinkElement>('script[src], link[rel="stylesheet"], link[rel="modulepreload"]')].map(
    (el) => ('src' in el && el.src) || ('href' in el && el.href) || '',
  );
  const fetched = typeof performance.getEntriesByType === 'function' ? performance.getEntriesByType('resource').map((e) => e.name) : [];
  return [...new Set([...fromTags, ...fetched].map(own).filter((p): p is string => p !== null))];
}

async function tellServiceWorker(message: { type: string; assets?: string[] }) {
  if (!('serviceWorker' in navigator)) return;
  try {
    const registration = await navigator.serviceWorker.ready;
    registration.active?.postMessage(message);
  } catch {
    // no worker: nothing kept, nothing to forget
  }
}

/**
 * For a signed-in person (issue #40): asks the service worker to keep the app shell and the files this page has
 * loaded, and from now on every file the app downloads, so a reload offline opens the app with what it knew (the
 * kept alerts) instead of the offline page. Sections never opened stay unkept: offline, they show the offline page.
 */
export function keepAppShell() {
  void tellServiceWorker({ type: 'beacon:keep-shell', assets: loadedAssets() });
}

/** Signed out: the shell is no longer kept, and a navigation offline shows the offline page again. */
export function forgetAppShell() {
  void tellServiceWorker({ type: 'beacon:forget-shell' });
}

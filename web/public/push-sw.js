/* Beacon service worker: Web Push, the offline page, and the app shell kept for a signed-in person.
 *
 * Offline: on install it keeps /offline.html (and the icon it shows) in a cache of its own; a page navigation that
 * cannot reach the network gets that page instead of the browser's error.
 *
 * The app shell (issue #40): while a person is signed in, the page asks this worker to keep the app (index.html and
 * the built files it has loaded, message 'beacon:keep-shell'); from then on every built file the app downloads is kept
 * too (they are content-hashed, so a kept one is never stale). A navigation that cannot reach the network then gets
 * the kept app, which shows the person's kept alerts (the page keeps those itself, in localStorage) with its offline
 * indicator; a section never opened has no kept code and shows the app's offline page. A new build (a new index.html)
 * replaces the old build's files. Signing out forgets the shell ('beacon:forget-shell'), and navigations offline get
 * /offline.html again. API calls are never cached here: they always go to the network.
 *
 * Receives Web Push messages from the dispatcher (RFC 8291-encrypted; the browser decrypts them) and shows
 * the alert as a notification: the spec's alarm-emoji heading prefix, the message, View Alert and
 * Acknowledge buttons. Critical alerts (priority 10) stay until dismissed and vibrate; others close by
 * themselves. The push service drops messages older than their TTL (3600 s), so a stale alert is never shown.
 *
 * Payload (services/alerts/src/channels/push.sender.ts, PushPayload):
 *   { alertId, deliveryId, title, body, severity, category, type, url, priority, ttl, channel, icon, badge,
 *     requireInteraction, receipt: { url, delivered, ack } }
 * A digest (held alerts that came due together) has the same shape: a "{n} alerts in your area" title, one
 * line per alert, alertIds listing them, the most severe as alertId, and the user's alert list as url.
 * The receipt tokens prove to the alerts service that this browser received this delivery; they let the
 * worker report "shown" and "acknowledged" without a session.
 */
'use strict';

const TITLE_PREFIX = '\u{1F6A8} ';
const DEFAULT_ICON = '/icon-192.png';
const VIBRATE = [200, 100, 200];
/** Spec: notifications close by themselves after 10 s unless they require interaction (critical). */
const AUTO_CLOSE_MS = 10000;

const OFFLINE_CACHE = 'beacon-offline-v1';
const OFFLINE_URL = '/offline.html';

function cacheOfflinePage() {
  return caches
    .open(OFFLINE_CACHE)
    .then((cache) => cache.addAll([new Request(OFFLINE_URL, { cache: 'reload' }), DEFAULT_ICON]))
    .catch(() => undefined); // installing offline must not cost the user their push notifications; tried again on activate
}

self.addEventListener('install', (event) => {
  event.waitUntil(cacheOfflinePage().then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith('beacon-offline-') && k !== OFFLINE_CACHE).map((k) => caches.delete(k))))
      .then(() => caches.open(OFFLINE_CACHE))
      .then((cache) => cache.match(OFFLINE_URL))
      .then((cached) => (cached ? undefined : cacheOfflinePage()))
      .then(() => self.clients.claim()),
  );
});

const SHELL_CACHE = 'beacon-shell-v1';
/** The edge answers every client-side route with the same index.html: kept once, under '/'. */
const SHELL_URL = '/';
/** Known without waiting on the cache: a fetch event must choose synchronously whether to answer. */
let shellKept = false;
caches.has(SHELL_CACHE).then((kept) => {
  shellKept = shellKept || kept;
});

const isBuiltFile = (url) => url.origin === self.location.origin && url.pathname.startsWith('/assets/');
/** Navigations the app itself answers (not the API, sign-in or socket paths). */
const isAppPage = (url) => url.origin === self.location.origin && !/^\/(api|auth|socket\.io)(\/|$)/.test(url.pathname);

function builtFilesIn(html) {
  const found = [];
  for (const m of html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)) found.push(m[1]);
  return found;
}

function keepFiles(cache, paths) {
  return Promise.all(paths.map((path) => cache.match(path).then((hit) => hit || cache.add(path)).catch(() => undefined)));
}

/** Keeps an index.html answer as the shell; a different one is a new build, whose files replace the old build's. */
function keepShellPage(cache, response) {
  return response
    .clone()
    .text()
    .then((html) =>
      cache
        .match(SHELL_URL)
        .then((old) => (old ? old.text() : null))
        .then((oldHtml) => {
          if (oldHtml === html) return undefined;
          const dropOld =
            oldHtml === null
              ? Promise.resolve()
              : cache.keys().then((keys) => Promise.all(keys.map((k) => cache.delete(k))));
          return dropOld.then(() => cache.put(SHELL_URL, response)).then(() => keepFiles(cache, builtFilesIn(html)));
        }),
    );
}

function keepShell(assets) {
  shellKept = true;
  return caches
    .open(SHELL_CACHE)
    .then((cache) =>
      fetch(SHELL_URL, { cache: 'no-store', credentials: 'same-origin' })
        .then((res) => (res.ok ? keepShellPage(cache, res) : undefined))
        .catch(() => undefined)
        .then(() => keepFiles(cache, assets.filter((path) => isBuiltFile(new URL(path, self.location.origin))))),
    )
    .catch(() => undefined);
}

self.addEventListener('message', (event) => {
  const data = event.data || {};
  if (data.type === 'beacon:keep-shell') {
    event.waitUntil(keepShell(Array.isArray(data.assets) ? data.assets : []));
  } else if (data.type === 'beacon:forget-shell') {
    shellKept = false;
    event.waitUntil(caches.delete(SHELL_CACHE));
  }
});

function offlinePage() {
  return caches.match(OFFLINE_URL, { cacheName: OFFLINE_CACHE }).then((page) => page || Response.error());
}

function answerNavigation(request) {
  const url = new URL(request.url);
  return fetch(request)
    .then((response) => {
      const html = (response.headers.get('content-type') || '').includes('text/html');
      if (shellKept && response.ok && html && isAppPage(url)) {
        const copy = response.clone();
        caches.open(SHELL_CACHE).then((cache) => keepShellPage(cache, copy)).catch(() => undefined);
      }
      return response;
    })
    .catch(() => {
      if (!shellKept || !isAppPage(url)) return offlinePage();
      return caches.match(SHELL_URL, { cacheName: SHELL_CACHE }).then((shell) => shell || offlinePage());
    });
}

/** A built file: the kept copy, or the network's, kept for the next time. */
function answerBuiltFile(request) {
  return caches.open(SHELL_CACHE).then((cache) =>
    cache.match(request).then(
      (hit) =>
        hit ||
        fetch(request).then((response) => {
          if (response.ok && shellKept) cache.put(request, response.clone()).catch(() => undefined);
          return response;
        }),
    ),
  );
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  if (request.mode === 'navigate') {
    event.respondWith(answerNavigation(request));
    return;
  }
  if (shellKept && isBuiltFile(new URL(request.url))) event.respondWith(answerBuiltFile(request));
});

function readPayload(event) {
  if (!event.data) return null;
  try {
    return event.data.json();
  } catch (e) {
    return { title: 'Beacon alert', body: event.data.text() };
  }
}

function sendReceipt(data, kind) {
  const receipt = data && data.receipt;
  if (!receipt || !receipt.url || !receipt[kind]) return Promise.resolve();
  return fetch(receipt.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ event: kind, token: receipt[kind] }),
    keepalive: true,
  }).catch(() => undefined); // a receipt is best effort; the delivery is already recorded as sent
}

self.addEventListener('push', (event) => {
  const data = readPayload(event);
  if (!data) return;
  const critical = data.priority === 10 || data.severity === 'critical';
  const title = TITLE_PREFIX + (data.title || 'Beacon alert');
  const options = {
    body: data.body || '',
    // The language the text is in (the user's, or English): screen readers and fonts follow it.
    lang: data.lang || 'en',
    icon: data.icon || DEFAULT_ICON,
    badge: data.badge || DEFAULT_ICON,
    // One notification per alert: a repeat of the same alert (a retried send) replaces it instead of adding one.
    tag: data.alertId ? 'alert-' + data.alertId : undefined,
    renotify: false,
    requireInteraction: critical || !!data.requireInteraction,
    vibrate: VIBRATE,
    timestamp: Date.now(),
    data: {
      alertId: data.alertId,
      url: data.url || (data.alertId ? '/alerts/' + data.alertId : '/alerts'),
      receipt: data.receipt,
      critical: critical,
    },
    actions: [
      { action: 'view', title: 'View Alert' },
      { action: 'acknowledge', title: 'Acknowledge' },
    ],
  };
  event.waitUntil(
    Promise.all([
      self.registration.showNotification(title, options).then(() => {
        if (options.requireInteraction || !options.tag) return undefined;
        return new Promise((resolve) => setTimeout(resolve, AUTO_CLOSE_MS))
          .then(() => self.registration.getNotifications({ tag: options.tag }))
          .then((shown) => shown.forEach((n) => n.close()));
      }),
      sendReceipt(data, 'delivered'),
      // Tell open Beacon pages so they can refresh their alert list at once.
      self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((clients) => {
        clients.forEach((client) => client.postMessage({ type: 'beacon:push', alertId: data.alertId, severity: data.severity }));
      }),
    ]),
  );
});

function openAlert(url) {
  const target = new URL(url, self.location.origin).href;
  return self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((clients) => {
    for (const client of clients) {
      if (client.url === target && 'focus' in client) return client.focus();
    }
    for (const client of clients) {
      if (new URL(client.url).origin === self.location.origin && 'navigate' in client) {
        return client.navigate(target).then((c) => (c ? c.focus() : undefined));
      }
    }
    return self.clients.openWindow(target);
  });
}

self.addEventListener('notificationclick', (event) => {
  const data = event.notification.data || {};
  event.notification.close();
  if (event.action === 'acknowledge') {
    // Same as "I'm Safe" on the alerts screen: marks this user's deliveries of the alert read.
    event.waitUntil(sendReceipt(data, 'ack'));
    return;
  }
  // 'view' or a click on the notification body.
  event.waitUntil(openAlert(data.url || '/alerts'));
});

// The browser rotated the subscription: the page re-registers it with the alerts service on its next load
// (registration needs the user's session, which a service worker does not hold).
self.addEventListener('pushsubscriptionchange', () => {
  return self.clients.matchAll({ type: 'window' }).then((clients) => {
    clients.forEach((client) => client.postMessage({ type: 'beacon:pushsubscriptionchange' }));
  });
});

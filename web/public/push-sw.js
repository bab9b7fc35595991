/* Beacon service worker: Web Push, and the offline page.
 *
 * Offline: on install it keeps /offline.html (and the icon it shows) in a cache of its own; a page navigation that
 * cannot reach the network gets that page instead of the browser's error. Nothing else is cached: alerts must be
 * current, so API calls and the app's own files always go to the network.
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

self.addEventListener('fetch', (event) => {
  if (event.request.mode !== 'navigate' || event.request.method !== 'GET') return;
  event.respondWith(
    fetch(event.request).catch(() =>
      caches.match(OFFLINE_URL, { cacheName: OFFLINE_CACHE }).then((page) => page || Response.error()),
    ),
  );
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

import type { IntlShape } from 'react-intl';
import { PUSH_TITLE_PREFIX, type AlertSummary, type Language } from '@beacon/contracts';
import { formatDateTime } from '@/common/time';
import { speak, type SpeakableAlert } from '@/features/warnings/speech';
import { currentIntl, defineMessages } from '@/i18n';
import { severityName } from './labels';

/**
 * The browser side of alerting a person: notification permission, the Web Push subscription (through the
 * service worker /push-sw.js and the server's VAPID public key), an on-screen notification for an alert
 * that arrives while Beacon is open, and reading an alert aloud.
 */

export const PUSH_SW_URL = '/push-sw.js';
/** Local notifications of non-critical alerts close by themselves after 10 s (spec). */
export const AUTO_CLOSE_MS = 10_000;
export const VIBRATE_PATTERN = [200, 100, 200];

export type PushState = 'unsupported' | 'default' | 'denied' | 'granted';

export function notificationPermission(): PushState {
  if (typeof window === 'undefined' || !('Notification' in window)) return 'unsupported';
  return Notification.permission as PushState;
}

export const pushSupported = () => typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;

/** base64url -> bytes, for applicationServerKey. */
export function base64UrlToBytes(b64url: string): Uint8Array<ArrayBuffer> {
  const b64 = b64url
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(b64url.length / 4) * 4, '=');
  const raw = atob(b64);
  const out = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

function sameKey(a: ArrayBuffer | null | undefined, b: Uint8Array): boolean {
  if (!a) return false;
  const x = new Uint8Array(a);
  return x.length === b.length && x.every((v, i) => v === b[i]);
}

/**
 * Subscribes this browser to Web Push with the server's key and hands the subscription to `register`.
 * Asks for permission only when `ask` is true (from a click: browsers ignore or penalise unprompted asks).
 * A subscription made with an older server key is replaced.
 */
export async function ensurePushSubscription(opts: {
  ask: boolean;
  publicKey: () => Promise<string>;
  register: (sub: PushSubscriptionJSON) => Promise<unknown>;
}): Promise<PushState> {
  if (!pushSupported()) return 'unsupported';
  let permission = Notification.permission as PushState;
  if (permission === 'default' && opts.ask) permission = (await Notification.requestPermission()) as PushState;
  if (permission !== 'granted') return permission;

  const registration = await navigator.serviceWorker.register(PUSH_SW_URL);
  await navigator.serviceWorker.ready;
  const key = base64UrlToBytes(await opts.publicKey());
  let sub = await registration.pushManager.getSubscription();
  if (sub && !sameKey(sub.options.applicationServerKey, key)) {
    await sub.unsubscribe();
    sub = null;
  }
  sub ??= await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  await opts.register(sub.toJSON());
  return 'granted';
}

/** The tag the service worker uses too, so a push and an on-screen notification of one alert never show twice. */
export const notificationTag = (alertId: string) => `alert-${alertId}`;

/**
 * An on-screen notification for an alert that arrived while Beacon is open, when permission is granted.
 * Critical alerts stay until dismissed; others close after 10 s.
 */
export async function showAlertNotification(alert: AlertSummary & { language?: Language }): Promise<void> {
  if (notificationPermission() !== 'granted') return;
  const critical = alert.severity === 'critical';
  // the alert's own text, nothing of Beacon's but the siren: in the language it is written in
  const title = `${PUSH_TITLE_PREFIX}${alert.title}`;
  const options: NotificationOptions & { vibrate?: number[] } = {
    body: alert.message,
    lang: alert.language ?? 'en',
    tag: notificationTag(alert.id),
    icon: '/icon.svg',
    badge: '/icon.svg',
    requireInteraction: critical,
    vibrate: VIBRATE_PATTERN,
    data: { alertId: alert.id, url: `/alerts/${alert.id}` },
  };
  const registration = 'serviceWorker' in navigator ? await navigator.serviceWorker.getRegistration(PUSH_SW_URL).catch(() => undefined) : undefined;
  if (registration) {
    await registration.showNotification(title, options);
    if (!critical) {
      setTimeout(async () => {
        for (const n of await registration.getNotifications({ tag: options.tag })) n.close();
      }, AUTO_CLOSE_MS);
    }
    return;
  }
  const n = new Notification(title, options);
  n.onclick = () => {
    window.focus();
    window.location.assign(`/alerts/${alert.id}`);
  };
  if (!critical) setTimeout(() => n.close(), AUTO_CLOSE_MS);
}

/**
 * Voice alerts: reads an alert aloud as a new alert, in its language (the preferences' voice test too). The warning
 * layer (features/warnings) reads arrivals, updates and all-clears once per version across tabs.
 */
export function speakAlert(alert: SpeakableAlert) {
  speak(alert, 'new');
}

const COPY_WORDS = defineMessages({
  heading: { id: 'alerts.copy.heading', defaultMessage: '{severity} ALERT: {title}' },
  location: { id: 'alerts.copy.location', defaultMessage: 'Location: {place}' },
  issued: { id: 'alerts.copy.issued', defaultMessage: 'Issued: {at}' },
});

/**
 * The alert as text for the clipboard: its title and message as they are, with Beacon's words around them in the
 * reader's language (the one they copy it in).
 */
export function alertAsText(alert: AlertSummary, intl: IntlShape = currentIntl()): string {
  const severity = severityName(alert.severity, intl).toLocaleUpperCase(intl.locale);
  const lines = [
    `${PUSH_TITLE_PREFIX}${intl.formatMessage(COPY_WORDS.heading, { severity, title: alert.title })}`,
    alert.message,
    alert.locationName ? intl.formatMessage(COPY_WORDS.location, { place: alert.locationName }) : null,
    intl.formatMessage(COPY_WORDS.issued, { at: formatDateTime(alert.createdAt, intl) }),
    `${window.location.origin}/alerts/${alert.id}`,
  ];
  return lines.filter(Boolean).join('\n');
}

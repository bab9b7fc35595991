import { useCallback, useEffect, useState } from 'react';
import toast from 'react-hot-toast';
import { errorMessage, type ApiError } from '@/app/api';
import { currentIntl, defineMessages } from '@/i18n';
import { useLazyVapidPublicKeyQuery, useRegisterPushSubscriptionMutation } from './alerts.api';
import { ensurePushSubscription, notificationPermission, type PushState } from './notifications';

const PUSH_WORDS = defineMessages({
  enabled: { id: 'alerts.push.enabled', defaultMessage: 'Notifications enabled' },
  blocked: {
    id: 'alerts.push.blocked',
    defaultMessage: 'Notifications are blocked. Allow them in your browser settings to get alerts while Beacon is closed.',
  },
  unsupportedService: {
    id: 'alerts.push.unsupportedService',
    defaultMessage: 'This browser delivers notifications through a push service Beacon does not accept. Chrome, Edge, Firefox and Safari work.',
  },
  tooMany: { id: 'alerts.push.tooMany', defaultMessage: 'Too many attempts. Please try again later.' },
  failed: { id: 'alerts.push.failed', defaultMessage: 'Could not turn on push notifications in this browser' },
});

/**
 * Web Push for this browser: when permission is already granted the subscription is (re)registered
 * quietly; `enable()` asks for permission from a click.
 */
export function usePushRegistration() {
  const [state, setState] = useState<PushState>(() => notificationPermission());
  const [busy, setBusy] = useState(false);
  const [getKey] = useLazyVapidPublicKeyQuery();
  const [register] = useRegisterPushSubscriptionMutation();

  const run = useCallback(
    async (ask: boolean) => {
      setBusy(true);
      try {
        const next = await ensurePushSubscription({
          ask,
          publicKey: async () => (await getKey(undefined, true).unwrap()).publicKey,
          register: (sub) => register(sub).unwrap(),
        });
        setState(next);
        if (ask && next === 'granted') toast.success(currentIntl().formatMessage(PUSH_WORDS.enabled));
        if (ask && next === 'denied') toast.error(currentIntl().formatMessage(PUSH_WORDS.blocked));
      } catch (err) {
        console.error('Push registration failed', err);
        if (ask) toast.error(pushRegistrationError(err));
      } finally {
        setBusy(false);
      }
    },
    [getKey, register],
  );

  useEffect(() => {
    if (notificationPermission() === 'granted') void run(false);
    // The service worker says the browser rotated the subscription: register the new one.
    const onMessage = (e: MessageEvent) => {
      if (e.data?.type === 'beacon:pushsubscriptionchange' && notificationPermission() === 'granted') void run(false);
    };
    navigator.serviceWorker?.addEventListener('message', onMessage);
    return () => navigator.serviceWorker?.removeEventListener('message', onMessage);
  }, [run]);

  return { state, busy, enable: () => run(true) };
}

/**
 * Beacon accepts only the push services of the major browsers (PUSH_ENDPOINT_HOSTS): a browser using another one
 * cannot be fixed by trying again, so say what works instead.
 */
function pushRegistrationError(err: unknown): string {
  const code = (err as Partial<ApiError> | undefined)?.code;
  const intl = currentIntl();
  if (code === 'unsupported_push_service') return intl.formatMessage(PUSH_WORDS.unsupportedService);
  if (code === 'rate_limited') return errorMessage(err, intl.formatMessage(PUSH_WORDS.tooMany));
  return intl.formatMessage(PUSH_WORDS.failed);
}

import { useCallback, useEffect, useState } from 'react';
import toast from 'react-hot-toast';
import { errorMessage, type ApiError } from '@/app/api';
import { useLazyVapidPublicKeyQuery, useRegisterPushSubscriptionMutation } from './alerts.api';
import { ensurePushSubscription, notificationPermission, type PushState } from './notifications';

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
        if (ask && next === 'granted') toast.success('Notifications enabled');
        if (ask && next === 'denied') toast.error('Notifications are blocked. Allow them in your browser settings to get alerts while Beacon is closed.');
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
  if (code === 'unsupported_push_service') {
    return 'This browser delivers notifications through a push service Beacon does not accept. Chrome, Edge, Firefox and Safari work.';
  }
  if (code === 'rate_limited') return errorMessage(err, 'Too many attempts. Please try again later.');
  return 'Could not turn on push notifications in this browser';
}

import { useCallback } from 'react';
import { useStore } from 'react-redux';
import { isStaff, type AlertSummary, type NewAlertEvent, type ReaderAlertEvent } from '@beacon/contracts';
import { useSocketEvent } from '@/app/socket';
import { api } from '@/app/api';
import type { AppStore } from '@/app/store';
import { applyAlertUpdate, applyNewUserAlert, isInMyAlerts } from './alerts.api';

/**
 * User screens: a new alert for me is prepended (and so is an alert whose update's area takes me in); `onArrive` may
 * notify (browser notification, voice), but
 * not for a held alert: the person asked for quiet (quiet hours, a digest, a quiet weekend), so it is listed
 * silently and its messages come later.
 * A staff member's socket (any staff role) is also in the admins room, which hears of EVERY new alert, so for staff
 * the event cannot say "this one is for you": their list is read again instead (it holds only alerts delivered to them).
 */
export function useLiveUserAlerts(onArrive?: (alert: AlertSummary) => void) {
  const store = useStore() as AppStore;
  const onNew = useCallback(
    (e: NewAlertEvent) => {
      if (isStaff(store.getState().auth.user?.role)) {
        store.dispatch(api.util.invalidateTags(['MyAlerts']));
        return;
      }
      const alert = withoutHeld(e);
      applyNewUserAlert(store.dispatch, store.getState(), alert);
      if (!e.held) onArrive?.(alert);
    },
    [store, onArrive],
  );
  const onUpdated = useCallback(
    (s: ReaderAlertEvent) => {
      const state = store.getState();
      // An update whose new area takes me in reaches my screen as the alert does when it is new to me.
      const newToMe = !isStaff(state.auth.user?.role) && s.status === 'active' && s.version > 1 && !isInMyAlerts(state, s.id);
      applyAlertUpdate(store.dispatch, state, s);
      if (newToMe) {
        applyNewUserAlert(store.dispatch, store.getState(), s);
        onArrive?.(s);
      }
    },
    [store, onArrive],
  );
  useSocketEvent('alert:new', onNew);
  useSocketEvent('alert:updated', onUpdated);
}

/** `held` describes this delivery to this socket, not the alert: it must not reach the cached alert. */
export function withoutHeld({ held: _held, ...alert }: NewAlertEvent): ReaderAlertEvent {
  return alert;
}

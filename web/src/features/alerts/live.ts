import { useCallback, useRef } from 'react';
import { useStore } from 'react-redux';
import { isStaff, type NewAlertEvent, type ReaderAlertEvent } from '@beacon/contracts';
import { useSocketEvent } from '@/app/socket';
import { api } from '@/app/api';
import type { AppDispatch, AppStore } from '@/app/store';
import { alertsApi, applyAlertUpdate, applyNewUserAlert, isInMyAlerts } from './alerts.api';

/** What the app-wide warning layer (features/warnings) is told of the person's alerts as they happen. */
export interface LiveAlertHandlers {
  /**
   * A new alert for me, or one whose update's new area takes me in (`viaUpdate`). `held`: the person asked for quiet
   * (quiet hours, a digest, a quiet weekend), so it is listed silently and its messages come later.
   */
  onNew?: (alert: ReaderAlertEvent, how: { held: boolean; viaUpdate: boolean }) => void;
  /** A new version or the end of an alert of mine (an update, the all-clear, a cancellation, the expiry). `listed`: in my cached list. */
  onChange?: (alert: ReaderAlertEvent, how: { listed: boolean }) => void;
}

/**
 * The person's alerts, live, for every screen: a new alert for me is prepended to my cached lists (and so is an
 * alert whose update's area takes me in), a change reaches every cached copy, and the handlers hear of both.
 * Mounted once, by the warning layer (features/warnings), so each event is handled once per tab.
 * A staff member's socket (any staff role) is also in the admins room, which hears of EVERY new alert, so for staff
 * the event cannot say "this one is for you": their list is read again instead (it holds only alerts delivered to
 * them), and only changes of alerts in their list are theirs.
 */
export function useLiveUserAlerts(handlers: LiveAlertHandlers = {}) {
  const store = useStore() as AppStore;
  // The handlers change with the preferences; the socket subscription does not need to.
  const latest = useRef(handlers);
  latest.current = handlers;
  const onNew = useCallback(
    (e: NewAlertEvent) => {
      if (isStaff(store.getState().auth.user?.role)) {
        store.dispatch(api.util.invalidateTags(['MyAlerts']));
        return;
      }
      const alert = withoutHeld(e);
      applyNewUserAlert(store.dispatch, store.getState(), alert);
      latest.current.onNew?.(alert, { held: !!e.held, viaUpdate: false });
    },
    [store],
  );
  const onUpdated = useCallback(
    (s: ReaderAlertEvent) => {
      const state = store.getState();
      const staff = isStaff(state.auth.user?.role);
      const listed = isInMyAlerts(state, s.id);
      // An update whose new area takes me in reaches my screen as the alert does when it is new to me.
      const newToMe = !staff && s.status === 'active' && s.version > 1 && !listed;
      applyAlertUpdate(store.dispatch, state, s);
      if (newToMe) {
        applyNewUserAlert(store.dispatch, store.getState(), s);
        latest.current.onNew?.(s, { held: false, viaUpdate: true });
      } else if (!staff || listed) {
        latest.current.onChange?.(s, { listed });
      }
    },
    [store],
  );
  useSocketEvent('alert:new', onNew);
  useSocketEvent('alert:updated', onUpdated);
}

/** `held` describes this delivery to this socket, not the alert: it must not reach the cached alert. */
export function withoutHeld({ held: _held, ...alert }: NewAlertEvent): ReaderAlertEvent {
  return alert;
}

/** The unread count read again (after an arrival, an end, "I'm Safe"), without refetching the lists it shares a tag with. */
export function refreshUnreadCount(dispatch: AppDispatch) {
  void dispatch(alertsApi.endpoints.unreadCount.initiate(undefined, { subscribe: false, forceRefetch: true }));
}

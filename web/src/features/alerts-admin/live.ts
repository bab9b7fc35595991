import { useCallback, useEffect, useState } from 'react';
import { useStore } from 'react-redux';
import type { AlertProgress, AlertSummary, NewAlertEvent } from '@beacon/contracts';
import { getSocket, useSocketEvent } from '@/app/socket';
import { api } from '@/app/api';
import type { AppStore } from '@/app/store';
import { applyAlertUpdate, withoutHeld } from '@/features/alerts';
import { applyNewAdminAlert, applyProgress } from './alerts-admin.api';

/**
 * Admin screens: delivery progress, new alerts and status changes go straight into the RTK Query cache; a status
 * change also reads again what its event does not carry. A finished dispatch refreshes the dashboard numbers once.
 */
export function useLiveAdminAlerts() {
  const store = useStore() as AppStore;
  const onProgress = useCallback(
    (p: AlertProgress) => {
      applyProgress(store.dispatch, store.getState(), p);
      if (p.done) store.dispatch(api.util.invalidateTags(['AlertStats']));
      refreshOperations(store, p.alertId, p.done);
    },
    [store],
  );
  const onNew = useCallback(
    (e: NewAlertEvent) => {
      applyNewAdminAlert(store.dispatch, store.getState(), withoutHeld(e));
      store.dispatch(api.util.invalidateTags(['AlertStats']));
    },
    [store],
  );
  const onUpdated = useCallback(
    (s: AlertSummary) => {
      applyAlertUpdate(store.dispatch, store.getState(), s);
      // The event carries the status, not what came with it (issue #38: the approval asked for or decided, the send
      // time, a break-glass send): the alert, its audit and the lists (an alert awaiting approval joins that filter and
      // its count) are read again, so a second admin's open console shows it at once.
      store.dispatch(api.util.invalidateTags([{ type: 'Alert', id: s.id }, { type: 'Alert', id: 'LIST' }, 'AlertStats']));
    },
    [store],
  );
  useSocketEvent('alert:progress', onProgress);
  useSocketEvent('alert:new', onNew);
  useSocketEvent('alert:updated', onUpdated);
}

/** An open operations view is read again at most this often while progress events arrive (a few a second per alert). */
export const OPERATIONS_REFRESH_MS = 1000;
const lastOperationsRefresh = new Map<string, number>();
const trailingOperationsRefresh = new Map<string, ReturnType<typeof setTimeout>>();

/**
 * Progress moved: the alert's operations view (if one is open: RTK Query reads only subscribed tags) is read again,
 * at most once per OPERATIONS_REFRESH_MS, with a trailing read so the last event of a burst is never left out.
 */
function refreshOperations(store: AppStore, alertId: string, done: boolean) {
  const wait = OPERATIONS_REFRESH_MS - (Date.now() - (lastOperationsRefresh.get(alertId) ?? 0));
  if (!done && wait > 0) {
    if (!trailingOperationsRefresh.has(alertId))
      trailingOperationsRefresh.set(
        alertId,
        setTimeout(() => refreshOperations(store, alertId, true), wait),
      );
    return;
  }
  clearTimeout(trailingOperationsRefresh.get(alertId));
  trailingOperationsRefresh.delete(alertId);
  lastOperationsRefresh.set(alertId, Date.now());
  store.dispatch(api.util.invalidateTags([{ type: 'AlertOperations', id: alertId }]));
}

/** Asks the gateway for one alert's progress events (again after every reconnect). */
export function useWatchAlerts(alertIds: readonly string[]) {
  const key = alertIds.join(',');
  useEffect(() => {
    if (!key) return;
    const socket = getSocket();
    const watch = () => key.split(',').forEach((id) => socket.emit('alert:watch', id));
    if (socket.connected) watch();
    socket.on('connect', watch);
    return () => {
      socket.off('connect', watch);
    };
  }, [key]);
}

/** Whether the live connection is up, for a "Live" badge and a polling fallback. */
export function useSocketConnected(): boolean {
  const [connected, setConnected] = useState(() => getSocket().connected);
  useEffect(() => {
    const socket = getSocket();
    const up = () => setConnected(true);
    const down = () => setConnected(false);
    socket.on('connect', up);
    socket.on('disconnect', down);
    setConnected(socket.connected);
    return () => {
      socket.off('connect', up);
      socket.off('disconnect', down);
    };
  }, []);
  return connected;
}

/** How often a screen polls while the live connection is down. */
export const FALLBACK_POLL_MS = 3000;

/**
 * The polling fallback of the live screens: an RTK Query `pollingInterval` that is 0 while the socket is up
 * (events keep the cache current) and FALLBACK_POLL_MS while it is down and the screen has something to follow.
 */
export function useFallbackPolling(following = true): number {
  const connected = useSocketConnected();
  return following && !connected ? FALLBACK_POLL_MS : 0;
}

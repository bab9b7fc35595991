import { useEffect } from 'react';
import { useStore } from 'react-redux';
import { api } from '@/app/api';
import { useAppSelector } from '@/app/hooks';
import { getSocket } from '@/app/socket';
import { forgetAppShell, keepAppShell } from '@/app/service-worker';
import type { AppStore } from '@/app/store';
import { auth } from '@/features/auth/auth-client';
import { selectUser } from '@/features/auth/auth.slice';
import { noteUpdated, resetConnectivity, watchBrowserConnection } from './connectivity';
import { forgetKeptAnswers, lastKeptUpdate } from './kept-responses';
import { keepLiveChanges } from './keep-live-changes';
import { OfflineIndicator } from './OfflineIndicator';

/**
 * Offline that keeps what it knew (issue #40), mounted once in the app's shell: the offline indicator; for a signed-in
 * person, their answers kept as they change, the service worker asked to keep the app's files for a reload offline,
 * and a catch-up when the connection comes back (the browser back online, the socket reconnected): their alert lists
 * and counts are fetched again, so an alert sent meanwhile appears. Signing out forgets all of it.
 */
export function OfflineKeeper() {
  const store = useStore() as AppStore;
  const person = useAppSelector(selectUser)?.id ?? null;

  useEffect(() => {
    const catchUp = () => {
      if (store.getState().auth.user) store.dispatch(api.util.invalidateTags(['MyAlerts']));
    };
    return watchBrowserConnection(catchUp);
  }, [store]);

  useEffect(() => {
    const { data } = auth.onAuthStateChange((event) => {
      if (event !== 'SIGNED_OUT') return;
      forgetKeptAnswers();
      resetConnectivity();
      forgetAppShell();
    });
    return () => data.subscription.unsubscribe();
  }, []);

  useEffect(() => {
    if (!person) return;
    const kept = lastKeptUpdate(person);
    if (kept !== null) noteUpdated(kept);
    keepAppShell();
    const stopKeeping = keepLiveChanges(store);

    // A socket that comes back after dropping missed whatever was sent meanwhile; so did the first connection, when a
    // list was read before it joined the person's room (the socket's client loads after the first paint).
    const socket = getSocket();
    let dropped = false;
    let first = true;
    const onDisconnect = () => {
      dropped = true;
    };
    const onConnect = () => {
      const missed = dropped || (first && api.util.selectInvalidatedBy(store.getState(), ['MyAlerts']).length > 0);
      dropped = false;
      first = false;
      if (missed) store.dispatch(api.util.invalidateTags(['MyAlerts']));
    };
    socket.on('disconnect', onDisconnect);
    socket.on('connect', onConnect);
    return () => {
      stopKeeping();
      socket.off('disconnect', onDisconnect);
      socket.off('connect', onConnect);
    };
  }, [person, store]);

  return <OfflineIndicator />;
}

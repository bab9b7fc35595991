import { useCallback, useEffect, useLayoutEffect } from 'react';
import { useStore } from 'react-redux';
import { DEFAULT_PREFERENCES, SEVERITIES, type AlertPreferences, type ReaderAlertEvent, type UserAlert } from '@beacon/contracts';
import type { AppStore } from '@/app/store';
import { serverNow } from '@/common/server-clock';
import { alertsApi, useMyAlertsInfiniteQuery, usePreferencesQuery, useUnreadCountQuery, type MyAlertsArgs } from '@/features/alerts/alerts.api';
import { refreshUnreadCount, useLiveUserAlerts } from '@/features/alerts/live';
import { showAlertNotification } from '@/features/alerts/notifications';
import {
  announce,
  announcementsFor,
  acknowledgeAnnouncements,
  currentAnnouncements,
  firstListRead,
  markHandled,
  handledInTab,
  type AnnouncementKind,
} from './announcements';
import { attentionLevel, beep, vibrate, wantsAttention } from './attention';
import { addToRecord, announcedAnyVersion, claimOnce, hasRecord, readRecord, recordKey, versionKey } from './once';
import { heldByPreferences } from './quiet';
import { speak, warmUpVoices } from './speech';
import { isEnded } from './words';

/** The same arguments as /alerts' unfiltered list, so the layer and that page share one cached list. */
export const WARNING_LIST_ARGS: MyAlertsArgs = { severity: '', search: '', unread: false };

/**
 * Alerts caught up at once (after a reconnect) that are announced with sound and voice; the others are listed and
 * counted quietly, so that a return after a long absence does not read ten alerts aloud in a row. Critical ones come
 * first.
 */
export const CATCH_UP_MAX = 3;

type Announced = ReaderAlertEvent | UserAlert;

/**
 * The app-wide warning layer's logic for one signed-in person: hears their alerts live (the one listener of the app),
 * catches up on those it missed when their list is read again, and for each alert version decides what to show (a
 * banner; the takeover for a critical alert in effect) and, in the one tab that claims the version, what to sound,
 * vibrate, notify and read aloud.
 */
export function useWarnings(userId: string) {
  const store = useStore() as AppStore;
  const prefsQuery = usePreferencesQuery();
  const list = useMyAlertsInfiniteQuery(WARNING_LIST_ARGS);
  // Kept subscribed while the layer is mounted: the header's badge reads it, and each arrival reads it again.
  useUnreadCountQuery();
  // Before anything is drawn: another person's warnings never show, even for a frame.
  useLayoutEffect(() => announcementsFor(userId), [userId]);
  useEffect(warmUpVoices, []);

  /** The preferences as they are now; Beacon's defaults when they could not be read (voice is on by default). */
  const preferences = useCallback((): AlertPreferences | undefined => {
    const q = alertsApi.endpoints.preferences.select()(store.getState());
    return q.data ?? (q.isError ? DEFAULT_PREFERENCES : undefined);
  }, [store]);

  const handle = useCallback(
    (alert: Announced, kind: AnnouncementKind, held: boolean) => {
      const key = versionKey(alert);
      if (!markHandled(key)) return;
      refreshUnreadCount(store.dispatch);
      const inEffect = alert.status === 'active' && !isEnded(alert, serverNow());
      const takeover =
        kind !== 'all_clear' && kind !== 'ended' && inEffect && alert.severity === 'critical' && !held && !hasRecord(userId, 'acknowledged', key);
      announce({ key, kind, alert, held, takeover });
      if (held || kind === 'ended') return;
      void claimOnce(userId, 'announced', key).then((mine) => {
        if (!mine) return; // another tab of this browser sounds and speaks it
        const prefs = preferences();
        if (wantsAttention(prefs)) {
          const level = attentionLevel(alert.severity, kind === 'all_clear');
          beep(level);
          vibrate(level);
        }
        if (kind === 'new' || kind === 'update') void showAlertNotification(alert).catch((err) => console.error('Notification failed', err));
        if (prefs?.methods.voice) speak(alert, kind);
      });
    },
    [store, userId, preferences],
  );

  const heldNow = useCallback(
    (alert: Announced, kind: 'new' | 'update' | 'all_clear') => {
      const prefs = preferences();
      return !!prefs && heldByPreferences(prefs, { severity: alert.severity, kind }, serverNow());
    },
    [preferences],
  );

  useLiveUserAlerts({
    onNew: (alert, { held, viaUpdate }) => {
      // An update that brings an alert to me: news, unless this browser announced an earlier version of it.
      const kind = viaUpdate && announcedAnyVersion(userId, alert.id) ? 'update' : 'new';
      handle(alert, kind, viaUpdate ? heldNow(alert, kind) : held);
    },
    onChange: (alert, { listed }) => {
      if (alert.status === 'active') handle(alert, 'update', heldNow(alert, 'update'));
      else if (alert.status === 'all_clear') handle(alert, 'all_clear', heldNow(alert, 'all_clear'));
      else if (listed || announcedAnyVersion(userId, alert.id) || currentAnnouncements().some((a) => a.alert.id === alert.id)) {
        // cancelled or expired: an alert the person knows of turns calm on screen, without a sound
        handle(alert, 'ended', true);
      } else refreshUnreadCount(store.dispatch);
    },
  });

  // Catch-up. The tab's first read of the list is its baseline: what the person's feed already held is in their list
  // and their count, not news (a person signing in during a long emergency is not read every alert of it), except a
  // critical version this browser announced and the person never acknowledged, which takes the screen again, silently.
  // Every later read (a reconnect, a staff member's list read again) announces its unread alerts in effect that this
  // browser never announced.
  const prefsReady = prefsQuery.isSuccess || prefsQuery.isError;
  useEffect(() => {
    if (!list.data || !prefsReady) return;
    const now = serverNow();
    const seen = new Set<string>();
    const pending = list.data.pages
      .flatMap((p) => p.items)
      .filter((a) => !seen.has(a.id) && seen.add(a.id) && a.status === 'active' && !a.read && !isEnded(a, now) && !handledInTab(versionKey(a)))
      .sort((a, b) => SEVERITIES.indexOf(b.severity) - SEVERITIES.indexOf(a.severity) || b.createdAt.localeCompare(a.createdAt));
    const baseline = firstListRead();
    let loud = 0;
    for (const a of pending) {
      const key = versionKey(a);
      const kind = a.lastChange?.kind === 'update' ? 'update' : 'new';
      if (hasRecord(userId, 'announced', key)) {
        if (a.severity === 'critical' && !hasRecord(userId, 'acknowledged', key) && markHandled(key))
          announce({ key, kind, alert: a, held: false, takeover: true });
        continue;
      }
      if (baseline || loud >= CATCH_UP_MAX) {
        markHandled(key);
        // claimed, not only recorded here: another tab's catch-up must not announce it either
        if (!baseline) void claimOnce(userId, 'announced', key);
        continue;
      }
      loud += 1;
      handle(a, kind, heldNow(a, kind));
    }
  }, [list.data, prefsReady, userId, handle, heldNow]);

  // A takeover acknowledged in another tab closes here too.
  useEffect(() => {
    const onStorage = (e: StorageEvent) => {
      if (e.key === recordKey(userId, 'acknowledged')) acknowledgeAnnouncements(readRecord(userId, 'acknowledged'));
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [userId]);
}

/** The person acknowledged a critical version: its takeover closes, here and in their other tabs. */
export function acknowledge(userId: string, key: string) {
  addToRecord(userId, 'acknowledged', key);
  acknowledgeAnnouncements([key]);
}

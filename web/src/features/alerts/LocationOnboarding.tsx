import { useEffect, useId, useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import toast from 'react-hot-toast';
import { MapPin } from 'lucide-react';
import { errorMessage } from '@/app/api';
import { detectLocation } from '@/common/geolocation';
import { auth } from '@/features/auth/auth-client';
import { usePreferencesQuery, useUpdatePreferencesMutation } from './alerts.api';

/** Where the home location is set on a map: the preferences screen's Home Location card. */
export const HOME_LOCATION_PATH = '/dashboard/alerts#home-location';
/** Marks in the user's own profile (identity user_metadata) that they were asked once. */
const ASKED_KEY = 'location_prompt_answered_at';

/** Saves the device's position as the home location; false when there is none (the toasts have said why). */
function useUseMyLocation() {
  const [update, { isLoading }] = useUpdatePreferencesMutation();
  const [locating, setLocating] = useState(false);
  const run = async () => {
    setLocating(true);
    const position = await detectLocation();
    setLocating(false);
    if (!position) return false;
    try {
      await update({ home: position }).unwrap();
      toast.success('Home location saved. You now see the alerts for your area.');
      return true;
    } catch (err) {
      toast.error(errorMessage(err, 'Your home location could not be saved'));
      return false;
    }
  };
  return { run, busy: locating || isLoading };
}

/**
 * Shown while the user has no home location: says why their feed holds only alerts for everyone, and offers the two
 * ways to set one. The rule itself is the server's (the alerts service's user feed).
 */
export function LocationBanner() {
  const prefs = usePreferencesQuery();
  const titleId = useId();
  const locate = useUseMyLocation();
  if (!prefs.data || prefs.data.home) return null;
  return (
    <section className="card location-banner" aria-labelledby={titleId}>
      <h2 id={titleId} className="h3 icon-text">
        <MapPin aria-hidden="true" size={18} /> Set your home location
      </h2>
      <p>
        Until you do, you see only alerts for everyone: critical alerts and alerts without an area. Alerts about a place show here once Beacon knows where you
        are.
      </p>
      <div className="row">
        <button type="button" className="btn btn-primary" onClick={() => void locate.run()} disabled={locate.busy}>
          {locate.busy ? 'Locating...' : 'Use my location'}
        </button>
        <Link to={HOME_LOCATION_PATH} className="btn btn-outline">
          Choose on the map
        </Link>
      </div>
    </section>
  );
}

/**
 * Asks a new user once for a home location (GPS or the map), at the top of their dashboard; it blocks nothing. Whatever
 * they answer, Not now included, is kept in their profile (identity user_metadata), so the question never comes back
 * on this or another device; from then on the banner says why the feed is short until a home is set.
 *
 * `settled` says whether the card's place is known: the preferences have loaded (or failed: then no card) and, for a
 * user without a home, whether they were asked. Until then the page draws nothing below the card's place (issue #35):
 * a card that appeared above content already drawn would push it down under the reader.
 */
export function useLocationPrompt(): { settled: boolean; card: ReactNode } {
  const prefs = usePreferencesQuery();
  const [asked, setAsked] = useState<boolean | null>(null);

  useEffect(() => {
    let live = true;
    void auth.getSession().then(({ data }) => {
      if (live) setAsked(Boolean(data.session?.user.user_metadata?.[ASKED_KEY]));
    });
    return () => {
      live = false;
    };
  }, []);

  if (prefs.isLoading) return { settled: false, card: null };
  if (!prefs.data || prefs.data.home) return { settled: true, card: null };
  if (asked === null) return { settled: false, card: null };
  if (asked) return { settled: true, card: <LocationBanner /> };

  const answered = () => {
    setAsked(true);
    void auth.updateUser({ data: { [ASKED_KEY]: new Date().toISOString() } });
  };
  return { settled: true, card: <LocationQuestion onAnswered={answered} /> };
}

function LocationQuestion({ onAnswered }: { onAnswered: () => void }) {
  const locate = useUseMyLocation();
  const titleId = useId();
  return (
    <section className="card location-banner location-prompt" aria-labelledby={titleId}>
      <h2 id={titleId} className="h3 icon-text">
        <MapPin aria-hidden="true" size={18} /> Where should Beacon watch for you?
      </h2>
      <p>
        Set a home location and Beacon shows you the alerts for your area. Until then you see only alerts for everyone: critical alerts and alerts without an
        area.
      </p>
      <div className="row">
        <button
          type="button"
          className="btn btn-primary"
          disabled={locate.busy}
          onClick={async () => {
            if (await locate.run()) onAnswered();
          }}
        >
          {locate.busy ? 'Locating...' : 'Use my location'}
        </button>
        <Link to={HOME_LOCATION_PATH} className="btn btn-outline" onClick={onAnswered}>
          Choose on the map
        </Link>
        <button type="button" className="btn btn-ghost" onClick={onAnswered}>
          Not now
        </button>
      </div>
    </section>
  );
}

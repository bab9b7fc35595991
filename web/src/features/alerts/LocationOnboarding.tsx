import { useCallback, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'react-router-dom';
import toast from 'react-hot-toast';
import { BellRing, MapPin, Share, Smartphone } from 'lucide-react';
import { errorMessage } from '@/app/api';
import { isInstalledApp, isIos, useInstallPrompt } from '@/app/install-prompt';
import { detectLocation, type Position } from '@/common/geolocation';
import { auth } from '@/features/auth/auth-client';
import { currentIntl, defineMessages } from '@/i18n';
import { useLazyPlaceAtQuery, usePreferencesQuery, useUpdatePreferencesMutation } from './alerts.api';
import { notificationPermission, type PushState } from './notifications';
import { placeName } from './preferences-form';
import { usePushRegistration } from './useAlerting';

/** Where the home location is set on a map: the preferences screen's Home Location card. */
export const HOME_LOCATION_PATH = '/dashboard/alerts#home-location';

/**
 * What the person answered at their first run, kept in their own profile (identity user_metadata), so no question
 * comes back on this or another device: the location question, the notifications step, and the first run as a whole
 * (from then on the dashboard welcomes them back).
 */
const ANSWERED = {
  location: 'location_prompt_answered_at',
  notifications: 'notifications_prompt_answered_at',
  firstRun: 'first_run_done_at',
} as const;
type Question = keyof typeof ANSWERED;
type Answers = Record<Question, boolean>;

/**
 * The name of the place at a point, through the alerts service's geocoder; null when it knows none there or cannot
 * answer (not configured, busy): a home without a name still works.
 */
export function usePlaceName(): (p: Position) => Promise<string | null> {
  const [placeAt] = useLazyPlaceAtQuery();
  return useCallback(
    async (p: Position) => {
      try {
        const place = await placeAt(p, true).unwrap();
        return place ? placeName(place.label) : null;
      } catch {
        return null;
      }
    },
    [placeAt],
  );
}

const LOCATION_WORDS = defineMessages({
  saved: { id: 'alerts.location.saved', defaultMessage: 'Home location saved. You now see the alerts for your area.' },
  notSaved: { id: 'alerts.location.notSaved', defaultMessage: 'Your home location could not be saved' },
  locating: { id: 'alerts.location.locating', defaultMessage: 'Locating...' },
  useMine: { id: 'alerts.location.useMine', defaultMessage: 'Use my location' },
  onMap: { id: 'alerts.location.onMap', defaultMessage: 'Choose on the map' },
  notNow: { id: 'alerts.location.notNow', defaultMessage: 'Not now' },
});

/** Saves the device's position, named, as the home location; false when there is none (the toasts have said why). */
function useUseMyLocation() {
  const [update, { isLoading }] = useUpdatePreferencesMutation();
  const nameOf = usePlaceName();
  const [locating, setLocating] = useState(false);
  const run = async () => {
    setLocating(true);
    const position = await detectLocation();
    const name = position ? await nameOf(position) : null;
    setLocating(false);
    if (!position) return false;
    try {
      await update({ home: { ...position, name } }).unwrap();
      toast.success(currentIntl().formatMessage(LOCATION_WORDS.saved));
      return true;
    } catch (err) {
      toast.error(errorMessage(err, currentIntl().formatMessage(LOCATION_WORDS.notSaved)));
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
  const intl = useIntl();
  const locate = useUseMyLocation();
  if (!prefs.data || prefs.data.home) return null;
  return (
    <section className="card location-banner" aria-labelledby={titleId}>
      <h2 id={titleId} className="h3 icon-text">
        <MapPin aria-hidden="true" size={18} /> <FormattedMessage id="alerts.location.bannerTitle" defaultMessage="Set your home location" />
      </h2>
      <p>
        <FormattedMessage
          id="alerts.location.bannerWhy"
          defaultMessage="Until you do, you see only alerts for everyone: critical alerts and alerts without an area. Alerts about a place show here once Beacon knows where you are."
        />
      </p>
      <div className="row">
        <button type="button" className="btn btn-primary" onClick={() => void locate.run()} disabled={locate.busy}>
          {intl.formatMessage(locate.busy ? LOCATION_WORDS.locating : LOCATION_WORDS.useMine)}
        </button>
        <Link to={HOME_LOCATION_PATH} className="btn btn-outline">
          {intl.formatMessage(LOCATION_WORDS.onMap)}
        </Link>
      </div>
    </section>
  );
}

/** The person's first-run answers, read from their session's profile; null until read. */
function useFirstRunAnswers(): [Answers | null, (question: Question) => void] {
  const [answers, setAnswers] = useState<Answers | null>(null);
  useEffect(() => {
    let live = true;
    void auth.getSession().then(({ data }) => {
      const meta = data.session?.user.user_metadata ?? {};
      if (live)
        setAnswers({
          location: Boolean(meta[ANSWERED.location]),
          notifications: Boolean(meta[ANSWERED.notifications]),
          firstRun: Boolean(meta[ANSWERED.firstRun]),
        });
    });
    return () => {
      live = false;
    };
  }, []);
  const answer = useCallback((question: Question) => {
    setAnswers((a) => (a ? { ...a, [question]: true } : a));
    void auth.updateUser({ data: { [ANSWERED[question]]: new Date().toISOString() } });
  }, []);
  return [answers, answer];
}

/**
 * Whether this browser has a notifications question to ask: permission not asked yet, or an iPhone or iPad browser
 * tab, where notifications need Beacon installed to the Home Screen first. Already allowed or blocked: nothing to ask.
 */
function notificationsToAsk(permission: PushState): boolean {
  if (permission === 'default') return true;
  return permission === 'unsupported' && isIos() && !isInstalledApp();
}

export interface FirstRun {
  /** Whether the card's place is known (see useFirstRunPrompt). */
  settled: boolean;
  /** The step to show at the top of the dashboard, or the home-location banner, or nothing. */
  card: ReactNode;
  /** The person finished their first run on an earlier visit ("Welcome back"); null until known. */
  returning: boolean | null;
}

/**
 * The first run (issue #40), at the top of a new person's dashboard, blocking nothing: first where Beacon should watch
 * (GPS or the map), then notifications (why, and the browser's question; on an iPhone, how to install Beacon first),
 * with the offer to install Beacon as an app where the browser makes one. Whatever they answer, Not now included, is
 * kept in their profile, so a question never comes back on this or another device; once the location question is
 * answered, the banner says why the feed is short until a home is set.
 *
 * `settled` says whether the card's place is known: the preferences have loaded (or failed: then no card) and the
 * person's answers are read. Until then the page draws nothing below the card's place (issue #35): a card that
 * appeared above content already drawn would push it down under the reader.
 */
export function useFirstRunPrompt(): FirstRun {
  const prefs = usePreferencesQuery();
  const [answers, answer] = useFirstRunAnswers();
  // "returning" is what the person was when the page opened: finishing the first run now does not make them return
  const returning = useRef<boolean | null>(null);
  if (answers && returning.current === null) returning.current = answers.firstRun;

  const home = prefs.data?.home ?? null;
  const locationDone = Boolean(home) || Boolean(answers?.location);
  const askNotifications = answers !== null && !answers.notifications && notificationsToAsk(notificationPermission());
  const done = answers !== null && Boolean(prefs.data) && locationDone && !askNotifications;
  useEffect(() => {
    if (done && answers && !answers.firstRun) answer('firstRun');
  }, [done, answers, answer]);

  if (prefs.isLoading || answers === null) return { settled: false, card: null, returning: returning.current };
  if (!prefs.data) return { settled: true, card: null, returning: returning.current };
  if (!locationDone) return { settled: true, card: <LocationQuestion onAnswered={() => answer('location')} />, returning: returning.current };
  // the banner saying why the feed is short stays in view from the location step's answer on, under the next step
  const card = (
    <>
      {askNotifications && <NotificationsStep onAnswered={() => answer('notifications')} />}
      {!home && <LocationBanner />}
    </>
  );
  return { settled: true, card, returning: returning.current };
}

function LocationQuestion({ onAnswered }: { onAnswered: () => void }) {
  const locate = useUseMyLocation();
  const titleId = useId();
  const intl = useIntl();
  return (
    <section className="card location-banner location-prompt" aria-labelledby={titleId}>
      <h2 id={titleId} className="h3 icon-text">
        <MapPin aria-hidden="true" size={18} /> <FormattedMessage id="alerts.location.questionTitle" defaultMessage="Where should Beacon watch for you?" />
      </h2>
      <p>
        <FormattedMessage
          id="alerts.location.questionWhy"
          defaultMessage="Set a home location and Beacon shows you the alerts for your area. Until then you see only alerts for everyone: critical alerts and alerts without an area."
        />
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
          {intl.formatMessage(locate.busy ? LOCATION_WORDS.locating : LOCATION_WORDS.useMine)}
        </button>
        <Link to={HOME_LOCATION_PATH} className="btn btn-outline" onClick={onAnswered}>
          {intl.formatMessage(LOCATION_WORDS.onMap)}
        </Link>
        <button type="button" className="btn btn-ghost" onClick={onAnswered}>
          {intl.formatMessage(LOCATION_WORDS.notNow)}
        </button>
      </div>
    </section>
  );
}

const NOTIFICATIONS_STEP_TEXT = defineMessages({
  title: { id: 'alerts.notificationsStep.title', defaultMessage: 'Get warnings even when Beacon is closed' },
  why: {
    id: 'alerts.notificationsStep.why',
    defaultMessage:
      'Beacon can show a notification the moment an alert for your area is sent, even when this page is closed. Your browser asks whether to allow it; you can change your mind later in Alert Management.',
  },
  turnOn: { id: 'alerts.notificationsStep.turnOn', defaultMessage: 'Turn on notifications' },
  notNow: { id: 'alerts.notificationsStep.notNow', defaultMessage: 'Not now' },
  iosWhy: {
    id: 'alerts.notificationsStep.iosWhy',
    defaultMessage:
      'On iPhone and iPad, Beacon can send notifications only once it is on your Home Screen: tap Share, then Add to Home Screen, and open Beacon from there to turn them on.',
  },
  iosDone: { id: 'alerts.notificationsStep.iosDone', defaultMessage: 'Got it' },
  install: { id: 'alerts.notificationsStep.install', defaultMessage: 'Install Beacon' },
  installWhy: { id: 'alerts.notificationsStep.installWhy', defaultMessage: 'Install Beacon to open it like an app, straight from your home screen.' },
});

/** The second first-run step: why notifications matter, the browser's question on a click, or how to get them on iOS. */
function NotificationsStep({ onAnswered }: { onAnswered: () => void }) {
  const push = usePushRegistration();
  const install = useInstallPrompt();
  const titleId = useId();
  const intl = useIntl();
  const text = Object.fromEntries(Object.entries(NOTIFICATIONS_STEP_TEXT).map(([k, m]) => [k, intl.formatMessage(m)])) as Record<
    keyof typeof NOTIFICATIONS_STEP_TEXT,
    string
  >;
  const iosTab = push.state === 'unsupported';
  return (
    <section className="card location-banner location-prompt" aria-labelledby={titleId}>
      <h2 id={titleId} className="h3 icon-text">
        <BellRing aria-hidden="true" size={18} /> {text.title}
      </h2>
      {iosTab ? (
        <>
          <p className="icon-text">
            <Share aria-hidden="true" size={16} /> {text.iosWhy}
          </p>
          <div className="row">
            <button type="button" className="btn btn-primary" onClick={onAnswered}>
              {text.iosDone}
            </button>
          </div>
        </>
      ) : (
        <>
          <p>{text.why}</p>
          <div className="row">
            <button
              type="button"
              className="btn btn-primary"
              disabled={push.busy}
              onClick={async () => {
                // allowed, blocked or failed (the hook's toasts say which): answered either way, and not asked again
                await push.enable();
                onAnswered();
              }}
            >
              {text.turnOn}
            </button>
            <button type="button" className="btn btn-ghost" onClick={onAnswered}>
              {text.notNow}
            </button>
          </div>
        </>
      )}
      {install.available && (
        <div className="row">
          <p className="small icon-text" style={{ margin: 0 }}>
            <Smartphone aria-hidden="true" size={16} /> {text.installWhy}
          </p>
          <button type="button" className="btn btn-outline btn-sm" onClick={() => void install.install()}>
            {text.install}
          </button>
        </div>
      )}
    </section>
  );
}

import { useEffect, useId, useMemo, useState, type Dispatch, type FormEvent, type SetStateAction } from 'react';
import { FormattedMessage, useIntl, type MessageDescriptor } from 'react-intl';
import { Link } from 'react-router-dom';
import toast from 'react-hot-toast';
import type { AlertPreferences, Severity } from '@beacon/contracts';
import { errorMessage } from '@/app/api';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { selectCanPublish } from '@/features/auth/auth.slice';
import { ConfirmDialog } from '@/common/ConfirmDialog';
import { Spinner } from '@/common/Spinner';
import { UnsavedChangesGuard } from '@/common/UnsavedChangesGuard';
import { useNow } from '@/common/useNow';
import { alertLanguageOf, currentIntl, defineMessages, useLanguage } from '@/i18n';
import { alertsApi, useMyAlertsInfiniteQuery, usePreferencesQuery, useUpdatePreferencesMutation, type PreferencesUpdate } from './alerts.api';
import {
  QUICK_SETUP,
  browserZone,
  coordDrafts,
  homeToSave,
  parseHome,
  quickSetupOverwrites,
  toForm,
  type CoordDrafts,
  type PreferenceSetter,
  type PreferencesFormValues,
} from './preferences-form';
import { AlertTypesSection, DeliverySection, HomeLocationSection, NotificationMethodsSection } from './PreferencesSections';
import { LoadError, SeveritySelect } from './ui';
import { UserAlertList } from './UserAlertCard';
import { flattenPages, useDebounced } from './UserAlertsPage';
import { usePushRegistration } from './useAlerting';
import './alerts.css';

const PREFERENCES_WORDS = defineMessages({
  title: { id: 'alerts.preferences.title', defaultMessage: 'Alert Management' },
  loading: { id: 'alerts.preferences.loading', defaultMessage: 'Loading your preferences' },
  loadFailed: { id: 'alerts.preferences.loadFailed', defaultMessage: 'Your preferences could not be loaded.' },
  saveFailed: { id: 'alerts.preferences.saveFailed', defaultMessage: 'Your preferences could not be saved' },
  saved: { id: 'alerts.preferences.saved', defaultMessage: 'Preferences saved' },
  quickSetupApplied: { id: 'alerts.preferences.quickSetupApplied', defaultMessage: 'Quick Setup applied' },
  saving: { id: 'alerts.preferences.saving', defaultMessage: 'Saving...' },
  unsavedWhat: { id: 'alerts.preferences.unsavedWhat', defaultMessage: 'your alert preferences' },
});

const QUICK_SETUP_WORDS = defineMessages({
  title: { id: 'alerts.quickSetup.confirmTitle', defaultMessage: 'Replace your settings with Quick Setup?' },
  message: {
    id: 'alerts.quickSetup.confirmMessage',
    defaultMessage:
      'Quick Setup replaces your alert types, severity, frequency, radius, quiet hours, weekend setting and delivery methods with the recommended set, and saves at once. Your home location and phone number stay.',
  },
  cancel: { id: 'alerts.quickSetup.keep', defaultMessage: 'Keep my settings' },
  confirm: { id: 'alerts.quickSetup.replace', defaultMessage: 'Replace my settings' },
});

/**
 * /dashboard/alerts, "Alert Management": the preferences of part 1, saved on the server, and my recent alerts (kept
 * live by the app-wide warning layer, features/warnings, which hears the person's alerts once for every page).
 */
export function AlertPreferencesPage() {
  const intl = useIntl();
  const { data, isLoading, isError, refetch } = usePreferencesQuery();
  return (
    <section className="page" aria-labelledby="alert-management-title">
      {isLoading ? (
        <Spinner label={intl.formatMessage(PREFERENCES_WORDS.loading)} />
      ) : isError || !data ? (
        <>
          <h1 id="alert-management-title">{intl.formatMessage(PREFERENCES_WORDS.title)}</h1>
          <LoadError message={intl.formatMessage(PREFERENCES_WORDS.loadFailed)} onRetry={refetch} />
        </>
      ) : (
        <PreferencesForm saved={data} />
      )}
      <RecentAlerts />
    </section>
  );
}

/**
 * The home point as typed: the coordinate fields keep what is typed, so a half-entered point is never turned into a
 * point at 0; the form gets the point once both are valid.
 */
function useHomeCoords(saved: AlertPreferences, setForm: Dispatch<SetStateAction<PreferencesFormValues>>) {
  const intl = useIntl();
  const [coords, setCoords] = useState<CoordDrafts>(() => coordDrafts(saved.home));
  const [showCoordError, setShowCoordError] = useState(false);
  useEffect(() => setCoords(coordDrafts(saved.home)), [saved]);
  const parsedHome = parseHome(coords, intl);
  const setHomeField = (home: PreferencesFormValues['home']) => setForm((f) => ({ ...f, home }));
  // a typed point keeps the home's name only while it is still the named point
  const typeHomeField = (home: PreferencesFormValues['home']) => setForm((f) => ({ ...f, home: homeToSave(home, f.home) }));
  return {
    coords,
    /** Half entered or out of range, whether shown yet or not. */
    coordError: parsedHome.error,
    shownCoordError: showCoordError ? parsedHome.error : null,
    setHome: (home: PreferencesFormValues['home']) => {
      setHomeField(home);
      setCoords(coordDrafts(home));
      setShowCoordError(false);
    },
    /** The geocoder named the device's point: the home takes the name if it is still that point. */
    nameSpot: (spot: { lat: number; lng: number }, name: string) =>
      setForm((f) => (f.home && f.home.lat === spot.lat && f.home.lng === spot.lng ? { ...f, home: { ...f.home, name } } : f)),
    typeCoord: (which: keyof CoordDrafts, value: string) => {
      const next = { ...coords, [which]: value };
      setCoords(next);
      const parsed = parseHome(next, intl);
      if (parsed.error === null) typeHomeField(parsed.home);
    },
    /** The form to save, or null (with the message shown) while the home point is half entered or out of range. */
    complete: (f: PreferencesFormValues): PreferencesFormValues | null => {
      if (parsedHome.error !== null) {
        setShowCoordError(true);
        return null;
      }
      return { ...f, home: homeToSave(parsedHome.home ?? null, f.home) };
    },
  };
}

/**
 * After a save: the language saved is the app's (issue #41, one choice for both), so a new one switches the whole app
 * at once, and the person's feed, which the server writes in their language, is read again.
 */
function useFollowSavedLanguage() {
  const { language: uiLanguage, setLanguage } = useLanguage();
  const dispatch = useAppDispatch();
  return async (saved: AlertPreferences['language']) => {
    if (!saved || saved === alertLanguageOf(uiLanguage)) return;
    await setLanguage(saved);
    dispatch(alertsApi.util.invalidateTags(['MyAlerts']));
  };
}

function PreferencesForm({ saved }: { saved: AlertPreferences }) {
  const id = useId();
  const intl = useIntl();
  const followLanguage = useFollowSavedLanguage();
  const [form, setForm] = useState<PreferencesFormValues>(() => toForm(saved));
  const [save, { isLoading: saving }] = useUpdatePreferencesMutation();
  const [error, setError] = useState<string | null>(null);
  const push = usePushRegistration();
  const home = useHomeCoords(saved, setForm);
  useEffect(() => setForm(toForm(saved)), [saved]);
  // "Choose on the map" (location onboarding) links here: bring the Home Location card into view
  useEffect(() => {
    if (window.location.hash === '#home-location') document.getElementById('home-location')?.scrollIntoView?.({ block: 'start' });
  }, []);
  const dirty = JSON.stringify(form) !== JSON.stringify(toForm(saved)) || home.coordError !== null;

  const set: PreferenceSetter = (key, value) => setForm((f) => ({ ...f, [key]: value }));

  async function persist(next: PreferencesFormValues, success: MessageDescriptor) {
    setError(null);
    const body: PreferencesUpdate = {
      alertTypes: next.alertTypes,
      severityThreshold: next.severityThreshold,
      frequency: next.frequency,
      radiusMiles: next.radiusMiles,
      quietHours: { ...next.quietHours, timeZone: next.quietHours.timeZone || browserZone() },
      weekendEnabled: next.weekendEnabled,
      methods: next.methods,
      phoneNumber: next.phoneNumber?.trim() ? next.phoneNumber.trim() : null,
      home: next.home,
      language: next.language,
    };
    try {
      const result = await save(body).unwrap();
      // said in the language the app is in once it has followed the one saved
      toast.success(<FormattedMessage {...success} />);
      // the app keeps its language if the new one's words cannot be fetched now: the saved one applies at the next visit
      await followLanguage(result.language).catch(() => undefined);
    } catch (err) {
      const message = errorMessage(err, currentIntl().formatMessage(PREFERENCES_WORDS.saveFailed));
      setError(message);
      toast.error(message);
    }
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    const next = home.complete(form);
    if (next) void persist(next, PREFERENCES_WORDS.saved);
  }

  const [confirmQuickSetup, setConfirmQuickSetup] = useState(false);
  function applyQuickSetup() {
    setConfirmQuickSetup(false);
    const next = home.complete({ ...form, ...QUICK_SETUP });
    if (!next) return;
    setForm(next);
    void persist(next, PREFERENCES_WORDS.quickSetupApplied);
  }
  /** Settings of the user's own would be overwritten: ask first. The defaults or the preset itself: apply at once. */
  function quickSetup() {
    if (quickSetupOverwrites(form)) setConfirmQuickSetup(true);
    else applyQuickSetup();
  }

  return (
    <form onSubmit={submit} noValidate aria-labelledby="alert-management-title" className="preferences-form">
      <UnsavedChangesGuard when={dirty && !saving} what={intl.formatMessage(PREFERENCES_WORDS.unsavedWhat)} />
      {confirmQuickSetup && (
        <ConfirmDialog
          title={intl.formatMessage(QUICK_SETUP_WORDS.title)}
          message={intl.formatMessage(QUICK_SETUP_WORDS.message)}
          cancelLabel={intl.formatMessage(QUICK_SETUP_WORDS.cancel)}
          confirmLabel={intl.formatMessage(QUICK_SETUP_WORDS.confirm)}
          onCancel={() => setConfirmQuickSetup(false)}
          onConfirm={applyQuickSetup}
        />
      )}
      <PreferencesHeader saving={saving} dirty={dirty} error={error} onQuickSetup={quickSetup} />
      <div className="grid-2">
        <AlertTypesSection id={id} form={form} set={set} />
        <DeliverySection id={id} form={form} set={set} />
        <NotificationMethodsSection id={id} form={form} set={set} push={push} />
        <HomeLocationSection
          id={id}
          form={form}
          coords={home.coords}
          coordError={home.shownCoordError}
          typeCoord={home.typeCoord}
          setHome={home.setHome}
          nameSpot={home.nameSpot}
        />
      </div>
      {/* on a long page (a phone: 3,000 px) Save is always within reach while there is something to save */}
      <div className="save-bar" hidden={!dirty}>
        <span aria-hidden="true">
          <FormattedMessage id="alerts.preferences.saveBar.unsaved" defaultMessage="Unsaved changes" />
        </span>
        <button type="submit" className="btn btn-primary" disabled={saving}>
          {saving
            ? intl.formatMessage(PREFERENCES_WORDS.saving)
            : intl.formatMessage({ id: 'alerts.preferences.saveBar.save', defaultMessage: 'Save changes' })}
        </button>
      </div>
    </form>
  );
}

/** The title, the form's buttons, whether it is saved, and why it was not. */
function PreferencesHeader({ saving, dirty, error, onQuickSetup }: { saving: boolean; dirty: boolean; error: string | null; onQuickSetup: () => void }) {
  // New Alert only for those who may write one (issue #38: publisher and up)
  const canPublish = useAppSelector(selectCanPublish);
  const intl = useIntl();
  return (
    <>
      <header className="page-header">
        <div>
          <h1 id="alert-management-title">{intl.formatMessage(PREFERENCES_WORDS.title)}</h1>
          <p className="muted">
            <FormattedMessage id="alerts.preferences.intro" defaultMessage="Choose which alerts reach you, where, when and how." />
          </p>
        </div>
        <div className="row">
          {canPublish && (
            <Link to="/admin/create-alert" className="btn btn-outline">
              <FormattedMessage id="alerts.preferences.newAlert" defaultMessage="New Alert" />
            </Link>
          )}
          <button type="button" className="btn btn-outline" onClick={onQuickSetup} disabled={saving}>
            <FormattedMessage id="alerts.preferences.quickSetup" defaultMessage="Quick Setup" />
          </button>
          <button type="submit" className="btn btn-primary" disabled={!dirty || saving}>
            {saving ? intl.formatMessage(PREFERENCES_WORDS.saving) : intl.formatMessage({ id: 'alerts.preferences.save', defaultMessage: 'Save Preferences' })}
          </button>
        </div>
      </header>
      <p className="saving-state" role="status">
        {saving
          ? intl.formatMessage(PREFERENCES_WORDS.saving)
          : dirty
            ? intl.formatMessage({ id: 'alerts.preferences.state.unsaved', defaultMessage: 'You have unsaved changes.' })
            : intl.formatMessage({ id: 'alerts.preferences.state.saved', defaultMessage: 'All changes saved.' })}
      </p>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </>
  );
}

const RECENT_PAGE_SIZE = 5;

/** Recent Alerts: search, severity filter, read/unread highlight, Load More. */
function RecentAlerts() {
  const id = useId();
  const intl = useIntl();
  const now = useNow();
  const [showFilter, setShowFilter] = useState(false);
  const [searchText, setSearchText] = useState('');
  const [severity, setSeverity] = useState<Severity | ''>('');
  const search = useDebounced(searchText.trim());
  const query = useMyAlertsInfiniteQuery({ search, severity, pageSize: RECENT_PAGE_SIZE });
  const alerts = useMemo(() => flattenPages(query.data?.pages), [query.data]);

  return (
    <section className="card" aria-labelledby={`${id}-title`} style={{ marginTop: '1rem' }}>
      <div className="row-between">
        <h2 id={`${id}-title`}>
          <FormattedMessage id="alerts.recent.title" defaultMessage="Recent Alerts" />
        </h2>
        <div className="row">
          <label className="visually-hidden" htmlFor={`${id}-search`}>
            <FormattedMessage id="alerts.recent.searchLabel" defaultMessage="Search recent alerts" />
          </label>
          <input
            id={`${id}-search`}
            type="search"
            value={searchText}
            onChange={(e) => setSearchText(e.target.value)}
            placeholder={intl.formatMessage({ id: 'alerts.recent.searchPlaceholder', defaultMessage: 'Search alerts' })}
          />
          <button type="button" className="btn btn-outline" onClick={() => setShowFilter((v) => !v)} aria-expanded={showFilter} aria-controls={`${id}-filter`}>
            {severity
              ? intl.formatMessage({ id: 'alerts.recent.filterActive', defaultMessage: 'Filter ({n})' }, { n: 1 })
              : intl.formatMessage({ id: 'alerts.recent.filter', defaultMessage: 'Filter' })}
          </button>
        </div>
      </div>
      {showFilter && (
        <div id={`${id}-filter`} className="field" style={{ maxWidth: 260 }}>
          <SeveritySelect id={`${id}-severity`} value={severity} onChange={setSeverity} />
        </div>
      )}
      {query.isLoading ? (
        <Spinner label={intl.formatMessage({ id: 'alerts.recent.loading', defaultMessage: 'Loading recent alerts' })} />
      ) : query.isError ? (
        <p role="alert">
          <FormattedMessage id="alerts.recent.loadFailed" defaultMessage="Failed to load alerts" />
        </p>
      ) : alerts.length === 0 ? (
        <p className="empty-state">
          {search || severity
            ? intl.formatMessage({ id: 'alerts.recent.noneFound', defaultMessage: 'No alerts match your search.' })
            : intl.formatMessage({ id: 'alerts.recent.noneYet', defaultMessage: 'No alerts have reached you yet.' })}
        </p>
      ) : (
        <UserAlertList
          alerts={alerts}
          now={now}
          label={intl.formatMessage({ id: 'alerts.recent.listLabel', defaultMessage: 'Recent alerts' })}
          moreLabel={intl.formatMessage({ id: 'alerts.recent.loadMore', defaultMessage: 'Load More Alerts' })}
          more={query}
        />
      )}
    </section>
  );
}

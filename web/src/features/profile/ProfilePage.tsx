import { useEffect, useState, type FormEvent } from 'react';
import { DEFAULT_PREFERENCES, type Severity } from '@beacon/contracts';
import toast from 'react-hot-toast';
import { FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import type { User } from '@supabase/auth-js';
import { errorMessage } from '@/app/api';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { PasswordField, TextField } from '@/common/PasswordField';
import { Spinner } from '@/common/Spinner';
import { auth } from '@/features/auth/auth-client';
import { displayName, selectUser, signedIn, toSignedInUser } from '@/features/auth/auth.slice';
import { useSignOut } from '@/features/auth/useSignOut';
import { validateEmail } from '@/features/auth/validation';
import { LanguageSwitch } from '@/features/language';
import { currentIntl, defineMessages } from '@/i18n';
import { useProfilePreferencesQuery, useSaveProfilePreferencesMutation, type ProfilePreferenceChange } from './profile.api';
import { TwoFactorSection } from './TwoFactorSection';
import './profile.css';
import { BadgeCheck } from 'lucide-react';

const PASSWORD_ERRORS = defineMessages({
  tooShort: { id: 'profile.password.tooShort', defaultMessage: 'Password must be at least {min} characters' },
  mismatch: { id: 'profile.password.mismatch', defaultMessage: "Passwords don't match" },
});

/** Sign-up's rules apply to a new password (part 1, section 5). */
export function validateNewPassword(password: string, confirm: string, intl: IntlShape = currentIntl()): { password?: string; confirm?: string } {
  const errors: { password?: string; confirm?: string } = {};
  if (password.length < 8) errors.password = intl.formatMessage(PASSWORD_ERRORS.tooShort, { min: 8 });
  if (confirm !== password) errors.confirm = intl.formatMessage(PASSWORD_ERRORS.mismatch);
  return errors;
}

/** A password's place on screen: the same eight dots whatever its length. */
const PASSWORD_MASK = '••••••••';

const SHARED = defineMessages({
  change: { id: 'profile.setting.change', defaultMessage: 'Change' },
  saving: { id: 'profile.setting.saving', defaultMessage: 'Saving...' },
  cancel: { id: 'profile.setting.cancel', defaultMessage: 'Cancel' },
  changeEmail: { id: 'profile.email.change', defaultMessage: 'Change email' },
  changePassword: { id: 'profile.password.change', defaultMessage: 'Change password' },
  signOut: { id: 'profile.page.signOut', defaultMessage: 'Sign Out' },
});

function EmailSetting({ user, onUser }: { user: User; onUser: (u: User) => void }) {
  const intl = useIntl();
  const [editing, setEditing] = useState(false);
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const problem =
      validateEmail(email, intl) ??
      (email.trim().toLowerCase() === user.email?.toLowerCase()
        ? intl.formatMessage({ id: 'profile.email.same', defaultMessage: 'That is already your email address' })
        : undefined);
    setError(problem);
    if (problem) return;
    setBusy(true);
    const { data, error: failed } = await auth.updateUser({ email: email.trim() }, { emailRedirectTo: `${window.location.origin}/profile` });
    setBusy(false);
    if (failed) {
      toast.error(failed.message);
      return;
    }
    onUser(data.user);
    setEditing(false);
    if (data.user.email?.toLowerCase() === email.trim().toLowerCase())
      toast.success(intl.formatMessage({ id: 'profile.email.updated', defaultMessage: 'Email updated successfully!' }));
    else
      toast.success(
        intl.formatMessage(
          { id: 'profile.email.confirmationSent', defaultMessage: 'We sent a confirmation link to {email}. Your email changes once you open it.' },
          { email: email.trim() },
        ),
      );
  }

  return (
    <div className="setting">
      <div className="setting-row">
        <div>
          <span className="setting-label" id="email-label">
            <FormattedMessage id="profile.email.label" defaultMessage="Email" />
          </span>
          <span className="setting-value" aria-labelledby="email-label">
            {user.email}
          </span>
          {user.new_email && (
            <span className="muted small">
              <FormattedMessage id="profile.email.pending" defaultMessage="Waiting for confirmation of {email}" values={{ email: user.new_email }} />
            </span>
          )}
        </div>
        {!editing && (
          <button
            type="button"
            className="btn btn-outline btn-sm"
            aria-label={intl.formatMessage(SHARED.changeEmail)}
            onClick={() => {
              setEditing(true);
              setEmail('');
              setError(undefined);
            }}
          >
            {intl.formatMessage(SHARED.change)}
          </button>
        )}
      </div>
      {editing && (
        <form className="setting-form" onSubmit={submit} noValidate aria-label={intl.formatMessage(SHARED.changeEmail)}>
          <TextField
            label={intl.formatMessage({ id: 'profile.email.new', defaultMessage: 'New email' })}
            type="email"
            name="new-email"
            autoComplete="email"
            value={email}
            onChange={setEmail}
            error={error}
          />
          <div className="row">
            <button type="submit" className="btn btn-primary" disabled={busy}>
              {busy ? intl.formatMessage(SHARED.saving) : <FormattedMessage id="profile.email.submit" defaultMessage="Update Email" />}
            </button>
            <button type="button" className="btn btn-outline" onClick={() => setEditing(false)}>
              {intl.formatMessage(SHARED.cancel)}
            </button>
          </div>
        </form>
      )}
    </div>
  );
}

function PasswordSetting() {
  const intl = useIntl();
  const [editing, setEditing] = useState(false);
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<{ password?: string; confirm?: string }>({});
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const found = validateNewPassword(password, confirm, intl);
    setErrors(found);
    if (found.password || found.confirm) return;
    setBusy(true);
    const { error } = await auth.updateUser({ password });
    setBusy(false);
    if (error) {
      toast.error(error.message);
      return;
    }
    toast.success(intl.formatMessage({ id: 'profile.password.updated', defaultMessage: 'Password updated successfully!' }));
    setEditing(false);
    setPassword('');
    setConfirm('');
  }

  return (
    <div className="setting">
      <div className="setting-row">
        <div>
          <span className="setting-label">
            <FormattedMessage id="profile.password.label" defaultMessage="Password" />
          </span>
          <span className="setting-value" aria-label={intl.formatMessage({ id: 'profile.password.hidden', defaultMessage: 'Password hidden' })}>
            {PASSWORD_MASK}
          </span>
        </div>
        {!editing && (
          <button
            type="button"
            className="btn btn-outline btn-sm"
            aria-label={intl.formatMessage(SHARED.changePassword)}
            onClick={() => {
              setEditing(true);
              setErrors({});
            }}
          >
            {intl.formatMessage(SHARED.change)}
          </button>
        )}
      </div>
      {editing && (
        <form className="setting-form" onSubmit={submit} noValidate aria-label={intl.formatMessage(SHARED.changePassword)}>
          <PasswordField
            label={intl.formatMessage({ id: 'profile.password.new', defaultMessage: 'New password' })}
            name="new-password"
            autoComplete="new-password"
            value={password}
            onChange={setPassword}
            error={errors.password}
          />
          <PasswordField
            label={intl.formatMessage({ id: 'profile.password.confirm', defaultMessage: 'Confirm new password' })}
            name="confirm-password"
            autoComplete="new-password"
            value={confirm}
            onChange={setConfirm}
            error={errors.confirm}
          />
          <p className="muted small">
            <FormattedMessage id="profile.password.signsOutOthers" defaultMessage="Changing your password signs you out on your other devices." />
          </p>
          <div className="row">
            <button type="submit" className="btn btn-primary" disabled={busy}>
              {busy ? intl.formatMessage(SHARED.saving) : <FormattedMessage id="profile.password.submit" defaultMessage="Update Password" />}
            </button>
            <button
              type="button"
              className="btn btn-outline"
              onClick={() => {
                setEditing(false);
                setPassword('');
                setConfirm('');
              }}
            >
              {intl.formatMessage(SHARED.cancel)}
            </button>
          </div>
        </form>
      )}
    </div>
  );
}

interface ToggleProps {
  id: string;
  label: string;
  description: string;
  checked: boolean;
  disabled: boolean;
  onChange: (value: boolean) => void;
}

function Toggle({ id, label, description, checked, disabled, onChange }: ToggleProps) {
  return (
    <div className="setting-row toggle-row">
      <div>
        <span className="setting-label" id={`${id}-label`}>
          {label}
        </span>
        <span className="muted small" id={`${id}-desc`}>
          {description}
        </span>
      </div>
      <button
        type="button"
        role="switch"
        id={id}
        aria-checked={checked}
        aria-labelledby={`${id}-label`}
        aria-describedby={`${id}-desc`}
        className={`switch ${checked ? 'on' : ''}`}
        disabled={disabled}
        onClick={() => onChange(!checked)}
      >
        <span className="switch-knob" aria-hidden="true" />
      </button>
    </div>
  );
}

/**
 * The person's language: the app's and their alerts' (push, email, SMS, calls) at once. It is the shell's language
 * switch, so a change here switches the app as well as saving it (useChangeLanguage).
 */
function LanguageSetting() {
  return (
    <section className="card profile-section" aria-labelledby="language-title">
      <h2 id="language-title">
        <FormattedMessage id="profile.language.title" defaultMessage="Language" />
      </h2>
      <p className="muted small" id="language-desc">
        <FormattedMessage id="profile.language.description" defaultMessage="Beacon and your alerts use this language, on every device and channel." />
      </p>
      <LanguageSwitch className="field profile-language" compact />
    </section>
  );
}

const thresholdKey = (userId: string) => `beacon.thresholdBeforeCritical.${userId}`;

/**
 * 'Critical alerts only' sets the threshold to critical; turning it off must give back the threshold the user had
 * chosen (on the Alert Management screen, say), not reset it. The last non-critical threshold seen is kept on this
 * device so it survives a reload in between; without one, the default applies.
 */
function useThresholdBeforeCritical(userId: string | undefined, current: Severity | undefined) {
  useEffect(() => {
    if (userId && current && current !== 'critical') localStorage.setItem(thresholdKey(userId), current);
  }, [userId, current]);
  return (): Severity => {
    const kept = userId ? localStorage.getItem(thresholdKey(userId)) : null;
    return kept === 'low' || kept === 'medium' || kept === 'high' ? kept : DEFAULT_PREFERENCES.severityThreshold;
  };
}

/** Push, email and critical-only, saved to the user's alert preferences in the alerts service. */
function NotificationSettings() {
  const intl = useIntl();
  const userId = useAppSelector(selectUser)?.id;
  const prefs = useProfilePreferencesQuery();
  const [save, saving] = useSaveProfilePreferencesMutation();
  const thresholdBeforeCritical = useThresholdBeforeCritical(userId, prefs.data?.severityThreshold);

  async function change(update: ProfilePreferenceChange) {
    try {
      await save(update).unwrap();
      toast.success(intl.formatMessage({ id: 'profile.notifications.saved', defaultMessage: 'Notification settings saved' }));
    } catch (e) {
      toast.error(errorMessage(e, intl.formatMessage({ id: 'profile.notifications.saveFailed', defaultMessage: 'Failed to save notification settings' })));
    }
  }

  const data = prefs.data;
  return (
    <section className="card profile-section" aria-labelledby="notifications-title" aria-busy={prefs.isFetching || saving.isLoading}>
      <h2 id="notifications-title">
        <FormattedMessage id="profile.notifications.title" defaultMessage="Notifications" />
      </h2>
      {prefs.isLoading ? (
        <Spinner label={intl.formatMessage({ id: 'profile.notifications.loading', defaultMessage: 'Loading notification settings' })} />
      ) : prefs.isError || !data ? (
        <div role="alert" className="row-between">
          <span className="muted">
            <FormattedMessage id="profile.notifications.unavailable" defaultMessage="Notification settings are not available right now." />
          </span>
          <button type="button" className="btn btn-outline btn-sm" onClick={() => void prefs.refetch()}>
            <FormattedMessage id="profile.notifications.tryAgain" defaultMessage="Try Again" />
          </button>
        </div>
      ) : (
        <>
          <Toggle
            id="toggle-push"
            label={intl.formatMessage({ id: 'profile.notifications.push', defaultMessage: 'Push notifications' })}
            description={intl.formatMessage({ id: 'profile.notifications.pushDescription', defaultMessage: 'Alerts on this device as they happen' })}
            checked={data.methods.push}
            disabled={saving.isLoading}
            onChange={(push) => void change({ methods: { push } })}
          />
          <Toggle
            id="toggle-email"
            label={intl.formatMessage({ id: 'profile.notifications.email', defaultMessage: 'Email notifications' })}
            description={intl.formatMessage({ id: 'profile.notifications.emailDescription', defaultMessage: 'Alerts and digests by email' })}
            checked={data.methods.email}
            disabled={saving.isLoading}
            onChange={(email) => void change({ methods: { email } })}
          />
          <Toggle
            id="toggle-critical"
            label={intl.formatMessage({ id: 'profile.notifications.criticalOnly', defaultMessage: 'Critical alerts only' })}
            description={intl.formatMessage({ id: 'profile.notifications.criticalOnlyDescription', defaultMessage: 'Only notify me about critical alerts' })}
            checked={data.severityThreshold === 'critical'}
            disabled={saving.isLoading}
            onChange={(on) => void change({ severityThreshold: on ? 'critical' : thresholdBeforeCritical() })}
          />
        </>
      )}
    </section>
  );
}

/** /profile and /settings: the account, sign-in details, notifications and two-factor authentication. */
export function ProfilePage() {
  const intl = useIntl();
  const dispatch = useAppDispatch();
  const signedInUser = useAppSelector(selectUser);
  const signOut = useSignOut('/');
  const [user, setUser] = useState<User | null>(null);
  const [loadError, setLoadError] = useState(false);

  useEffect(() => {
    let live = true;
    auth.getUser().then(({ data, error }) => {
      if (!live) return;
      if (error || !data.user) setLoadError(true);
      else setUser(data.user);
    });
    return () => {
      live = false;
    };
  }, []);

  const onUser = (u: User) => {
    setUser(u);
    dispatch(signedIn(toSignedInUser(u)));
  };

  const email = user?.email ?? signedInUser?.email ?? '';
  const verified = Boolean(user?.email_confirmed_at ?? user?.confirmed_at);

  return (
    <main className="page profile-page" aria-labelledby="profile-title">
      <h1 id="profile-title">
        <FormattedMessage id="profile.page.title" defaultMessage="Profile Settings" />
      </h1>

      <section className="card profile-account" aria-label={intl.formatMessage({ id: 'profile.page.account', defaultMessage: 'Account' })}>
        <div className="avatar" aria-hidden="true">
          {displayName(email).charAt(0).toUpperCase()}
        </div>
        <div className="profile-identity">
          <h2>{displayName(email)}</h2>
          <span className="muted">{email}</span>
          {user &&
            (verified ? (
              <span className="badge badge-success">
                <BadgeCheck aria-hidden="true" size={16} /> <FormattedMessage id="profile.page.verified" defaultMessage="Account Verified" />
              </span>
            ) : (
              <span className="badge badge-medium">
                <FormattedMessage id="profile.page.notVerified" defaultMessage="Email not verified yet" />
              </span>
            ))}
        </div>
        <button type="button" className="btn btn-outline" onClick={signOut}>
          {intl.formatMessage(SHARED.signOut)}
        </button>
      </section>

      <section className="card profile-section" aria-labelledby="signin-title">
        <h2 id="signin-title">
          <FormattedMessage id="profile.page.signInDetails" defaultMessage="Sign-in Details" />
        </h2>
        {user ? (
          <>
            <EmailSetting user={user} onUser={onUser} />
            <PasswordSetting />
          </>
        ) : loadError ? (
          <p role="alert">
            <FormattedMessage id="profile.page.loadError" defaultMessage="Your account details could not be loaded. Please refresh the page." />
          </p>
        ) : (
          <Spinner label={intl.formatMessage({ id: 'profile.page.loading', defaultMessage: 'Loading your account' })} />
        )}
      </section>

      <LanguageSetting />
      <NotificationSettings />
      <TwoFactorSection />

      <section className="card profile-section profile-signout" aria-label={intl.formatMessage({ id: 'profile.page.session', defaultMessage: 'Session' })}>
        <p className="muted">
          <FormattedMessage id="profile.page.signedInAs" defaultMessage="Signed in as {email}" values={{ email }} />
        </p>
        <button type="button" className="btn btn-danger" onClick={signOut}>
          {intl.formatMessage(SHARED.signOut)}
        </button>
      </section>
    </main>
  );
}

import { useEffect, useState, type FormEvent } from 'react';
import { DEFAULT_PREFERENCES, type Severity } from '@beacon/contracts';
import toast from 'react-hot-toast';
import type { User } from '@supabase/auth-js';
import { errorMessage } from '@/app/api';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { PasswordField, TextField } from '@/common/PasswordField';
import { Spinner } from '@/common/Spinner';
import { auth } from '@/features/auth/auth-client';
import { displayName, selectUser, signedIn, toSignedInUser } from '@/features/auth/auth.slice';
import { useSignOut } from '@/features/auth/useSignOut';
import { validateEmail } from '@/features/auth/validation';
import { useProfilePreferencesQuery, useSaveProfilePreferencesMutation, type ProfilePreferenceChange } from './profile.api';
import { TwoFactorSection } from './TwoFactorSection';
import './profile.css';
import { BadgeCheck } from 'lucide-react';

/** Sign-up's rules apply to a new password (part 1, section 5). */
export function validateNewPassword(password: string, confirm: string): { password?: string; confirm?: string } {
  const errors: { password?: string; confirm?: string } = {};
  if (password.length < 8) errors.password = 'Password must be at least 8 characters';
  if (confirm !== password) errors.confirm = "Passwords don't match";
  return errors;
}

function EmailSetting({ user, onUser }: { user: User; onUser: (u: User) => void }) {
  const [editing, setEditing] = useState(false);
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const problem = validateEmail(email) ?? (email.trim().toLowerCase() === user.email?.toLowerCase() ? 'That is already your email address' : undefined);
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
    if (data.user.email?.toLowerCase() === email.trim().toLowerCase()) toast.success('Email updated successfully!');
    else toast.success(`We sent a confirmation link to ${email.trim()}. Your email changes once you open it.`);
  }

  return (
    <div className="setting">
      <div className="setting-row">
        <div>
          <span className="setting-label" id="email-label">
            Email
          </span>
          <span className="setting-value" aria-labelledby="email-label">
            {user.email}
          </span>
          {user.new_email && <span className="muted small">Waiting for confirmation of {user.new_email}</span>}
        </div>
        {!editing && (
          <button
            type="button"
            className="btn btn-outline btn-sm"
            aria-label="Change email"
            onClick={() => {
              setEditing(true);
              setEmail('');
              setError(undefined);
            }}
          >
            Change
          </button>
        )}
      </div>
      {editing && (
        <form className="setting-form" onSubmit={submit} noValidate aria-label="Change email">
          <TextField label="New email" type="email" name="new-email" autoComplete="email" value={email} onChange={setEmail} error={error} />
          <div className="row">
            <button type="submit" className="btn btn-primary" disabled={busy}>
              {busy ? 'Saving...' : 'Update Email'}
            </button>
            <button type="button" className="btn btn-outline" onClick={() => setEditing(false)}>
              Cancel
            </button>
          </div>
        </form>
      )}
    </div>
  );
}

function PasswordSetting() {
  const [editing, setEditing] = useState(false);
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<{ password?: string; confirm?: string }>({});
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const found = validateNewPassword(password, confirm);
    setErrors(found);
    if (found.password || found.confirm) return;
    setBusy(true);
    const { error } = await auth.updateUser({ password });
    setBusy(false);
    if (error) {
      toast.error(error.message);
      return;
    }
    toast.success('Password updated successfully!');
    setEditing(false);
    setPassword('');
    setConfirm('');
  }

  return (
    <div className="setting">
      <div className="setting-row">
        <div>
          <span className="setting-label">Password</span>
          <span className="setting-value" aria-label="Password hidden">
            ••••••••
          </span>
        </div>
        {!editing && (
          <button
            type="button"
            className="btn btn-outline btn-sm"
            aria-label="Change password"
            onClick={() => {
              setEditing(true);
              setErrors({});
            }}
          >
            Change
          </button>
        )}
      </div>
      {editing && (
        <form className="setting-form" onSubmit={submit} noValidate aria-label="Change password">
          <PasswordField label="New password" name="new-password" autoComplete="new-password" value={password} onChange={setPassword} error={errors.password} />
          <PasswordField
            label="Confirm new password"
            name="confirm-password"
            autoComplete="new-password"
            value={confirm}
            onChange={setConfirm}
            error={errors.confirm}
          />
          <p className="muted small">Changing your password signs you out on your other devices.</p>
          <div className="row">
            <button type="submit" className="btn btn-primary" disabled={busy}>
              {busy ? 'Saving...' : 'Update Password'}
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
              Cancel
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
  const userId = useAppSelector(selectUser)?.id;
  const prefs = useProfilePreferencesQuery();
  const [save, saving] = useSaveProfilePreferencesMutation();
  const thresholdBeforeCritical = useThresholdBeforeCritical(userId, prefs.data?.severityThreshold);

  async function change(update: ProfilePreferenceChange) {
    try {
      await save(update).unwrap();
      toast.success('Notification settings saved');
    } catch (e) {
      toast.error(errorMessage(e, 'Failed to save notification settings'));
    }
  }

  const data = prefs.data;
  return (
    <section className="card profile-section" aria-labelledby="notifications-title" aria-busy={prefs.isFetching || saving.isLoading}>
      <h2 id="notifications-title">Notifications</h2>
      {prefs.isLoading ? (
        <Spinner label="Loading notification settings" />
      ) : prefs.isError || !data ? (
        <div role="alert" className="row-between">
          <span className="muted">Notification settings are not available right now.</span>
          <button type="button" className="btn btn-outline btn-sm" onClick={() => void prefs.refetch()}>
            Try Again
          </button>
        </div>
      ) : (
        <>
          <Toggle
            id="toggle-push"
            label="Push notifications"
            description="Alerts on this device as they happen"
            checked={data.methods.push}
            disabled={saving.isLoading}
            onChange={(push) => void change({ methods: { push } })}
          />
          <Toggle
            id="toggle-email"
            label="Email notifications"
            description="Alerts and digests by email"
            checked={data.methods.email}
            disabled={saving.isLoading}
            onChange={(email) => void change({ methods: { email } })}
          />
          <Toggle
            id="toggle-critical"
            label="Critical alerts only"
            description="Only notify me about critical alerts"
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
      <h1 id="profile-title">Profile Settings</h1>

      <section className="card profile-account" aria-label="Account">
        <div className="avatar" aria-hidden="true">
          {displayName(email).charAt(0).toUpperCase()}
        </div>
        <div className="profile-identity">
          <h2>{displayName(email)}</h2>
          <span className="muted">{email}</span>
          {user &&
            (verified ? (
              <span className="badge badge-success">
                <BadgeCheck aria-hidden="true" size={16} /> Account Verified
              </span>
            ) : (
              <span className="badge badge-medium">Email not verified yet</span>
            ))}
        </div>
        <button type="button" className="btn btn-outline" onClick={signOut}>
          Sign Out
        </button>
      </section>

      <section className="card profile-section" aria-labelledby="signin-title">
        <h2 id="signin-title">Sign-in Details</h2>
        {user ? (
          <>
            <EmailSetting user={user} onUser={onUser} />
            <PasswordSetting />
          </>
        ) : loadError ? (
          <p role="alert">Your account details could not be loaded. Please refresh the page.</p>
        ) : (
          <Spinner label="Loading your account" />
        )}
      </section>

      <NotificationSettings />
      <TwoFactorSection />

      <section className="card profile-section profile-signout" aria-label="Session">
        <p className="muted">Signed in as {email}</p>
        <button type="button" className="btn btn-danger" onClick={signOut}>
          Sign Out
        </button>
      </section>
    </main>
  );
}

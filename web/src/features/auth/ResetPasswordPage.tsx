import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import toast from 'react-hot-toast';
import { useAppSelector } from '@/app/hooks';
import { PasswordField } from '@/common/PasswordField';
import { FullPageSpinner, Spinner } from '@/common/Spinner';
import { auth } from './auth-client';
import { selectAuthStatus } from './auth.slice';
import { SecondFactorForm } from './SecondFactorForm';
import { hasErrors, validateNewPassword, type FieldErrors } from './validation';

/**
 * The page the recovery mail links to: the client library turns the link into a session, then the user picks a
 * password. A recovery link proves the mailbox, not the second factor: like the hosted service, the identity
 * service changes the password of a user with two-factor authentication only from an aal2 session, so such a
 * user enters a code from the authenticator app first.
 */
export function ResetPasswordPage() {
  const navigate = useNavigate();
  const status = useAppSelector(selectAuthStatus);
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);

  if (status === 'loading') return <FullPageSpinner label="Checking your link" />;
  if (status === 'secondFactor') {
    return (
      <main className="auth-page">
        <SecondFactorForm
          intro="Your account has two-factor authentication. Enter the 6-digit code from your authenticator app, then choose a new password."
          // the session is aal2 now, so this page shows the password form
          onVerified={() => undefined}
          onCancelled={() => navigate('/login', { replace: true })}
        />
      </main>
    );
  }
  if (status === 'signedOut') {
    return (
      <main className="auth-page">
        <section className="card auth-card">
          <h1>This link has expired</h1>
          <p>Password reset links work once and for one hour. Ask for a new one.</p>
          <Link className="btn btn-primary" to="/forgot-password">
            Send a new link
          </Link>
        </section>
      </main>
    );
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    const found = validateNewPassword({ password, confirmPassword });
    setErrors(found);
    if (hasErrors(found)) return;
    setBusy(true);
    const { error } = await auth.updateUser({ password });
    setBusy(false);
    if (error) {
      toast.error(error.message);
      return;
    }
    toast.success('Your password has been changed');
    navigate('/dashboard', { replace: true });
  }

  return (
    <main className="auth-page">
      <form className="card auth-card" onSubmit={submit} noValidate aria-labelledby="reset-title">
        <h1 id="reset-title">Choose a new password</h1>
        <PasswordField label="New password" autoComplete="new-password" value={password} onChange={setPassword} error={errors.password} />
        <PasswordField
          label="Confirm new password"
          autoComplete="new-password"
          value={confirmPassword}
          onChange={setConfirmPassword}
          error={errors.confirmPassword}
        />
        <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
          {busy ? (
            <>
              <Spinner size="sm" label="Saving" /> Saving...
            </>
          ) : (
            'Set New Password'
          )}
        </button>
      </form>
    </main>
  );
}

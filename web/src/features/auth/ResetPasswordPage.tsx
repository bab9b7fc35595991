import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import toast from 'react-hot-toast';
import { FormattedMessage, useIntl } from 'react-intl';
import { useAppSelector } from '@/app/hooks';
import { PasswordField } from '@/common/PasswordField';
import { FullPageSpinner, Spinner } from '@/common/Spinner';
import { auth } from './auth-client';
import { authErrorMessage } from './auth-errors';
import { selectAuthStatus } from './auth.slice';
import { FIELDS } from './fields';
import { SecondFactorForm } from './SecondFactorForm';
import { hasErrors, newPasswordProblems, worded, type FieldProblems } from './validation';

/**
 * The page the recovery mail links to: the client library turns the link into a session, then the user picks a
 * password. A recovery link proves the mailbox, not the second factor: like the hosted service, the identity
 * service changes the password of a user with two-factor authentication only from an aal2 session, so such a
 * user enters a code from the authenticator app first.
 */
export function ResetPasswordPage() {
  const intl = useIntl();
  const navigate = useNavigate();
  const status = useAppSelector(selectAuthStatus);
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [problems, setProblems] = useState<FieldProblems>({});
  const errors = worded(problems, intl);
  const [busy, setBusy] = useState(false);

  if (status === 'loading') return <FullPageSpinner label={intl.formatMessage({ id: 'auth.reset.checking', defaultMessage: 'Checking your link' })} />;
  if (status === 'secondFactor') {
    return (
      <main className="auth-page">
        <SecondFactorForm
          intro={intl.formatMessage({
            id: 'auth.reset.codeIntro',
            defaultMessage: 'Your account has two-factor authentication. Enter the 6-digit code from your authenticator app, then choose a new password.',
          })}
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
          <h1>
            <FormattedMessage id="auth.reset.expiredTitle" defaultMessage="This link has expired" />
          </h1>
          <p>
            <FormattedMessage id="auth.reset.expiredText" defaultMessage="Password reset links work once and for one hour. Ask for a new one." />
          </p>
          <Link className="btn btn-primary" to="/forgot-password">
            <FormattedMessage id="auth.reset.newLink" defaultMessage="Send a new link" />
          </Link>
        </section>
      </main>
    );
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    const found = newPasswordProblems({ password, confirmPassword });
    setProblems(found);
    if (hasErrors(found)) return;
    setBusy(true);
    const { error } = await auth.updateUser({ password });
    setBusy(false);
    if (error) {
      toast.error(
        authErrorMessage(error, intl.formatMessage({ id: 'auth.reset.failed', defaultMessage: 'Your password could not be changed. Please try again.' })),
      );
      return;
    }
    toast.success(intl.formatMessage({ id: 'auth.reset.changed', defaultMessage: 'Your password has been changed' }));
    navigate('/dashboard', { replace: true });
  }

  return (
    <main className="auth-page">
      <form className="card auth-card" onSubmit={submit} noValidate aria-labelledby="reset-title">
        <h1 id="reset-title">
          <FormattedMessage id="auth.reset.title" defaultMessage="Choose a new password" />
        </h1>
        <PasswordField
          label={intl.formatMessage(FIELDS.newPassword)}
          autoComplete="new-password"
          value={password}
          onChange={setPassword}
          error={errors.password}
        />
        <PasswordField
          label={intl.formatMessage(FIELDS.confirmNewPassword)}
          autoComplete="new-password"
          value={confirmPassword}
          onChange={setConfirmPassword}
          error={errors.confirmPassword}
        />
        <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
          {busy ? (
            <>
              <Spinner size="sm" label={intl.formatMessage({ id: 'auth.reset.busyLabel', defaultMessage: 'Saving' })} />{' '}
              <FormattedMessage id="auth.reset.busy" defaultMessage="Saving..." />
            </>
          ) : (
            <FormattedMessage id="auth.reset.submit" defaultMessage="Set New Password" />
          )}
        </button>
      </form>
    </main>
  );
}

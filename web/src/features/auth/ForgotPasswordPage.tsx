import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import toast from 'react-hot-toast';
import { FormattedMessage, useIntl } from 'react-intl';
import type { MessageDescriptor } from 'react-intl';
import { TextField } from '@/common/PasswordField';
import { Spinner } from '@/common/Spinner';
import { auth } from './auth-client';
import { authErrorMessage } from './auth-errors';
import { FIELDS } from './fields';
import { emailProblem } from './validation';

export function ForgotPasswordPage() {
  const intl = useIntl();
  const [email, setEmail] = useState('');
  const [problem, setProblem] = useState<MessageDescriptor>();
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const invalid = emailProblem(email);
    setProblem(invalid);
    if (invalid) return;
    setBusy(true);
    const { error: failed } = await auth.resetPasswordForEmail(email.trim(), { redirectTo: `${window.location.origin}/reset-password` });
    setBusy(false);
    if (failed) {
      toast.error(
        authErrorMessage(failed, intl.formatMessage({ id: 'auth.forgot.failed', defaultMessage: 'The reset link could not be sent. Please try again.' })),
      );
      return;
    }
    setSent(true);
    toast.success(intl.formatMessage({ id: 'auth.forgot.sentToast', defaultMessage: 'Password reset email sent!' }));
  }

  return (
    <main className="auth-page">
      <form className="card auth-card" onSubmit={submit} noValidate aria-labelledby="forgot-title">
        <h1 id="forgot-title">
          <FormattedMessage id="auth.forgot.title" defaultMessage="Reset your password" />
        </h1>
        {sent ? (
          <p role="status">
            <FormattedMessage
              id="auth.forgot.sent"
              defaultMessage="If an account exists for {email}, a link to choose a new password is on its way. It works once, for one hour."
              values={{ email: email.trim() }}
            />
          </p>
        ) : (
          <>
            <p className="muted">
              <FormattedMessage
                id="auth.forgot.intro"
                defaultMessage="Enter the e-mail you signed up with and we will send you a link to choose a new password."
              />
            </p>
            <TextField
              label={intl.formatMessage(FIELDS.email)}
              type="email"
              name="email"
              autoComplete="email"
              value={email}
              onChange={setEmail}
              error={problem && intl.formatMessage(problem)}
            />
            <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
              {busy ? (
                <>
                  <Spinner size="sm" label={intl.formatMessage({ id: 'auth.forgot.busyLabel', defaultMessage: 'Sending' })} />{' '}
                  <FormattedMessage id="auth.forgot.busy" defaultMessage="Sending..." />
                </>
              ) : (
                <FormattedMessage id="auth.forgot.submit" defaultMessage="Send Reset Link" />
              )}
            </button>
          </>
        )}
        <p className="muted center">
          <Link to="/login">
            <FormattedMessage id="auth.forgot.backToSignIn" defaultMessage="Back to Sign In" />
          </Link>
        </p>
      </form>
    </main>
  );
}

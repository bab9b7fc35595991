import { useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import toast from 'react-hot-toast';
import { FormattedMessage, useIntl } from 'react-intl';
import { useAppSelector } from '@/app/hooks';
import { PasswordField, TextField } from '@/common/PasswordField';
import { Spinner } from '@/common/Spinner';
import { needsSecondFactor } from './assurance';
import { authErrorMessage } from './auth-errors';
import { auth, setRememberMe } from './auth-client';
import { selectAuthStatus } from './auth.slice';
import { FIELDS } from './fields';
import { SecondFactorForm } from './SecondFactorForm';
import { hasErrors, signInProblems, worded, type FieldProblems } from './validation';

export function LoginPage() {
  const intl = useIntl();
  const navigate = useNavigate();
  const location = useLocation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(true);
  const [problems, setProblems] = useState<FieldProblems>({});
  const errors = worded(problems, intl);
  const [busy, setBusy] = useState(false);
  const [askForCode, setAskForCode] = useState(false);
  // A session that is still waiting for its code (e.g. after a reload, or sent here by a protected page) resumes here.
  const waitingForCode = useAppSelector(selectAuthStatus) === 'secondFactor';

  function continueToPage() {
    toast.success(intl.formatMessage({ id: 'auth.signIn.success', defaultMessage: 'Signed in successfully!' }));
    const from = (location.state as { from?: string } | null)?.from;
    navigate(from && from.startsWith('/') && !from.startsWith('//') ? from : '/dashboard', { replace: true });
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    const found = signInProblems({ email, password });
    setProblems(found);
    if (hasErrors(found)) return;
    setBusy(true);
    setRememberMe(remember);
    const { data, error } = await auth.signInWithPassword({ email: email.trim(), password });
    if (error) {
      setBusy(false);
      toast.error(authErrorMessage(error, intl.formatMessage({ id: 'auth.signIn.failed', defaultMessage: 'Could not sign you in. Please try again.' })));
      return;
    }
    // With two-factor authentication on, the password alone gives an aal1 session: the code comes first.
    const { data: aal } = await auth.mfa.getAuthenticatorAssuranceLevel();
    setBusy(false);
    const codeNeeded = aal ? aal.currentLevel === 'aal1' && aal.nextLevel === 'aal2' : needsSecondFactor(data.session);
    if (codeNeeded) {
      setPassword('');
      setAskForCode(true);
      return;
    }
    continueToPage();
  }

  if (askForCode || waitingForCode) {
    return (
      <main className="auth-page">
        <SecondFactorForm
          intro={intl.formatMessage({
            id: 'auth.signIn.codeIntro',
            defaultMessage: 'Enter the 6-digit code from your authenticator app to finish signing in.',
          })}
          onVerified={continueToPage}
          onCancelled={() => setAskForCode(false)}
        />
      </main>
    );
  }

  return (
    <main className="auth-page">
      <form className="card auth-card" onSubmit={submit} noValidate aria-labelledby="login-title">
        <h1 id="login-title">
          <FormattedMessage id="auth.signIn.title" defaultMessage="Sign in to Beacon" />
        </h1>
        <TextField
          label={intl.formatMessage(FIELDS.email)}
          type="email"
          name="email"
          autoComplete="email"
          value={email}
          onChange={setEmail}
          error={errors.email}
        />
        <PasswordField
          label={intl.formatMessage(FIELDS.password)}
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={setPassword}
          error={errors.password}
        />
        <div className="row-between">
          <label className="checkbox">
            <input type="checkbox" checked={remember} onChange={(e) => setRemember(e.target.checked)} />
            <FormattedMessage id="auth.signIn.rememberMe" defaultMessage="Remember me" />
          </label>
          <Link to="/forgot-password">
            <FormattedMessage id="auth.signIn.forgotPassword" defaultMessage="Forgot password?" />
          </Link>
        </div>
        <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
          {busy ? (
            <>
              <Spinner size="sm" label={intl.formatMessage({ id: 'auth.signIn.busyLabel', defaultMessage: 'Signing in' })} />{' '}
              <FormattedMessage id="auth.signIn.busy" defaultMessage="Signing in..." />
            </>
          ) : (
            <FormattedMessage id="auth.signIn.submit" defaultMessage="Sign In" />
          )}
        </button>
        <p className="muted center">
          <FormattedMessage
            id="auth.signIn.newHere"
            defaultMessage="New to Beacon? <link>Create Account</link>"
            values={{ link: (chunks) => <Link to="/signup">{chunks}</Link> }}
          />
        </p>
      </form>
    </main>
  );
}

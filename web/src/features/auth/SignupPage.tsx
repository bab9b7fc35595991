import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import toast from 'react-hot-toast';
import { FormattedMessage, useIntl } from 'react-intl';
import { PasswordField, TextField } from '@/common/PasswordField';
import { Spinner } from '@/common/Spinner';
import { auth } from './auth-client';
import { authErrorMessage } from './auth-errors';
import { FIELDS } from './fields';
import { hasErrors, signUpProblems, worded, type FieldProblems } from './validation';

export function SignupPage() {
  const intl = useIntl();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [terms, setTerms] = useState(false);
  const [problems, setProblems] = useState<FieldProblems>({});
  const errors = worded(problems, intl);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const found = signUpProblems({ email, password, confirmPassword, terms });
    setProblems(found);
    if (hasErrors(found)) return;
    setBusy(true);
    const { data, error } = await auth.signUp({ email: email.trim(), password, options: { emailRedirectTo: `${window.location.origin}/login` } });
    setBusy(false);
    if (error) {
      toast.error(
        authErrorMessage(error, intl.formatMessage({ id: 'auth.signUp.failed', defaultMessage: 'Your account could not be created. Please try again.' })),
      );
      return;
    }
    // With auto-confirm the account is confirmed at once and the service signs the new user in: asking them to verify
    // an address that already is (the profile says "Account Verified") would contradict it. The spec sends them to
    // sign in themselves either way.
    if (data.session) {
      toast.success(intl.formatMessage({ id: 'auth.signUp.createdSignIn', defaultMessage: 'Account created successfully! You can sign in now.' }));
      await auth.signOut({ scope: 'local' });
    } else {
      toast.success(
        intl.formatMessage({
          id: 'auth.signUp.createdVerify',
          defaultMessage: 'Account created successfully! Please check your email to verify your account.',
        }),
      );
    }
    navigate('/login', { replace: true });
  }

  return (
    <main className="auth-page">
      <form className="card auth-card" onSubmit={submit} noValidate aria-labelledby="signup-title">
        <h1 id="signup-title">
          <FormattedMessage id="auth.signUp.title" defaultMessage="Create your Beacon account" />
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
          autoComplete="new-password"
          value={password}
          onChange={setPassword}
          error={errors.password}
        />
        <PasswordField
          label={intl.formatMessage(FIELDS.confirmPassword)}
          name="confirmPassword"
          autoComplete="new-password"
          value={confirmPassword}
          onChange={setConfirmPassword}
          error={errors.confirmPassword}
        />
        <div className="field">
          <label className="checkbox">
            <input type="checkbox" checked={terms} onChange={(e) => setTerms(e.target.checked)} aria-invalid={Boolean(errors.terms)} />
            <span>
              <FormattedMessage
                id="auth.signUp.terms"
                defaultMessage="I agree to the <terms>Terms of Service</terms> and <privacy>Privacy Policy</privacy>"
                values={{
                  terms: (chunks) => (
                    <a href="/terms" target="_blank" rel="noopener noreferrer">
                      {chunks}
                    </a>
                  ),
                  privacy: (chunks) => (
                    <a href="/privacy" target="_blank" rel="noopener noreferrer">
                      {chunks}
                    </a>
                  ),
                }}
              />
            </span>
          </label>
          {errors.terms && <p className="field-error">{errors.terms}</p>}
        </div>
        <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
          {busy ? (
            <>
              <Spinner size="sm" label={intl.formatMessage({ id: 'auth.signUp.busyLabel', defaultMessage: 'Creating account' })} />{' '}
              <FormattedMessage id="auth.signUp.busy" defaultMessage="Creating account..." />
            </>
          ) : (
            <FormattedMessage id="auth.signUp.submit" defaultMessage="Create Account" />
          )}
        </button>
        <p className="muted center">
          <FormattedMessage
            id="auth.signUp.haveAccount"
            defaultMessage="Already have an account? <link>Sign In</link>"
            values={{ link: (chunks) => <Link to="/login">{chunks}</Link> }}
          />
        </p>
      </form>
    </main>
  );
}

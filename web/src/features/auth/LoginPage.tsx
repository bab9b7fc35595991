import { useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import toast from 'react-hot-toast';
import { useAppSelector } from '@/app/hooks';
import { PasswordField, TextField } from '@/common/PasswordField';
import { Spinner } from '@/common/Spinner';
import { needsSecondFactor } from './assurance';
import { auth, setRememberMe } from './auth-client';
import { selectAuthStatus } from './auth.slice';
import { SecondFactorForm } from './SecondFactorForm';
import { hasErrors, validateSignIn, type FieldErrors } from './validation';

export function LoginPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(true);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const [askForCode, setAskForCode] = useState(false);
  // A session that is still waiting for its code (e.g. after a reload, or sent here by a protected page) resumes here.
  const waitingForCode = useAppSelector(selectAuthStatus) === 'secondFactor';

  function continueToPage() {
    toast.success('Signed in successfully!');
    const from = (location.state as { from?: string } | null)?.from;
    navigate(from && from.startsWith('/') && !from.startsWith('//') ? from : '/dashboard', { replace: true });
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    const found = validateSignIn({ email, password });
    setErrors(found);
    if (hasErrors(found)) return;
    setBusy(true);
    setRememberMe(remember);
    const { data, error } = await auth.signInWithPassword({ email: email.trim(), password });
    if (error) {
      setBusy(false);
      toast.error(error.message);
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
          intro="Enter the 6-digit code from your authenticator app to finish signing in."
          onVerified={continueToPage}
          onCancelled={() => setAskForCode(false)}
        />
      </main>
    );
  }

  return (
    <main className="auth-page">
      <form className="card auth-card" onSubmit={submit} noValidate aria-labelledby="login-title">
        <h1 id="login-title">Sign in to Beacon</h1>
        <TextField label="Email" type="email" name="email" autoComplete="email" value={email} onChange={setEmail} error={errors.email} />
        <PasswordField label="Password" name="password" autoComplete="current-password" value={password} onChange={setPassword} error={errors.password} />
        <div className="row-between">
          <label className="checkbox">
            <input type="checkbox" checked={remember} onChange={(e) => setRemember(e.target.checked)} /> Remember me
          </label>
          <Link to="/forgot-password">Forgot password?</Link>
        </div>
        <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
          {busy ? (
            <>
              <Spinner size="sm" label="Signing in" /> Signing in...
            </>
          ) : (
            'Sign In'
          )}
        </button>
        <p className="muted center">
          New to Beacon? <Link to="/signup">Create Account</Link>
        </p>
      </form>
    </main>
  );
}

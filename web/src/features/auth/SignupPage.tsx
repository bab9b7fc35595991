import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import toast from 'react-hot-toast';
import { PasswordField, TextField } from '@/common/PasswordField';
import { Spinner } from '@/common/Spinner';
import { auth } from './auth-client';
import { hasErrors, validateSignUp, type FieldErrors } from './validation';

export function SignupPage() {
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [terms, setTerms] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const found = validateSignUp({ email, password, confirmPassword, terms });
    setErrors(found);
    if (hasErrors(found)) return;
    setBusy(true);
    const { data, error } = await auth.signUp({ email: email.trim(), password, options: { emailRedirectTo: `${window.location.origin}/login` } });
    setBusy(false);
    if (error) {
      toast.error(error.message);
      return;
    }
    // With auto-confirm the account is confirmed at once and the service signs the new user in: asking them to verify
    // an address that already is (the profile says "Account Verified") would contradict it. The spec sends them to
    // sign in themselves either way.
    if (data.session) {
      toast.success('Account created successfully! You can sign in now.');
      await auth.signOut({ scope: 'local' });
    } else {
      toast.success('Account created successfully! Please check your email to verify your account.');
    }
    navigate('/login', { replace: true });
  }

  return (
    <main className="auth-page">
      <form className="card auth-card" onSubmit={submit} noValidate aria-labelledby="signup-title">
        <h1 id="signup-title">Create your Beacon account</h1>
        <TextField label="Email" type="email" name="email" autoComplete="email" value={email} onChange={setEmail} error={errors.email} />
        <PasswordField label="Password" name="password" autoComplete="new-password" value={password} onChange={setPassword} error={errors.password} />
        <PasswordField
          label="Confirm password"
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
              I agree to the{' '}
              <a href="/terms" target="_blank" rel="noopener noreferrer">
                Terms of Service
              </a>{' '}
              and{' '}
              <a href="/privacy" target="_blank" rel="noopener noreferrer">
                Privacy Policy
              </a>
            </span>
          </label>
          {errors.terms && <p className="field-error">{errors.terms}</p>}
        </div>
        <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
          {busy ? (
            <>
              <Spinner size="sm" label="Creating account" /> Creating account...
            </>
          ) : (
            'Create Account'
          )}
        </button>
        <p className="muted center">
          Already have an account? <Link to="/login">Sign In</Link>
        </p>
      </form>
    </main>
  );
}

import { useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import toast from 'react-hot-toast';
import { PasswordField, TextField } from '@/common/PasswordField';
import { Spinner } from '@/common/Spinner';
import { auth, setRememberMe } from './auth-client';
import { hasErrors, validateSignIn, type FieldErrors } from './validation';

export function LoginPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(true);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const found = validateSignIn({ email, password });
    setErrors(found);
    if (hasErrors(found)) return;
    setBusy(true);
    setRememberMe(remember);
    const { error } = await auth.signInWithPassword({ email: email.trim(), password });
    setBusy(false);
    if (error) {
      toast.error(error.message);
      return;
    }
    toast.success('Signed in successfully!');
    const from = (location.state as { from?: string } | null)?.from;
    navigate(from && from.startsWith('/') && !from.startsWith('//') ? from : '/dashboard', { replace: true });
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
          {busy ? <><Spinner size="sm" label="Signing in" /> Signing in...</> : 'Sign In'}
        </button>
        <p className="muted center">
          New to Beacon? <Link to="/signup">Create Account</Link>
        </p>
      </form>
    </main>
  );
}

import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import toast from 'react-hot-toast';
import { TextField } from '@/common/PasswordField';
import { Spinner } from '@/common/Spinner';
import { auth } from './auth-client';
import { validateEmail } from './validation';

export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const invalid = validateEmail(email);
    setError(invalid);
    if (invalid) return;
    setBusy(true);
    const { error: failed } = await auth.resetPasswordForEmail(email.trim(), { redirectTo: `${window.location.origin}/reset-password` });
    setBusy(false);
    if (failed) {
      toast.error(failed.message);
      return;
    }
    setSent(true);
    toast.success('Password reset email sent!');
  }

  return (
    <main className="auth-page">
      <form className="card auth-card" onSubmit={submit} noValidate aria-labelledby="forgot-title">
        <h1 id="forgot-title">Reset your password</h1>
        {sent ? (
          <p role="status">If an account exists for {email.trim()}, a link to choose a new password is on its way. It works once, for one hour.</p>
        ) : (
          <>
            <p className="muted">Enter the e-mail you signed up with and we will send you a link to choose a new password.</p>
            <TextField label="Email" type="email" name="email" autoComplete="email" value={email} onChange={setEmail} error={error} />
            <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
              {busy ? (
                <>
                  <Spinner size="sm" label="Sending" /> Sending...
                </>
              ) : (
                'Send Reset Link'
              )}
            </button>
          </>
        )}
        <p className="muted center">
          <Link to="/login">Back to Sign In</Link>
        </p>
      </form>
    </main>
  );
}

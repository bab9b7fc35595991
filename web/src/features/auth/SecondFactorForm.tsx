import { useEffect, useId, useState, type FormEvent } from 'react';
import { useAppDispatch } from '@/app/hooks';
import { Spinner } from '@/common/Spinner';
import { auth } from './auth-client';
import { signedIn, signedOut, toSignedInUser } from './auth.slice';

interface Props {
  /** Why the code is asked for, under the heading. */
  intro: string;
  /** The session is aal2 now. */
  onVerified: () => void;
  /** The half-made session has been signed out. */
  onCancelled: () => void;
}

/**
 * The second step of signing in for a user with two-factor authentication: a 6-digit code from the authenticator
 * app, checked against the user's verified TOTP factor, raises the session to aal2. Cancel signs the session out.
 */
export function SecondFactorForm({ intro, onVerified, onCancelled }: Props) {
  const dispatch = useAppDispatch();
  const id = useId();
  const [factorId, setFactorId] = useState<string | null>(null);
  const [loadError, setLoadError] = useState<string>();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    auth.mfa.listFactors().then(({ data, error: failed }) => {
      if (!live) return;
      // listFactors' totp holds verified factors only
      const factor = data?.totp[0];
      if (factor) setFactorId(factor.id);
      else setLoadError(failed?.message ?? 'No authenticator app is set up for this account.');
    });
    return () => {
      live = false;
    };
  }, []);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!factorId) return;
    if (!/^\d{6}$/.test(code)) {
      setError('Enter the 6-digit code from your authenticator app');
      return;
    }
    setBusy(true);
    const { data, error: failed } = await auth.mfa.challengeAndVerify({ factorId, code });
    setBusy(false);
    if (failed) {
      setError(failed.message);
      setCode('');
      return;
    }
    // The client's MFA_CHALLENGE_VERIFIED event says the same; this makes the step independent of its timing.
    if (data?.user) dispatch(signedIn(toSignedInUser(data.user)));
    onVerified();
  }

  async function cancel() {
    setBusy(true);
    // A local sign-out removes the stored session even when the server cannot be reached.
    await auth.signOut({ scope: 'local' });
    setBusy(false);
    dispatch(signedOut());
    onCancelled();
  }

  return (
    <form className="card auth-card" onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
      <h1 id={`${id}-title`}>Two-factor authentication</h1>
      <p className="muted">{intro}</p>
      {loadError ? (
        <p role="alert" className="field-error">
          {loadError}
        </p>
      ) : (
        <div className="field">
          <label htmlFor={`${id}-code`}>Authentication code</label>
          <input
            id={`${id}-code`}
            name="one-time-code"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]*"
            maxLength={6}
            autoFocus
            value={code}
            onChange={(e) => setCode(e.target.value.replace(/\D/g, '').slice(0, 6))}
            aria-invalid={Boolean(error)}
            aria-describedby={error ? `${id}-error` : undefined}
          />
          {error && (
            <p id={`${id}-error`} className="field-error" role="alert">
              {error}
            </p>
          )}
        </div>
      )}
      <button type="submit" className="btn btn-primary btn-block" disabled={busy || !factorId}>
        {busy ? (
          <>
            <Spinner size="sm" label="Verifying" /> Verifying...
          </>
        ) : (
          'Verify'
        )}
      </button>
      <button type="button" className="btn btn-outline btn-block" onClick={cancel} disabled={busy}>
        Cancel and sign out
      </button>
    </form>
  );
}

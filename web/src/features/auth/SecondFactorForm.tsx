import { useEffect, useId, useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl, type MessageDescriptor } from 'react-intl';
import { useAppDispatch } from '@/app/hooks';
import { Spinner } from '@/common/Spinner';
import { defineMessages } from '@/i18n';
import { auth } from './auth-client';
import { authErrorMessage } from './auth-errors';
import { signedIn, signedOut, toSignedInUser } from './auth.slice';

const CODE = defineMessages({
  noFactor: { id: 'auth.secondFactor.noFactor', defaultMessage: 'No authenticator app is set up for this account.' },
  format: { id: 'auth.secondFactor.format', defaultMessage: 'Enter the 6-digit code from your authenticator app' },
  failed: { id: 'auth.secondFactor.failed', defaultMessage: 'The code could not be checked. Please try again.' },
});

/** A problem shown on the form: a message of ours, or what the service said (worded when it was received). */
type Problem = { message: MessageDescriptor } | { text: string };

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
  const intl = useIntl();
  const dispatch = useAppDispatch();
  const id = useId();
  const [factorId, setFactorId] = useState<string | null>(null);
  const [loadProblem, setLoadProblem] = useState<Problem>();
  const [code, setCode] = useState('');
  const [problem, setProblem] = useState<Problem>();
  const words = (p: Problem | undefined) => (p === undefined ? undefined : 'text' in p ? p.text : intl.formatMessage(p.message));
  const loadError = words(loadProblem);
  const error = words(problem);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    auth.mfa.listFactors().then(({ data, error: failed }) => {
      if (!live) return;
      // listFactors' totp holds verified factors only
      const factor = data?.totp[0];
      if (factor) setFactorId(factor.id);
      else setLoadProblem(failed ? { text: authErrorMessage(failed, intl.formatMessage(CODE.noFactor), intl) } : { message: CODE.noFactor });
    });
    return () => {
      live = false;
    };
    // the factors are read once; the words of a problem follow the language (words())
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!factorId) return;
    if (!/^\d{6}$/.test(code)) {
      setProblem({ message: CODE.format });
      return;
    }
    setBusy(true);
    const { data, error: failed } = await auth.mfa.challengeAndVerify({ factorId, code });
    setBusy(false);
    if (failed) {
      setProblem({ text: authErrorMessage(failed, intl.formatMessage(CODE.failed), intl) });
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
      <h1 id={`${id}-title`}>
        <FormattedMessage id="auth.secondFactor.title" defaultMessage="Two-factor authentication" />
      </h1>
      <p className="muted">{intro}</p>
      {loadError ? (
        <p role="alert" className="field-error">
          {loadError}
        </p>
      ) : (
        <div className="field">
          <label htmlFor={`${id}-code`}>
            <FormattedMessage id="auth.secondFactor.codeLabel" defaultMessage="Authentication code" />
          </label>
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
            <Spinner size="sm" label={intl.formatMessage({ id: 'auth.secondFactor.busyLabel', defaultMessage: 'Verifying' })} />{' '}
            <FormattedMessage id="auth.secondFactor.busy" defaultMessage="Verifying..." />
          </>
        ) : (
          <FormattedMessage id="auth.secondFactor.submit" defaultMessage="Verify" />
        )}
      </button>
      <button type="button" className="btn btn-outline btn-block" onClick={cancel} disabled={busy}>
        <FormattedMessage id="auth.secondFactor.cancel" defaultMessage="Cancel and sign out" />
      </button>
    </form>
  );
}

import { useCallback, useEffect, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { FormattedMessage, useIntl } from 'react-intl';
import type { Factor } from '@supabase/auth-js';
import { auth } from '@/features/auth/auth-client';
import { Spinner } from '@/common/Spinner';

interface Enrolment {
  factorId: string;
  qrCode: string;
  secret: string;
}

/**
 * Two-factor authentication with an authenticator app (TOTP): Enable enrols a factor and shows its QR
 * code; the factor only counts once a code from the app has been verified.
 */
export function TwoFactorSection() {
  const intl = useIntl();
  const [factors, setFactors] = useState<Factor[] | null>(null);
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const refresh = useCallback(async () => {
    const { data, error } = await auth.mfa.listFactors();
    setFactors(error ? [] : data.totp);
  }, []);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  const verified = factors?.find((f) => f.status === 'verified');

  async function enable() {
    setBusy(true);
    // An unfinished enrolment from an earlier attempt would block a new one with the same name.
    const { data: list } = await auth.mfa.listFactors();
    for (const f of list?.all ?? []) if (f.status === 'unverified') await auth.mfa.unenroll({ factorId: f.id });
    const { data, error } = await auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Authenticator app', issuer: 'Beacon' });
    setBusy(false);
    if (error || !data) {
      toast.error(error?.message ?? intl.formatMessage({ id: 'profile.twoFactor.startFailed', defaultMessage: 'Could not start two-factor setup' }));
      return;
    }
    setEnrolment({ factorId: data.id, qrCode: data.totp.qr_code, secret: data.totp.secret });
    setCode('');
    setCodeError(undefined);
  }

  async function verify(e: FormEvent) {
    e.preventDefault();
    if (!enrolment) return;
    if (!/^\d{6}$/.test(code.trim())) {
      setCodeError(intl.formatMessage({ id: 'profile.twoFactor.codeInvalid', defaultMessage: 'Enter the 6-digit code from your authenticator app' }));
      return;
    }
    setBusy(true);
    const { error } = await auth.mfa.challengeAndVerify({ factorId: enrolment.factorId, code: code.trim() });
    setBusy(false);
    if (error) {
      setCodeError(error.message);
      return;
    }
    toast.success(intl.formatMessage({ id: 'profile.twoFactor.enabledToast', defaultMessage: 'Two-factor authentication enabled' }));
    setEnrolment(null);
    await refresh();
  }

  async function cancel() {
    if (enrolment) await auth.mfa.unenroll({ factorId: enrolment.factorId });
    setEnrolment(null);
  }

  async function disable() {
    if (!verified) return;
    setBusy(true);
    const { error } = await auth.mfa.unenroll({ factorId: verified.id });
    setBusy(false);
    if (error) {
      toast.error(error.message);
      return;
    }
    toast.success(intl.formatMessage({ id: 'profile.twoFactor.disabledToast', defaultMessage: 'Two-factor authentication turned off' }));
    await refresh();
  }

  return (
    <section className="card profile-section" aria-labelledby="twofa-title">
      <div className="setting-row">
        <div>
          <h2 id="twofa-title">
            <FormattedMessage id="profile.twoFactor.title" defaultMessage="Two-Factor Authentication" />
          </h2>
          <p className="muted small">
            {verified ? (
              <FormattedMessage id="profile.twoFactor.on" defaultMessage="On: signing in needs a code from your authenticator app." />
            ) : (
              <FormattedMessage id="profile.twoFactor.off" defaultMessage="Add a second step to sign-in with an authenticator app." />
            )}
          </p>
        </div>
        {factors === null ? (
          <Spinner size="sm" label={intl.formatMessage({ id: 'profile.twoFactor.checking', defaultMessage: 'Checking two-factor status' })} />
        ) : verified ? (
          <div className="row">
            <span className="badge badge-success">
              <FormattedMessage id="profile.twoFactor.enabled" defaultMessage="Enabled" />
            </span>
            <button type="button" className="btn btn-outline btn-sm" onClick={disable} disabled={busy}>
              <FormattedMessage id="profile.twoFactor.disable" defaultMessage="Disable" />
            </button>
          </div>
        ) : !enrolment ? (
          <button
            type="button"
            className="btn btn-primary btn-sm"
            onClick={enable}
            disabled={busy}
            aria-label={intl.formatMessage({ id: 'profile.twoFactor.enableLabel', defaultMessage: 'Enable two-factor authentication' })}
          >
            {busy ? (
              <FormattedMessage id="profile.twoFactor.starting" defaultMessage="Starting..." />
            ) : (
              <FormattedMessage id="profile.twoFactor.enable" defaultMessage="Enable" />
            )}
          </button>
        ) : null}
      </div>
      {enrolment && (
        <form className="twofa-setup" onSubmit={verify} noValidate>
          <ol className="small">
            <li>
              <FormattedMessage
                id="profile.twoFactor.stepScan"
                defaultMessage="Scan this QR code with an authenticator app (Google Authenticator, 1Password, Authy...)."
              />
            </li>
            <li>
              <FormattedMessage id="profile.twoFactor.stepCode" defaultMessage="Enter the 6-digit code the app shows." />
            </li>
          </ol>
          <img
            className="twofa-qr"
            src={enrolment.qrCode}
            alt={intl.formatMessage({ id: 'profile.twoFactor.qrAlt', defaultMessage: 'QR code to add Beacon to your authenticator app' })}
            width={180}
            height={180}
          />
          <p className="small">
            <FormattedMessage
              id="profile.twoFactor.manualKey"
              defaultMessage="Can’t scan? Enter this key: <code>{secret}</code>"
              values={{ secret: enrolment.secret, code: (chunks) => <code className="twofa-secret">{chunks}</code> }}
            />
          </p>
          <div className="field">
            <label htmlFor="twofa-code">
              <FormattedMessage id="profile.twoFactor.codeLabel" defaultMessage="Verification code" />
            </label>
            <input
              id="twofa-code"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              value={code}
              onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))}
              aria-invalid={Boolean(codeError)}
              aria-describedby={codeError ? 'twofa-code-error' : undefined}
            />
            {codeError && (
              <p id="twofa-code-error" className="field-error">
                {codeError}
              </p>
            )}
          </div>
          <div className="row">
            <button type="submit" className="btn btn-primary" disabled={busy}>
              <FormattedMessage id="profile.twoFactor.verify" defaultMessage="Verify and Enable" />
            </button>
            <button type="button" className="btn btn-outline" onClick={cancel} disabled={busy}>
              <FormattedMessage id="profile.twoFactor.cancel" defaultMessage="Cancel" />
            </button>
          </div>
        </form>
      )}
    </section>
  );
}

import type { Session } from '@supabase/auth-js';

/** The `aal` claim of an access token (read, not verified: the server checks the signature on every call). */
function tokenAal(accessToken: string): string | undefined {
  try {
    const payload = accessToken.split('.')[1] ?? '';
    const base64 = payload
      .replace(/-/g, '+')
      .replace(/_/g, '/')
      .padEnd(Math.ceil(payload.length / 4) * 4, '=');
    return (JSON.parse(atob(base64)) as { aal?: string }).aal;
  } catch {
    return undefined;
  }
}

/**
 * True for a session that proved only the password (or the mailbox, for a recovery link) of a user who has a
 * verified second factor: what `auth.mfa.getAuthenticatorAssuranceLevel()` reports as currentLevel aal1 with
 * nextLevel aal2. Worked out from the session itself because the auth event callbacks, where it is needed, must
 * not call back into the client (its lock would deadlock).
 */
export function needsSecondFactor(session: Pick<Session, 'access_token' | 'user'>): boolean {
  const hasVerifiedFactor = (session.user.factors ?? []).some((f) => f.status === 'verified');
  return hasVerifiedFactor && tokenAal(session.access_token) !== 'aal2';
}

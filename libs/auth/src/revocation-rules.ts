import type { AuthUser } from './token';

/** What identity voided: sessions, and users whose tokens issued up to the second `cutoff` (epoch seconds) are void. */
export interface Revocation {
  sessionIds: string[];
  users: { id: string; cutoff: number }[];
}

/** The part of a verified token a revocation is judged by. */
export type TokenSubject = Pick<AuthUser, 'id' | 'sessionId' | 'issuedAt'>;

/**
 * A token is void if its session ended or it was issued no later than its user's cut-off: the second (iat is in whole
 * seconds) in which identity voided the user's tokens, all of it, since a token of that second may have been signed
 * just before. Identity signs no token for the user within that second (see TokensService), so a new sign-in is not
 * caught by it.
 */
export function isVoidedBy(token: TokenSubject, revoked: { session: boolean; userCutoff: number | null }): boolean {
  if (revoked.session) return true;
  return revoked.userCutoff !== null && (token.issuedAt ?? 0) <= revoked.userCutoff;
}

/** The same rule for a published revocation (the gateway's live sockets). */
export function isVoidedByRevocation(token: TokenSubject, change: Revocation): boolean {
  const user = change.users.find((u) => u.id === token.id);
  return isVoidedBy(token, { session: !!token.sessionId && change.sessionIds.includes(token.sessionId), userCutoff: user?.cutoff ?? null });
}

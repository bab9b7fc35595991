import { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type Redis from 'ioredis';
import { AuthGuard, checkSessionLive, Roles } from './guards';
import { isVoidedByRevocation, revokedSessionKey, revokedUserKey, RevocationUnavailableError, SessionRevocations } from './revocation';
import { AuthUser, TokenVerifier } from './token';

const user = (over: Partial<AuthUser> = {}): AuthUser => ({
  id: 'u1',
  email: 'a@example.org',
  role: 'user',
  sessionId: 's1',
  aal: 'aal1',
  issuedAt: 1000,
  ...over,
});
const store = (answer: boolean | 'down') =>
  ({ isRevoked: async () => (answer === 'down' ? Promise.reject(new RevocationUnavailableError('timed out')) : answer) }) as unknown as SessionRevocations;

/** A Redis that answers MGET from a map, and counts the round trips. */
function fakeRedis(values: Record<string, string>, behaviour: 'ok' | 'error' | 'hang' = 'ok') {
  const calls: string[][] = [];
  const redis = {
    options: { keyPrefix: 'env:' },
    mget: (...keys: string[]) => {
      calls.push(keys);
      if (behaviour === 'error') return Promise.reject(new Error('ECONNREFUSED'));
      if (behaviour === 'hang') return new Promise(() => undefined);
      return Promise.resolve(keys.map((k) => values[k] ?? null));
    },
  };
  return { revocations: new SessionRevocations(redis as unknown as Redis), calls };
}

/** The one rule every service's guard and the gateway apply after a token's signature checks out. */
describe('checkSessionLive', () => {
  it('refuses a token of an ended session with 401 session_revoked', async () => {
    await expect(checkSessionLive(store(true), user(), false)).rejects.toMatchObject({ status: 401, code: 'session_revoked' });
  });

  it('lets a live session through', async () => {
    await expect(checkSessionLive(store(false), user({ role: 'admin' }), true)).resolves.toBeUndefined();
  });

  it('when Redis cannot say: refuses admin routes and admin tokens with 503, lets other users read on', async () => {
    await expect(checkSessionLive(store('down'), user(), true)).rejects.toMatchObject({ status: 503, code: 'session_check_unavailable' });
    await expect(checkSessionLive(store('down'), user({ role: 'admin' }), false)).rejects.toMatchObject({ status: 503 });
    await expect(checkSessionLive(store('down'), user(), false)).resolves.toBeUndefined();
  });

  it('still judges a token without a session by its user', async () => {
    const { revocations } = fakeRedis({ [revokedUserKey('u1')]: '2000' });
    await expect(checkSessionLive(revocations, user({ sessionId: null }), true)).rejects.toMatchObject({ status: 401, code: 'session_revoked' });
  });
});

describe('SessionRevocations.isRevoked', () => {
  it('reads the session and the user in one round trip', async () => {
    const { revocations, calls } = fakeRedis({});
    await expect(revocations.isRevoked(user())).resolves.toBe(false);
    expect(calls).toEqual([[revokedUserKey('u1'), revokedSessionKey('s1')]]);
  });

  it('voids a token of an ended session', async () => {
    const { revocations } = fakeRedis({ [revokedSessionKey('s1')]: '1' });
    await expect(revocations.isRevoked(user())).resolves.toBe(true);
    await expect(revocations.isRevoked(user({ sessionId: 's2' }))).resolves.toBe(false);
  });

  it('voids every token of a user issued up to the cut-off (demotion, deletion, global sign-out), not those after it', async () => {
    const { revocations } = fakeRedis({ [revokedUserKey('u1')]: '1500' });
    await expect(revocations.isRevoked(user({ issuedAt: 1499, sessionId: 'any' }))).resolves.toBe(true);
    // the whole second of the revocation: a token of it may have been signed just before
    await expect(revocations.isRevoked(user({ issuedAt: 1500 }))).resolves.toBe(true);
    // signed in again afterwards (identity signs none in the cut-off's second): a new, valid token
    await expect(revocations.isRevoked(user({ issuedAt: 1501 }))).resolves.toBe(false);
    await expect(revocations.isRevoked(user({ id: 'u2', issuedAt: 1 }))).resolves.toBe(false);
  });

  it('throws RevocationUnavailableError when Redis fails or does not answer within 1.5 s', async () => {
    await expect(fakeRedis({}, 'error').revocations.isRevoked(user())).rejects.toBeInstanceOf(RevocationUnavailableError);
    jest.useFakeTimers();
    try {
      const pending = fakeRedis({}, 'hang').revocations.isRevoked(user());
      const settled = expect(pending).rejects.toBeInstanceOf(RevocationUnavailableError);
      await jest.advanceTimersByTimeAsync(1500);
      await settled;
    } finally {
      jest.useRealTimers();
    }
  });
});

describe('isVoidedByRevocation (live sockets)', () => {
  it('matches the ended sessions and the tokens of voided users issued up to their cut-off', () => {
    expect(isVoidedByRevocation(user(), { sessionIds: ['s1'], users: [] })).toBe(true);
    expect(isVoidedByRevocation(user(), { sessionIds: ['s9'], users: [] })).toBe(false);
    expect(isVoidedByRevocation(user({ issuedAt: 11 }), { sessionIds: [], users: [{ id: 'u1', cutoff: 11 }] })).toBe(true);
    expect(isVoidedByRevocation(user({ issuedAt: 12 }), { sessionIds: [], users: [{ id: 'u1', cutoff: 11 }] })).toBe(false);
    expect(isVoidedByRevocation(user({ issuedAt: 10 }), { sessionIds: [], users: [{ id: 'u2', cutoff: 11 }] })).toBe(false);
  });
});

describe('AuthGuard', () => {
  class AdminController {
    @Roles('admin')
    send() {}
  }
  const http = (authorization?: string) => {
    const req: { headers: Record<string, string | undefined>; user?: AuthUser } = { headers: { authorization } };
    const ctx = {
      getType: () => 'http',
      getHandler: () => AdminController.prototype.send,
      getClass: () => AdminController,
      switchToHttp: () => ({ getRequest: () => req }),
    } as unknown as ExecutionContext;
    return { ctx, req };
  };
  const verifier = (u: AuthUser) => ({ verify: async () => u }) as unknown as TokenVerifier;
  const guard = (u: AuthUser, values: Record<string, string>, behaviour: 'ok' | 'error' = 'ok') =>
    new AuthGuard(new Reflector(), verifier(u), fakeRedis(values, behaviour).revocations);

  it('lets a live admin token through to an admin route', async () => {
    const { ctx, req } = http('Bearer t');
    await expect(guard(user({ role: 'admin' }), {}).canActivate(ctx)).resolves.toBe(true);
    expect(req.user?.role).toBe('admin');
  });

  it("refuses a demoted admin's token (voided user) with 401 before its admin claim is looked at", async () => {
    const { ctx } = http('Bearer t');
    await expect(guard(user({ role: 'admin', issuedAt: 100 }), { [revokedUserKey('u1')]: '200' }).canActivate(ctx)).rejects.toMatchObject({
      status: 401,
      code: 'session_revoked',
    });
  });

  it('fails closed on admin routes when Redis is unreachable', async () => {
    const { ctx } = http('Bearer t');
    await expect(guard(user({ role: 'admin' }), {}, 'error').canActivate(ctx)).rejects.toMatchObject({ status: 503, code: 'session_check_unavailable' });
  });
});

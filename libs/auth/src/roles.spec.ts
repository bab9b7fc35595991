import { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ROLES, STAFF_ROLES, type Role } from '@beacon/contracts';
import { AuthGuard, checkSessionLive, MinRole } from './guards';
import { RevocationUnavailableError, SessionRevocations } from './revocation';
import { AccessTokenClaims, AuthUser, claimsToUser, TokenVerifier } from './token';

/** The four staff roles of issue #38: what a token says, what a route lets in, and how an outage treats them. */
const user = (role: Role): AuthUser => ({ id: 'u1', email: 'a@example.org', role, sessionId: 's1', aal: 'aal1', issuedAt: 1000 });
const revocations = (answer: boolean | 'down') =>
  ({ isRevoked: async () => (answer === 'down' ? Promise.reject(new RevocationUnavailableError('timed out')) : answer) }) as unknown as SessionRevocations;

describe('claimsToUser: app_metadata.role', () => {
  const claims = (role: unknown) =>
    ({ sub: 'u1', email: 'a@example.org', role: 'authenticated', aal: 'aal1', session_id: 's1', app_metadata: { role } }) as unknown as AccessTokenClaims;

  it.each(ROLES.map((r) => [r]))('keeps %s', (role) => {
    expect(claimsToUser(claims(role)).role).toBe(role);
  });

  it.each([['superuser'], ['Admin'], [42], [undefined], [['admin']]])('reads %p as a plain user', (role) => {
    expect(claimsToUser(claims(role)).role).toBe('user');
  });
});

describe('@MinRole on the token guard', () => {
  @MinRole('admin')
  class Console {
    @MinRole('viewer')
    read() {}
    @MinRole('publisher')
    send() {}
    @MinRole('approver')
    approve() {}
    settings() {}
  }
  const check = async (role: Role, handler: keyof Console) => {
    const req = { headers: { authorization: 'Bearer t' } };
    const ctx = {
      getType: () => 'http',
      getHandler: () => Console.prototype[handler],
      getClass: () => Console,
      switchToHttp: () => ({ getRequest: () => req }),
    } as unknown as ExecutionContext;
    const verifier = { verify: async () => user(role) } as unknown as TokenVerifier;
    try {
      return await new AuthGuard(new Reflector(), verifier, revocations(false)).canActivate(ctx);
    } catch (e) {
      return (e as { status: number }).status;
    }
  };

  it.each([
    ['read', { user: 403, viewer: true, publisher: true, approver: true, admin: true }],
    ['send', { user: 403, viewer: 403, publisher: true, approver: true, admin: true }],
    ['approve', { user: 403, viewer: 403, publisher: 403, approver: true, admin: true }],
    // no decorator of its own: the class's
    ['settings', { user: 403, viewer: 403, publisher: 403, approver: 403, admin: true }],
  ] as const)('%s lets in %p', async (handler, expected) => {
    const got = Object.fromEntries(await Promise.all(ROLES.map(async (r) => [r, await check(r, handler)] as const)));
    expect(got).toEqual(expected);
  });
});

describe('checkSessionLive when revocation cannot be checked', () => {
  it.each(STAFF_ROLES.map((r) => [r]))('refuses a %s token with 503 on any route', async (role) => {
    await expect(checkSessionLive(revocations('down'), user(role), false)).rejects.toMatchObject({ status: 503, code: 'session_check_unavailable' });
  });

  it('lets a plain user read on, and refuses routes that need a role', async () => {
    await expect(checkSessionLive(revocations('down'), user('user'), false)).resolves.toBeUndefined();
    await expect(checkSessionLive(revocations('down'), user('user'), true)).rejects.toMatchObject({ status: 503 });
  });
});

import { generateSync } from 'otplib';
import * as current from '@supabase/auth-js';
import * as oldest from 'auth-js-oldest';
import { AuthJs, fragmentOf, IdentityUnderTest, startIdentity, startSmtpCapture, verifyLinkIn, wrongTotpCode } from '../testing/harness';

/**
 * The standard client library of the hosted auth service, unmodified, against the real identity service:
 * the proof that the web app's session handling works with Beacon's own auth.
 */
const RELEASES: [string, AuthJs][] = [
  [`current (${require('@supabase/auth-js/package.json').version})`, current],
  [`oldest supported (${require('auth-js-oldest/package.json').version})`, oldest as unknown as AuthJs],
];

describe.each(RELEASES)('auth-js %s against the identity service (unmodified client)', (_release, lib) => {
  let id: IdentityUnderTest;
  let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
  beforeAll(async () => {
    smtp = await startSmtpCapture();
    id = await startIdentity({ SMTP_URL: smtp.url, ADMIN_EMAILS: 'chief@example.org' });
  });
  afterAll(async () => {
    await id.close();
    await smtp.close();
  });

  const email = (name: string) => `${name}-${Math.random().toString(36).slice(2, 8)}@example.org`;

  it('signs up, signs in, reads and updates the user, refreshes and signs out', async () => {
    const client = id.client(lib);
    const address = email('ada');
    const signUp = await client.signUp({ email: address, password: 'correct horse battery', options: { data: { name: 'Ada' } } });
    expect(signUp.error).toBeNull();
    expect(signUp.data.session?.access_token).toBeTruthy();
    expect(signUp.data.user).toMatchObject({
      email: address,
      aud: 'authenticated',
      role: 'authenticated',
      user_metadata: { name: 'Ada' },
      app_metadata: { provider: 'email', providers: ['email'], role: 'user' },
    });
    expect(signUp.data.user!.identities![0]).toMatchObject({ provider: 'email', user_id: signUp.data.user!.id });

    const other = id.client(lib);
    const signIn = await other.signInWithPassword({ email: address, password: 'correct horse battery' });
    expect(signIn.error).toBeNull();
    expect(signIn.data.session).toMatchObject({ token_type: 'bearer', expires_in: 3600 });
    expect(signIn.data.session!.expires_at).toBeGreaterThan(Date.now() / 1000 + 3500);

    const got = await other.getUser();
    expect(got.error).toBeNull();
    expect(got.data.user?.email).toBe(address);

    const updated = await other.updateUser({ data: { city: 'Phoenix' } });
    expect(updated.error).toBeNull();
    expect(updated.data.user?.user_metadata).toEqual({ name: 'Ada', city: 'Phoenix' });

    const before = (await other.getSession()).data.session!;
    const refreshed = await other.refreshSession();
    expect(refreshed.error).toBeNull();
    expect(refreshed.data.session!.refresh_token).not.toBe(before.refresh_token);
    expect(refreshed.data.user?.user_metadata).toEqual({ name: 'Ada', city: 'Phoenix' });

    const out = await other.signOut({ scope: 'local' });
    expect(out.error).toBeNull();
    expect((await other.getSession()).data.session).toBeNull();
    // the first client's session is untouched by a local sign-out
    expect((await client.getUser()).data.user?.email).toBe(address);
    // the signed-out session's refresh token is dead
    const revived = await id.client(lib).refreshSession({ refresh_token: refreshed.data.session!.refresh_token });
    expect(revived.error?.code).toBe('refresh_token_not_found');
  });

  it('changes the password and ends the other sessions', async () => {
    const address = email('grace');
    const a = id.client(lib);
    await a.signUp({ email: address, password: 'first password 1' });
    const b = id.client(lib);
    await b.signInWithPassword({ email: address, password: 'first password 1' });

    const changed = await a.updateUser({ password: 'second password 2' });
    expect(changed.error).toBeNull();
    const stale = await b.getUser();
    expect(stale.error?.name).toBe('AuthSessionMissingError'); // session_not_found: auth-js drops the session
    expect((await id.client(lib).signInWithPassword({ email: address, password: 'first password 1' })).error?.message).toBe('Invalid login credentials');
    expect((await id.client(lib).signInWithPassword({ email: address, password: 'second password 2' })).error).toBeNull();
    expect((await a.getUser()).error).toBeNull();
  });

  it('reports weak passwords with their reasons', async () => {
    const res = await id.client(lib).signUp({ email: email('weak'), password: 'short' });
    expect(res.error?.name).toBe('AuthWeakPasswordError');
    expect(res.error?.code).toBe('weak_password');
    expect((res.error as unknown as { reasons: string[] }).reasons).toEqual(['length']);
    expect(res.error?.message).toBe('Password should be at least 8 characters.');
  });

  it('resets a forgotten password through the mailed link (resetPasswordForEmail)', async () => {
    const address = email('reset');
    const client = id.client(lib);
    await client.signUp({ email: address, password: 'forgotten pass 1' });
    await client.signOut();

    const sent = await id.client(lib).resetPasswordForEmail(address, { redirectTo: 'http://beacon.test/reset-password' });
    expect(sent).toEqual({ data: {}, error: null });
    const link = verifyLinkIn(await smtp.waitFor(address));
    expect(link.searchParams.get('type')).toBe('recovery');

    const landing = await fetch(id.viaService(link), { redirect: 'manual' });
    expect(landing.status).toBe(303);
    const fragment = fragmentOf(landing.headers.get('location'));
    expect(landing.headers.get('location')).toMatch(/^http:\/\/beacon\.test\/reset-password#/);
    expect(fragment.get('type')).toBe('recovery');

    const resetter = id.client(lib);
    const set = await resetter.setSession({ access_token: fragment.get('access_token')!, refresh_token: fragment.get('refresh_token')! });
    expect(set.error).toBeNull();
    expect((await resetter.updateUser({ password: 'remembered pass 2' })).error).toBeNull();
    expect((await id.client(lib).signInWithPassword({ email: address, password: 'remembered pass 2' })).error).toBeNull();
  });

  it('enrolls, challenges, verifies (aal2) and unenrolls a TOTP factor', async () => {
    const client = id.client(lib);
    await client.signUp({ email: email('mfa'), password: 'mfa password 123' });

    const enrolled = await client.mfa.enroll({ factorType: 'totp', friendlyName: 'phone app' });
    expect(enrolled.error).toBeNull();
    const factor = enrolled.data!;
    expect(factor.type).toBe('totp');
    expect(factor.totp.qr_code).toMatch(/^data:image\/svg\+xml;utf-8,<svg/);
    expect(new URL(factor.totp.qr_code).hash).toBe('');
    expect(factor.totp.uri).toContain(`secret=${factor.totp.secret}`);

    const challenge = await client.mfa.challenge({ factorId: factor.id });
    expect(challenge.error).toBeNull();
    const wrong = await client.mfa.verify({ factorId: factor.id, challengeId: challenge.data!.id, code: wrongTotpCode(factor.totp.secret) });
    expect(wrong.error?.code).toBe('mfa_verification_failed');

    const verified = await client.mfa.verify({ factorId: factor.id, challengeId: challenge.data!.id, code: generateSync({ secret: factor.totp.secret }) });
    expect(verified.error).toBeNull();
    const aal = await client.mfa.getAuthenticatorAssuranceLevel();
    expect(aal.data).toMatchObject({ currentLevel: 'aal2', nextLevel: 'aal2' });
    expect(aal.data!.currentAuthenticationMethods.map((m) => (typeof m === 'string' ? m : m.method))).toEqual(['password', 'totp']);
    const factors = await client.mfa.listFactors();
    expect(factors.data!.totp.map((f) => f.id)).toEqual([factor.id]);

    const removed = await client.mfa.unenroll({ factorId: factor.id });
    expect(removed.error).toBeNull();
    expect(removed.data).toEqual({ id: factor.id });
    expect((await client.mfa.listFactors()).data!.all).toEqual([]);
  });

  it('with a verified factor: sign-in and a recovery link give aal1 sessions that must step up before the password changes', async () => {
    // One code per 30 s step and never an older one: use the steps the verifier accepts in turn (last, now, next).
    let lastStep = Math.floor(Date.now() / 30_000) - 2;
    const nextCode = (secret: string) => {
      lastStep = Math.max(Math.floor(Date.now() / 30_000) - 1, lastStep + 1);
      return generateSync({ secret, epoch: (lastStep * 30_000 + 1_000) / 1000 });
    };
    const address = email('stepup');
    const first = id.client(lib);
    await first.signUp({ email: address, password: 'step up password 1' });
    const factor = (await first.mfa.enroll({ factorType: 'totp', friendlyName: 'app' })).data!;
    expect((await first.mfa.challengeAndVerify({ factorId: factor.id, code: nextCode(factor.totp.secret) })).error).toBeNull();

    // what the login screen sees after the password
    const again = id.client(lib);
    expect((await again.signInWithPassword({ email: address, password: 'step up password 1' })).error).toBeNull();
    expect((await again.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal2' });
    const refused = await again.updateUser({ password: 'step up password 2' });
    expect(refused.error).toMatchObject({ code: 'insufficient_aal', message: 'AAL2 session is required to update email or password when MFA is enabled.' });
    expect((await again.mfa.unenroll({ factorId: factor.id })).error?.code).toBe('insufficient_aal');
    const wrong = await again.mfa.challengeAndVerify({ factorId: factor.id, code: wrongTotpCode(factor.totp.secret) });
    expect(wrong.error).toMatchObject({ code: 'mfa_verification_failed', message: 'Invalid TOTP code entered' });
    expect((await again.mfa.challengeAndVerify({ factorId: factor.id, code: nextCode(factor.totp.secret) })).error).toBeNull();
    expect((await again.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({ currentLevel: 'aal2', nextLevel: 'aal2' });
    expect((await again.updateUser({ password: 'step up password 2' })).error).toBeNull();

    // a recovery link proves the mailbox, not the second factor: the hosted service asks for the code as well
    await id.client(lib).resetPasswordForEmail(address, { redirectTo: 'http://beacon.test/reset-password' });
    const landing = await fetch(id.viaService(verifyLinkIn(await smtp.waitFor(address))), { redirect: 'manual' });
    const fragment = fragmentOf(landing.headers.get('location'));
    const resetter = id.client(lib);
    expect((await resetter.setSession({ access_token: fragment.get('access_token')!, refresh_token: fragment.get('refresh_token')! })).error).toBeNull();
    expect((await resetter.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal2' });
    expect((await resetter.updateUser({ password: 'step up password 3' })).error?.code).toBe('insufficient_aal');
    expect((await resetter.mfa.challengeAndVerify({ factorId: factor.id, code: nextCode(factor.totp.secret) })).error).toBeNull();
    expect((await resetter.updateUser({ password: 'step up password 3' })).error).toBeNull();
    expect((await id.client(lib).signInWithPassword({ email: address, password: 'step up password 3' })).error).toBeNull();
  });

  it('drives the admin API with an admin access token (GoTrueAdminApi)', async () => {
    const chief = id.client(lib);
    const { data } = await chief.signUp({ email: 'chief@example.org', password: 'chief password 1' });
    expect(data.user!.app_metadata.role).toBe('admin');
    const admin = new lib.GoTrueAdminApi({ url: id.url, headers: { apikey: 'anon', Authorization: `Bearer ${data.session!.access_token}` }, fetch });

    const created = await admin.createUser({ email: email('made'), password: 'made by admin 1', email_confirm: true, user_metadata: { team: 'north' } });
    expect(created.error).toBeNull();
    const list = await admin.listUsers({ page: 1, perPage: 1 });
    expect(list.error).toBeNull();
    expect(list.data.users).toHaveLength(1);
    expect((list.data as unknown as { total: number }).total).toBeGreaterThanOrEqual(2);
    expect((await admin.getUserById(created.data.user!.id)).data.user?.user_metadata).toEqual({ team: 'north' });
    const promoted = await admin.updateUserById(created.data.user!.id, { app_metadata: { role: 'admin' } });
    expect(promoted.data.user?.app_metadata.role).toBe('admin');
    expect((await admin.deleteUser(created.data.user!.id)).error).toBeNull();
    expect((await admin.getUserById(created.data.user!.id)).error?.code).toBe('user_not_found');
  });
});

import { act } from '@testing-library/react';
import type { AuthChangeEvent, Session } from '@supabase/auth-js';
import { needsSecondFactor } from './assurance';
import { AuthListener } from './AuthListener';
import { fakeAccessToken, renderAuthScreen } from './test-utils';

type Listener = (event: AuthChangeEvent, session: Session | null) => void;
let listener: Listener = () => undefined;
const mockAuth = {
  onAuthStateChange: jest.fn((cb: Listener) => {
    listener = cb;
    return { data: { subscription: { unsubscribe: () => undefined } } };
  }),
};
jest.mock('./auth-client', () => ({
  get auth() {
    return mockAuth;
  },
}));

const verified = { id: 'f1', factor_type: 'totp', status: 'verified', friendly_name: 'app', created_at: '', updated_at: '' };
const unverified = { ...verified, id: 'f2', status: 'unverified' };
// '???>>>' encodes to base64 with '/' and '+': the token must be read as base64url
function session(aal: string | undefined, factors: object[]): Session {
  const token = fakeAccessToken({ sub: 'u1', email: 'pat@example.org', role: 'authenticated', note: '???>>>', ...(aal ? { aal } : {}) });
  return {
    access_token: token,
    refresh_token: 'r',
    token_type: 'bearer',
    expires_in: 3600,
    user: { id: 'u1', email: 'pat@example.org', app_metadata: {}, user_metadata: {}, aud: 'authenticated', created_at: '', factors },
  } as unknown as Session;
}

describe('needsSecondFactor', () => {
  it('is true for an aal1 session of a user with a verified factor only', () => {
    expect(needsSecondFactor(session('aal1', [verified]))).toBe(true);
    expect(needsSecondFactor(session('aal2', [verified]))).toBe(false);
    expect(needsSecondFactor(session('aal1', [unverified]))).toBe(false);
    expect(needsSecondFactor(session('aal1', []))).toBe(false);
  });

  it('asks for the code when the token says nothing readable about its level', () => {
    expect(needsSecondFactor(session(undefined, [verified]))).toBe(true);
    expect(needsSecondFactor({ ...session('aal2', [verified]), access_token: 'not-a-jwt' })).toBe(true);
  });
});

describe('AuthListener', () => {
  it('keeps a session that still needs its second factor out of the signed-in state', () => {
    const { store } = renderAuthScreen('/', <AuthListener />);
    act(() => listener('SIGNED_IN', session('aal1', [verified])));
    expect(store.getState().auth).toMatchObject({ status: 'secondFactor', user: { id: 'u1', email: 'pat@example.org' } });
    act(() => listener('MFA_CHALLENGE_VERIFIED', session('aal2', [verified])));
    expect(store.getState().auth.status).toBe('signedIn');
    act(() => listener('SIGNED_OUT', null));
    expect(store.getState().auth).toMatchObject({ status: 'signedOut', user: null });
  });

  it('signs in a user without two-factor authentication at aal1, and marks a recovery', () => {
    const { store } = renderAuthScreen('/', <AuthListener />);
    act(() => listener('SIGNED_IN', session('aal1', [unverified])));
    expect(store.getState().auth.status).toBe('signedIn');
    act(() => listener('PASSWORD_RECOVERY', session('aal1', [verified])));
    expect(store.getState().auth).toMatchObject({ status: 'secondFactor', recovering: true });
  });
});

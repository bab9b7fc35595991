import { fireEvent, screen, waitFor } from '@testing-library/react';
import { AuthApiError } from '@supabase/auth-js';
import toast from 'react-hot-toast';
import { ResetPasswordPage } from './ResetPasswordPage';
import { recoveryStarted, secondFactorRequired, signedIn, signedOut } from './auth.slice';
import { renderAuthScreen } from './test-utils';

const user = { id: 'u1', email: 'pat@example.org', app_metadata: {}, user_metadata: {}, aud: 'authenticated', created_at: '' };
const totpFactor = { id: 'f1', factor_type: 'totp', status: 'verified', friendly_name: 'app', created_at: '', updated_at: '' };
const mockAuth = {
  updateUser: jest.fn(),
  signOut: jest.fn(async () => ({ error: null })),
  mfa: {
    listFactors: jest.fn(async () => ({ data: { all: [totpFactor], totp: [totpFactor], phone: [] }, error: null })),
    challengeAndVerify: jest.fn(),
  },
};
jest.mock('./auth-client', () => ({
  get auth() {
    return mockAuth;
  },
}));

const pat = { id: 'u1', email: 'pat@example.org', role: 'user' as const };
const path = () => screen.getByRole('status', { name: 'current path' }).textContent;

beforeEach(() => {
  jest.clearAllMocks();
  toast.remove();
  mockAuth.updateUser.mockResolvedValue({ data: { user }, error: null });
});

function renderReset(state: 'signedOut' | 'recovery' | 'recoveryNeedsCode') {
  return renderAuthScreen('/reset-password', <ResetPasswordPage />, {
    prepare: (store) => {
      if (state === 'signedOut') store.dispatch(signedOut());
      else {
        store.dispatch(recoveryStarted());
        store.dispatch(state === 'recovery' ? signedIn(pat) : secondFactorRequired(pat));
      }
    },
  });
}

function choose(password: string, confirm = password) {
  fireEvent.change(screen.getByLabelText('New password'), { target: { value: password } });
  fireEvent.change(screen.getByLabelText('Confirm new password'), { target: { value: confirm } });
  fireEvent.click(screen.getByRole('button', { name: 'Set New Password' }));
}

describe('ResetPasswordPage', () => {
  it('says the link has expired when it gave no session', () => {
    renderReset('signedOut');
    expect(screen.getByRole('heading', { name: 'This link has expired' })).toBeInTheDocument();
    expect(screen.getByText('Password reset links work once and for one hour. Ask for a new one.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Send a new link' })).toHaveAttribute('href', '/forgot-password');
  });

  it('checks the new password with the sign-up rules before calling the service', () => {
    renderReset('recovery');
    choose('short', 'other');
    expect(screen.getByText('Password must be at least 8 characters')).toBeInTheDocument();
    expect(screen.getByText("Passwords don't match")).toBeInTheDocument();
    choose('long enough 1', 'long enough 2');
    expect(screen.queryByText('Password must be at least 8 characters')).not.toBeInTheDocument();
    expect(screen.getByText("Passwords don't match")).toBeInTheDocument();
    expect(mockAuth.updateUser).not.toHaveBeenCalled();
  });

  it('sets the new password and goes to the dashboard', async () => {
    renderReset('recovery');
    choose('a new passphrase 7');
    expect(await screen.findByText('Your password has been changed')).toBeInTheDocument();
    expect(mockAuth.updateUser).toHaveBeenCalledWith({ password: 'a new passphrase 7' });
    // the router commits the navigation in a transition, which may come after the toast's render
    await waitFor(() => expect(path()).toBe('/dashboard'));
  });

  it("shows the service's message when the password is refused, and stays", async () => {
    mockAuth.updateUser.mockResolvedValue({
      data: { user: null },
      error: new AuthApiError('New password should be different from the old password.', 422, 'same_password'),
    });
    renderReset('recovery');
    choose('the old passphrase');
    expect(await screen.findByText('New password should be different from the old password.')).toBeInTheDocument();
    expect(path()).toBe('/reset-password');
    expect(screen.getByRole('button', { name: 'Set New Password' })).toBeEnabled();
  });

  it('asks a user with two-factor authentication for a code first, then for the new password', async () => {
    mockAuth.mfa.challengeAndVerify.mockResolvedValue({ data: { access_token: 'aal2', user }, error: null });
    renderReset('recoveryNeedsCode');
    expect(screen.getByRole('heading', { name: 'Two-factor authentication' })).toBeInTheDocument();
    expect(screen.queryByLabelText('New password')).not.toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Verify' })).toBeEnabled());
    fireEvent.change(screen.getByLabelText('Authentication code'), { target: { value: '246810' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('heading', { name: 'Choose a new password' })).toBeInTheDocument();
    expect(mockAuth.mfa.challengeAndVerify).toHaveBeenCalledWith({ factorId: 'f1', code: '246810' });
    choose('a new passphrase 8');
    expect(await screen.findByText('Your password has been changed')).toBeInTheDocument();
  });

  it('lets a user with two-factor authentication cancel: signed out, back to sign-in', async () => {
    renderReset('recoveryNeedsCode');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel and sign out' }));
    await waitFor(() => expect(path()).toBe('/login'));
    expect(mockAuth.signOut).toHaveBeenCalledWith({ scope: 'local' });
    expect(mockAuth.updateUser).not.toHaveBeenCalled();
  });
});

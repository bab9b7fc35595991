import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Route } from 'react-router-dom';
import { AuthApiError } from '@supabase/auth-js';
import toast from 'react-hot-toast';
import { inLanguage } from '@/test/in-language';
import { RequireAuth } from './guards';
import { LoginPage } from './LoginPage';
import { secondFactorRequired, signedOut } from './auth.slice';
import { renderAuthScreen, type AuthScreenOptions } from './test-utils';

const user = { id: 'u1', email: 'pat@example.org', app_metadata: {}, user_metadata: {}, aud: 'authenticated', created_at: '' };
const totpFactor = { id: 'f-verified', factor_type: 'totp', status: 'verified', friendly_name: 'Authenticator app', created_at: '', updated_at: '' };
const mockAuth = {
  signInWithPassword: jest.fn(),
  signOut: jest.fn(async () => ({ error: null })),
  mfa: {
    getAuthenticatorAssuranceLevel: jest.fn(),
    listFactors: jest.fn(async () => ({
      data: { all: [{ ...totpFactor, id: 'f-old', status: 'unverified' }, totpFactor], totp: [totpFactor], phone: [] },
      error: null,
    })),
    challengeAndVerify: jest.fn(),
  },
};
jest.mock('./auth-client', () => ({
  get auth() {
    return mockAuth;
  },
  setRememberMe: () => undefined,
}));

const WRONG_CODE = new AuthApiError('Invalid TOTP code entered', 422, 'mfa_verification_failed');

beforeEach(() => {
  jest.clearAllMocks();
  // toasts live in a module-wide store: one test's must not show up in the next
  toast.remove();
  mockAuth.signInWithPassword.mockResolvedValue({ data: { user, session: { access_token: 'x.e30.y', user } }, error: null });
  mockAuth.mfa.challengeAndVerify.mockImplementation(async ({ code }: { code: string }) =>
    code === '123456' ? { data: { access_token: 'aal2', user }, error: null } : { data: null, error: WRONG_CODE },
  );
});

const assurance = (currentLevel: string, nextLevel: string) =>
  mockAuth.mfa.getAuthenticatorAssuranceLevel.mockResolvedValue({ data: { currentLevel, nextLevel, currentAuthenticationMethods: [] }, error: null });

function renderLogin(prepare?: AuthScreenOptions['prepare']) {
  return renderAuthScreen('/login', <LoginPage />, {
    at: { pathname: '/login', state: { from: '/dashboard/community' } },
    prepare: prepare ?? ((store) => store.dispatch(signedOut())),
  });
}

function signInWithPassword() {
  fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'pat@example.org' } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'pat password 1' } });
  fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
}

const path = () => screen.getByRole('status', { name: 'current path' }).textContent;
const codeInput = () => screen.getByRole('textbox', { name: 'Authentication code' });

describe('LoginPage', () => {
  it('without two-factor authentication, goes straight to the remembered page', async () => {
    assurance('aal1', 'aal1');
    renderLogin();
    signInWithPassword();
    await waitFor(() => expect(path()).toBe('/dashboard/community'));
    expect(await screen.findByText('Signed in successfully!')).toBeInTheDocument();
    expect(mockAuth.signInWithPassword).toHaveBeenCalledWith({ email: 'pat@example.org', password: 'pat password 1' });
    expect(mockAuth.mfa.challengeAndVerify).not.toHaveBeenCalled();
  });

  it('with two-factor authentication, asks for the code before continuing; a wrong code shows the service message', async () => {
    assurance('aal1', 'aal2');
    renderLogin();
    signInWithPassword();
    expect(await screen.findByRole('heading', { name: 'Two-factor authentication' })).toBeInTheDocument();
    expect(codeInput()).toHaveAttribute('autocomplete', 'one-time-code');
    expect(codeInput()).toHaveAttribute('inputmode', 'numeric');
    expect(path()).toBe('/login');
    expect(screen.queryByText('Signed in successfully!')).not.toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Verify' })).toBeEnabled());

    fireEvent.change(codeInput(), { target: { value: '12a3' } });
    expect(codeInput()).toHaveValue('123');
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Enter the 6-digit code from your authenticator app');
    expect(mockAuth.mfa.challengeAndVerify).not.toHaveBeenCalled();

    fireEvent.change(codeInput(), { target: { value: '654321' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid TOTP code entered');
    expect(codeInput()).toHaveAttribute('aria-invalid', 'true');
    expect(path()).toBe('/login');

    fireEvent.change(codeInput(), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(path()).toBe('/dashboard/community'));
    expect(await screen.findByText('Signed in successfully!')).toBeInTheDocument();
    // the verified factor, not the abandoned enrolment
    expect(mockAuth.mfa.challengeAndVerify).toHaveBeenLastCalledWith({ factorId: 'f-verified', code: '123456' });
  });

  it('cancelling the code step signs the half-made session out and shows the password form again', async () => {
    assurance('aal1', 'aal2');
    const { store } = renderLogin();
    signInWithPassword();
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel and sign out' }));
    expect(await screen.findByRole('button', { name: 'Sign In' })).toBeInTheDocument();
    expect(mockAuth.signOut).toHaveBeenCalledWith({ scope: 'local' });
    expect(store.getState().auth.status).toBe('signedOut');
    expect(path()).toBe('/login');
  });

  it('a protected page sends a session still waiting for its code to the code step, and back after it', async () => {
    const { store } = renderAuthScreen('/login', <LoginPage />, {
      at: { pathname: '/dashboard' },
      prepare: (s) => s.dispatch(secondFactorRequired({ id: 'u1', email: 'pat@example.org', role: 'user' })),
      routes: (
        <Route element={<RequireAuth />}>
          <Route path="/dashboard" element={<h1>Dashboard home</h1>} />
        </Route>
      ),
    });
    expect(await screen.findByRole('heading', { name: 'Two-factor authentication' })).toBeInTheDocument();
    expect(path()).toBe('/login');
    expect(screen.queryByRole('heading', { name: 'Dashboard home' })).not.toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Verify' })).toBeEnabled());

    fireEvent.change(codeInput(), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('heading', { name: 'Dashboard home' })).toBeInTheDocument();
    expect(path()).toBe('/dashboard');
    expect(store.getState().auth.status).toBe('signedIn');
    expect(mockAuth.signInWithPassword).not.toHaveBeenCalled();
  });

  it('shows the service message for a wrong password and stays on the form', async () => {
    mockAuth.signInWithPassword.mockResolvedValue({
      data: { user: null, session: null },
      error: new AuthApiError('Invalid login credentials', 400, 'invalid_credentials'),
    });
    renderLogin();
    signInWithPassword();
    expect(await screen.findByText('Invalid login credentials')).toBeInTheDocument();
    expect(path()).toBe('/login');
    expect(mockAuth.mfa.getAuthenticatorAssuranceLevel).not.toHaveBeenCalled();
  });

  describe('for a Spanish reader', () => {
    const renderInSpanish = () => renderAuthScreen('/login', inLanguage('es', <LoginPage />), { prepare: (store) => store.dispatch(signedOut()) });
    const signInInSpanish = () => {
      fireEvent.change(screen.getByLabelText('Correo electrónico'), { target: { value: 'pat@example.org' } });
      fireEvent.change(screen.getByLabelText('Contraseña'), { target: { value: 'pat password 1' } });
      fireEvent.click(screen.getByRole('button', { name: 'Iniciar sesión' }));
    };

    it('asks in Spanish, checks in Spanish and words a refused password by its code', async () => {
      mockAuth.signInWithPassword.mockResolvedValue({
        data: { user: null, session: null },
        error: new AuthApiError('Invalid login credentials', 400, 'invalid_credentials'),
      });
      renderInSpanish();
      expect(screen.getByRole('heading', { name: 'Inicie sesión en Beacon' })).toBeInTheDocument();
      expect(screen.getByRole('link', { name: '¿Olvidó su contraseña?' })).toHaveAttribute('href', '/forgot-password');
      expect(screen.getByRole('link', { name: 'Crear cuenta' })).toHaveAttribute('href', '/signup');
      expect(screen.getByRole('button', { name: 'Mostrar contraseña' })).toBeInTheDocument();

      fireEvent.click(screen.getByRole('button', { name: 'Iniciar sesión' }));
      expect(screen.getByText('Ingrese una dirección de correo electrónico válida')).toBeInTheDocument();
      expect(screen.getByText('La contraseña debe tener al menos 6 caracteres')).toBeInTheDocument();
      expect(mockAuth.signInWithPassword).not.toHaveBeenCalled();

      signInInSpanish();
      expect(await screen.findByText('Correo electrónico o contraseña incorrectos.')).toBeInTheDocument();
      expect(screen.queryByText('Invalid login credentials')).not.toBeInTheDocument();
    });

    it('asks for the code in Spanish and words a wrong code in Spanish', async () => {
      assurance('aal1', 'aal2');
      renderInSpanish();
      signInInSpanish();
      expect(await screen.findByRole('heading', { name: 'Autenticación de dos factores' })).toBeInTheDocument();
      await waitFor(() => expect(screen.getByRole('button', { name: 'Verificar' })).toBeEnabled());
      fireEvent.change(screen.getByRole('textbox', { name: 'Código de autenticación' }), { target: { value: '654321' } });
      fireEvent.click(screen.getByRole('button', { name: 'Verificar' }));
      expect(await screen.findByRole('alert')).toHaveTextContent('El código no es correcto. Revise su aplicación de autenticación e inténtelo de nuevo.');
      expect(screen.getByRole('button', { name: 'Cancelar y cerrar sesión' })).toBeInTheDocument();
    });
  });
});

import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import { Toaster } from 'react-hot-toast';
import { DEFAULT_PREFERENCES, type AlertPreferences } from '@beacon/contracts';
import { makeStore } from '@/app/store';
import { signedIn } from '@/features/auth/auth.slice';
import { inLanguage } from '@/test/in-language';
import { ProfilePage } from './ProfilePage';

const user = {
  id: 'u1',
  email: 'pat.driver@example.com',
  email_confirmed_at: '2025-01-01T00:00:00Z',
  app_metadata: {},
  user_metadata: {},
  aud: 'authenticated',
  created_at: '',
};
const mockAuth = {
  getUser: jest.fn(async () => ({ data: { user }, error: null })),
  updateUser: jest.fn(async (attrs: { email?: string; password?: string }) => ({ data: { user: { ...user, new_email: attrs.email } }, error: null })),
  getSession: jest.fn(async () => ({ data: { session: null } })),
  signOut: jest.fn(async () => ({ error: null })),
  mfa: {
    listFactors: jest.fn(async () => ({ data: { all: [], totp: [], phone: [] }, error: null })),
    enroll: jest.fn(async () => ({
      data: { id: 'f1', type: 'totp', totp: { qr_code: 'data:image/svg+xml;utf-8,<svg/>', secret: 'ABCDEF', uri: 'otpauth://totp/x' } },
      error: null,
    })),
    challengeAndVerify: jest.fn(async () => ({ data: {}, error: null })),
    unenroll: jest.fn(async () => ({ data: {}, error: null })),
  },
};
jest.mock('@/features/auth/auth-client', () => ({
  get auth() {
    return mockAuth;
  },
  accessToken: async () => null,
  setRememberMe: () => undefined,
}));

const puts: unknown[] = [];
let prefs: AlertPreferences;
beforeEach(() => {
  // A user who chose their language already (the first save of one who has not carries the browser's: see below).
  prefs = { ...DEFAULT_PREFERENCES, methods: { ...DEFAULT_PREFERENCES.methods }, language: 'en' };
  puts.length = 0;
  localStorage.clear();
});
beforeAll(() => {
  global.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const req = input as Request;
    if (req.method === 'PUT') {
      const body = await req.json();
      puts.push(body);
      prefs = { ...prefs, ...body, methods: { ...prefs.methods, ...(body.methods ?? {}) } };
    }
    return new Response(JSON.stringify(prefs), { status: 200, headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof fetch;
});

function renderProfile(language?: 'es' | 'fr') {
  const store = makeStore();
  store.dispatch(signedIn({ id: 'u1', email: user.email, role: 'user' }));
  const page = (
    <Provider store={store}>
      <MemoryRouter>
        <ProfilePage />
        <Toaster />
      </MemoryRouter>
    </Provider>
  );
  return render(language ? inLanguage(language, page) : page);
}

const criticalOnly = () => screen.getByRole('switch', { name: 'Critical alerts only' });
async function toggleCriticalOnly(expected: 'true' | 'false') {
  fireEvent.click(criticalOnly());
  await waitFor(() => expect(criticalOnly()).toHaveAttribute('aria-checked', expected));
  await waitFor(() => expect(criticalOnly()).toBeEnabled());
}

describe('ProfilePage', () => {
  it('shows the account card with the name from the email and the verified badge', async () => {
    renderProfile();
    expect(screen.getByRole('heading', { name: 'pat.driver' })).toBeInTheDocument();
    expect(await screen.findByText('Account Verified')).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'Sign Out' }).length).toBeGreaterThan(0);
  });

  it('checks a new password, then changes it through the auth client', async () => {
    renderProfile();
    fireEvent.click(await screen.findByRole('button', { name: 'Change password' }));
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'short' } });
    fireEvent.change(screen.getByLabelText('Confirm new password'), { target: { value: 'other' } });
    fireEvent.click(screen.getByRole('button', { name: 'Update Password' }));
    expect(screen.getByText('Password must be at least 8 characters')).toBeInTheDocument();
    expect(screen.getByText("Passwords don't match")).toBeInTheDocument();
    expect(mockAuth.updateUser).not.toHaveBeenCalled();

    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'a-new-secret-2025' } });
    fireEvent.change(screen.getByLabelText('Confirm new password'), { target: { value: 'a-new-secret-2025' } });
    fireEvent.click(screen.getByRole('button', { name: 'Update Password' }));
    expect(await screen.findByText('Password updated successfully!')).toBeInTheDocument();
    expect(mockAuth.updateUser).toHaveBeenCalledWith({ password: 'a-new-secret-2025' });
  });

  it('asks for confirmation of a new email', async () => {
    renderProfile();
    fireEvent.click(await screen.findByRole('button', { name: 'Change email' }));
    fireEvent.change(screen.getByLabelText('New email'), { target: { value: 'not-an-email' } });
    fireEvent.click(screen.getByRole('button', { name: 'Update Email' }));
    expect(screen.getByText('Please enter a valid email address')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('New email'), { target: { value: 'pat@new.example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Update Email' }));
    expect(await screen.findByText(/We sent a confirmation link to pat@new.example.com/)).toBeInTheDocument();
    expect(mockAuth.updateUser).toHaveBeenCalledWith({ email: 'pat@new.example.com' }, expect.anything());
  });

  it('saves the notification toggles to the alert preferences', async () => {
    renderProfile();
    const email = await screen.findByRole('switch', { name: 'Email notifications' });
    expect(email).toHaveAttribute('aria-checked', 'false');
    fireEvent.click(email);
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Email notifications' })).toHaveAttribute('aria-checked', 'true'));
    fireEvent.click(screen.getByRole('switch', { name: 'Critical alerts only' }));
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Critical alerts only' })).toHaveAttribute('aria-checked', 'true'));
    expect(puts).toEqual([{ methods: { email: true } }, { severityThreshold: 'critical' }]);
  });

  it("turning 'Critical alerts only' off gives back the threshold the user had, not 'low'", async () => {
    prefs.severityThreshold = 'high';
    renderProfile();
    await screen.findByRole('switch', { name: 'Critical alerts only' });
    expect(criticalOnly()).toHaveAttribute('aria-checked', 'false');
    await toggleCriticalOnly('true');
    await toggleCriticalOnly('false');
    expect(puts).toEqual([{ severityThreshold: 'critical' }, { severityThreshold: 'high' }]);
    expect(prefs.severityThreshold).toBe('high');
  });

  it('remembers that threshold across a reload while critical-only is on', async () => {
    prefs.severityThreshold = 'medium';
    const first = renderProfile();
    await screen.findByRole('switch', { name: 'Critical alerts only' });
    await toggleCriticalOnly('true');
    first.unmount();

    renderProfile();
    expect(await screen.findByRole('switch', { name: 'Critical alerts only' })).toHaveAttribute('aria-checked', 'true');
    await toggleCriticalOnly('false');
    expect(puts).toEqual([{ severityThreshold: 'critical' }, { severityThreshold: 'medium' }]);
  });

  it("carries the app's language with the first save of a user who chose none", async () => {
    prefs.language = null;
    renderProfile('fr');
    fireEvent.click(await screen.findByRole('switch', { name: 'Notifications par e-mail' }));
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts).toEqual([{ methods: { email: true }, language: 'fr' }]);
  });

  it('speaks Spanish to a Spanish reader', async () => {
    renderProfile('es');
    expect(screen.getByRole('heading', { level: 1, name: 'Configuración del perfil' })).toBeInTheDocument();
    expect(await screen.findByText('Cuenta verificada')).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'Cerrar sesión' }).length).toBeGreaterThan(0);
    expect(await screen.findByRole('switch', { name: 'Solo alertas críticas' })).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Cambiar contraseña' }));
    fireEvent.change(screen.getByLabelText('Nueva contraseña'), { target: { value: 'short' } });
    fireEvent.click(screen.getByRole('button', { name: 'Actualizar contraseña' }));
    expect(screen.getByText('La contraseña debe tener al menos 8 caracteres')).toBeInTheDocument();
    expect(screen.getByText('Las contraseñas no coinciden')).toBeInTheDocument();
  });

  it('changes the language from the profile: the app switches at once and the choice is saved', async () => {
    renderProfile();
    await screen.findByRole('switch', { name: 'Email notifications' });
    fireEvent.change(screen.getByRole('combobox', { name: 'Language' }), { target: { value: 'es' } });
    expect(await screen.findByRole('heading', { level: 1, name: 'Configuración del perfil' })).toBeInTheDocument();
    await waitFor(() => expect(puts).toContainEqual({ language: 'es' }));
    expect(screen.getByRole('combobox', { name: 'Idioma' })).toHaveValue('es');
  });

  it("falls back to the default ('low') when no earlier threshold is known", async () => {
    prefs.severityThreshold = 'critical';
    renderProfile();
    expect(await screen.findByRole('switch', { name: 'Critical alerts only' })).toHaveAttribute('aria-checked', 'true');
    await toggleCriticalOnly('false');
    expect(puts).toEqual([{ severityThreshold: 'low' }]);
  });

  it('runs TOTP enrolment with a QR code and a verification code', async () => {
    renderProfile();
    fireEvent.click(await screen.findByRole('button', { name: 'Enable two-factor authentication' }));
    expect(await screen.findByRole('img', { name: 'QR code to add Beacon to your authenticator app' })).toHaveAttribute(
      'src',
      'data:image/svg+xml;utf-8,<svg/>',
    );
    fireEvent.change(screen.getByLabelText('Verification code'), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify and Enable' }));
    expect(await screen.findByText('Two-factor authentication enabled')).toBeInTheDocument();
    expect(mockAuth.mfa.challengeAndVerify).toHaveBeenCalledWith({ factorId: 'f1', code: '123456' });
  });
});

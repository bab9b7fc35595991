import { fireEvent, screen, waitFor } from '@testing-library/react';
import { AuthApiError } from '@supabase/auth-js';
import toast from 'react-hot-toast';
import { inLanguage } from '@/test/in-language';
import { SignupPage } from './SignupPage';
import { renderAuthScreen } from './test-utils';

const mockAuth = { signUp: jest.fn(), signOut: jest.fn(async () => ({ error: null })) };
jest.mock('./auth-client', () => ({
  get auth() {
    return mockAuth;
  },
}));

beforeEach(() => {
  jest.clearAllMocks();
  toast.remove();
  mockAuth.signUp.mockResolvedValue({ data: { user: { id: 'u1' }, session: null }, error: null });
});

const path = () => screen.getByRole('status', { name: 'current path' }).textContent;

function fill(labels: { email: string; password: string; confirm: string }, values: { email: string; password: string; confirm?: string }) {
  fireEvent.change(screen.getByLabelText(labels.email), { target: { value: values.email } });
  fireEvent.change(screen.getByLabelText(labels.password), { target: { value: values.password } });
  fireEvent.change(screen.getByLabelText(labels.confirm), { target: { value: values.confirm ?? values.password } });
}

describe('SignupPage', () => {
  it("checks the spec's rules, creates the account and sends the new user to sign in", async () => {
    renderAuthScreen('/signup', <SignupPage />);
    expect(screen.getByRole('heading', { name: 'Create your Beacon account' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Terms of Service' })).toHaveAttribute('href', '/terms');
    fireEvent.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(screen.getByText('Please enter a valid email address')).toBeInTheDocument();
    expect(screen.getByText('Please accept the Terms of Service and Privacy Policy')).toBeInTheDocument();

    fill({ email: 'Email', password: 'Password', confirm: 'Confirm password' }, { email: 'pat@example.org', password: 'a good passphrase' });
    fireEvent.click(screen.getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByText('Account created successfully! Please check your email to verify your account.')).toBeInTheDocument();
    await waitFor(() => expect(path()).toBe('/login'));
  });

  it('speaks Spanish to a Spanish reader: the form, its checks and a refusal by its code', async () => {
    mockAuth.signUp.mockResolvedValue({ data: { user: null, session: null }, error: new AuthApiError('User already registered', 422, 'user_already_exists') });
    renderAuthScreen('/signup', inLanguage('es', <SignupPage />));
    expect(screen.getByRole('heading', { name: 'Cree su cuenta de Beacon' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Términos de servicio' })).toHaveAttribute('href', '/terms');
    expect(screen.getByRole('link', { name: 'Política de privacidad' })).toHaveAttribute('href', '/privacy');
    expect(screen.getByRole('link', { name: 'Iniciar sesión' })).toHaveAttribute('href', '/login');

    fill(
      { email: 'Correo electrónico', password: 'Contraseña', confirm: 'Confirme la contraseña' },
      { email: 'pat@example.org', password: 'short', confirm: 'other' },
    );
    fireEvent.click(screen.getByRole('button', { name: 'Crear cuenta' }));
    expect(screen.getByText('La contraseña debe tener al menos 8 caracteres')).toBeInTheDocument();
    expect(screen.getByText('Las contraseñas no coinciden')).toBeInTheDocument();
    expect(screen.getByText('Acepte los Términos de servicio y la Política de privacidad')).toBeInTheDocument();

    fill(
      { email: 'Correo electrónico', password: 'Contraseña', confirm: 'Confirme la contraseña' },
      { email: 'pat@example.org', password: 'a good passphrase' },
    );
    fireEvent.click(screen.getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: 'Crear cuenta' }));
    expect(await screen.findByText('Ya existe una cuenta con esta dirección de correo electrónico.')).toBeInTheDocument();
    expect(path()).toBe('/signup');
  });
});

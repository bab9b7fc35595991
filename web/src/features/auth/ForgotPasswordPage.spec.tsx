import { fireEvent, screen } from '@testing-library/react';
import { AuthApiError } from '@supabase/auth-js';
import toast from 'react-hot-toast';
import { inLanguage } from '@/test/in-language';
import { ForgotPasswordPage } from './ForgotPasswordPage';
import { renderAuthScreen } from './test-utils';

const mockAuth = { resetPasswordForEmail: jest.fn() };
jest.mock('./auth-client', () => ({
  get auth() {
    return mockAuth;
  },
}));

beforeEach(() => {
  jest.clearAllMocks();
  toast.remove();
  mockAuth.resetPasswordForEmail.mockResolvedValue({ data: {}, error: null });
});

function send(email: string) {
  fireEvent.change(screen.getByLabelText('Email'), { target: { value: email } });
  fireEvent.click(screen.getByRole('button', { name: 'Send Reset Link' }));
}

describe('ForgotPasswordPage', () => {
  it('checks the address before asking for a mail', () => {
    renderAuthScreen('/forgot-password', <ForgotPasswordPage />);
    send('pat@example');
    expect(screen.getByText('Please enter a valid email address')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
    expect(mockAuth.resetPasswordForEmail).not.toHaveBeenCalled();
  });

  it("sends the reset mail with a link back to /reset-password and says 'Password reset email sent!'", async () => {
    renderAuthScreen('/forgot-password', <ForgotPasswordPage />);
    send('  pat@example.org ');
    expect(await screen.findByText('Password reset email sent!')).toBeInTheDocument();
    expect(mockAuth.resetPasswordForEmail).toHaveBeenCalledWith('pat@example.org', { redirectTo: `${window.location.origin}/reset-password` });
    // the same words whether or not the account exists
    expect(screen.getByText(/If an account exists for pat@example\.org, a link to choose a new password is on its way/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send Reset Link' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Sign In' })).toHaveAttribute('href', '/login');
  });

  it("shows the service's message (e.g. the one-mail-a-minute limit) and keeps the form", async () => {
    mockAuth.resetPasswordForEmail.mockResolvedValue({
      data: null,
      error: new AuthApiError('For security purposes, you can only request this after 42 seconds.', 429, 'over_email_send_rate_limit'),
    });
    renderAuthScreen('/forgot-password', <ForgotPasswordPage />);
    send('pat@example.org');
    expect(await screen.findByText('For security purposes, you can only request this after 42 seconds.')).toBeInTheDocument();
    expect(screen.queryByText('Password reset email sent!')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send Reset Link' })).toBeEnabled();
  });

  it('speaks Spanish to a Spanish reader, including the service refusal by its code', async () => {
    renderAuthScreen('/forgot-password', inLanguage('es', <ForgotPasswordPage />));
    expect(screen.getByRole('heading', { name: 'Restablezca su contraseña' })).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Correo electrónico'), { target: { value: 'pat@example.org' } });
    mockAuth.resetPasswordForEmail.mockResolvedValueOnce({
      data: null,
      error: new AuthApiError('For security purposes, you can only request this after 42 seconds.', 429, 'over_email_send_rate_limit'),
    });
    fireEvent.click(screen.getByRole('button', { name: 'Enviar enlace' }));
    expect(await screen.findByText('Se solicitaron demasiados correos electrónicos. Espere un minuto e inténtelo de nuevo.')).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Enviar enlace' }));
    expect(await screen.findByText('¡Se envió el correo para restablecer la contraseña!')).toBeInTheDocument();
    expect(screen.getByText(/^Si existe una cuenta para pat@example\.org, le enviamos un enlace/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Volver a iniciar sesión' })).toHaveAttribute('href', '/login');
  });
});

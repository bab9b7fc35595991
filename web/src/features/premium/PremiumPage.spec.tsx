import { fireEvent, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import { Toaster } from 'react-hot-toast';
import { makeStore } from '@/app/store';
import { signedIn, signedOut } from '@/features/auth/auth.slice';
import { inLanguage } from '@/test/in-language';
import { PremiumPage } from './PremiumPage';

function renderPremium(user: boolean, language?: 'es') {
  const store = makeStore();
  store.dispatch(user ? signedIn({ id: 'u1', email: 'pat@example.com', role: 'user' }) : signedOut());
  const page = (
    <Provider store={store}>
      <MemoryRouter>
        <PremiumPage />
        <Toaster />
      </MemoryRouter>
    </Provider>
  );
  render(language ? inLanguage(language, page) : page);
}

describe('PremiumPage', () => {
  it('shows the three plans with the spec prices', () => {
    renderPremium(false);
    expect(screen.getByRole('heading', { name: 'Free' })).toBeInTheDocument();
    expect(screen.getByText('$0')).toBeInTheDocument();
    expect(screen.getByText('$10')).toBeInTheDocument();
    expect(screen.getByText('$30')).toBeInTheDocument();
    expect(screen.getByText('per month for 5 users')).toBeInTheDocument();
    expect(screen.getByText('+$10 per month for each extra user')).toBeInTheDocument();
    expect(screen.getByText('30-Day Money-Back Guarantee')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Restore Purchases' })).not.toBeInTheDocument();
  });

  it('does not sell voice alerts, which every plan has: the Free plan lists them and the card says so', () => {
    renderPremium(false);
    const card = (name: string) => screen.getByRole('heading', { name }).closest('.card') as HTMLElement;
    expect(card('Free')).toHaveTextContent('Voice alerts: read aloud in the app, calls when sent by voice');
    expect(card('Single User')).not.toHaveTextContent(/voice/i);
    expect(card('Family/Team')).not.toHaveTextContent(/voice/i);
    const voice = screen.getByRole('heading', { name: 'Voice Alerts on Every Plan' }).closest('article') as HTMLElement;
    expect(voice).toHaveTextContent('come with the Free plan too: Premium does not charge for them');
    expect(document.body).not.toHaveTextContent(/while (you )?driv/i);
  });

  it('answers purchases and restore with the disabled toast, and Contact Sales with its own', async () => {
    renderPremium(true);
    fireEvent.click(screen.getByRole('button', { name: 'Choose Single User plan' }));
    expect(await screen.findByText('Premium subscriptions are currently disabled')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Restore Purchases' }));
    fireEvent.click(screen.getByRole('button', { name: 'Start Free Trial' }));
    fireEvent.click(screen.getByRole('button', { name: 'Contact Sales' }));
    expect(await screen.findByText('Contact feature is currently disabled')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Current Plan' })).toBeDisabled();
  });

  it('opens one FAQ answer at a time', () => {
    renderPremium(false);
    fireEvent.click(screen.getByRole('button', { name: 'Can I try Premium before paying?' }));
    expect(screen.getByRole('button', { name: 'Can I try Premium before paying?' })).toHaveAttribute('aria-expanded', 'true');
    fireEvent.click(screen.getByRole('button', { name: 'Can I cancel at any time?' }));
    expect(screen.getByRole('button', { name: 'Can I try Premium before paying?' })).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getAllByRole('button', { expanded: true })).toHaveLength(1);
  });

  it('speaks Spanish to a Spanish reader, plans, prices, voice card and toasts included', async () => {
    renderPremium(true, 'es');
    expect(screen.getByRole('heading', { level: 1, name: 'Más aviso. Más cobertura. Más tranquilidad.' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Elija su plan' })).toBeInTheDocument();
    const free = screen.getByRole('heading', { name: 'Gratis' }).closest('.card') as HTMLElement;
    expect(free).toHaveTextContent('Alertas de voz: leídas en la aplicación, llamadas cuando se envían por voz');
    expect(screen.getByRole('heading', { name: 'Alertas de voz en todos los planes' })).toBeInTheDocument();
    expect(screen.getByText('Garantía de devolución de 30 días')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Plan actual' })).toBeDisabled();
    fireEvent.click(screen.getByRole('button', { name: 'Elegir el plan Individual' }));
    expect(await screen.findByText('Las suscripciones Premium están desactivadas por ahora')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: '¿Puedo probar Premium antes de pagar?' }));
    expect(screen.getByText(/comienzan con una prueba gratis de 14 días/)).toBeVisible();
  });
});

import { render, screen, within } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { inLanguage } from '@/test/in-language';
import { ContactPage, PrivacyPage, TermsPage } from './LegalPages';

const renderPage = (page: ReactElement, language?: 'es') => {
  const ui = <MemoryRouter>{page}</MemoryRouter>;
  render(language ? inLanguage(language, ui) : ui);
};

const sections = () => screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent);

describe('TermsPage', () => {
  it('states the essentials from the FAQ, each answer linking to its FAQ entry', () => {
    renderPage(<TermsPage />);
    expect(screen.getByRole('heading', { level: 1, name: 'Terms of Service' })).toBeInTheDocument();
    expect(sections()).toEqual([
      'What is Beacon?',
      'Does Beacon replace calling 911?',
      'What does the Free plan include?',
      'Can I cancel or change my plan at any time?',
      'How do I delete my account and data?',
    ]);
    const replace911 = screen.getByRole('region', { name: 'Does Beacon replace calling 911?' });
    expect(replace911).toHaveTextContent('If you or someone else is in danger, call 911 first.');
    expect(within(replace911).getByRole('link', { name: 'This answer in the FAQ' })).toHaveAttribute('href', '/faq#replace-911');
    expect(screen.getByRole('link', { name: 'Contact Support' })).toHaveAttribute('href', '/contact');
  });

  it('reads in Spanish for a Spanish reader', () => {
    renderPage(<TermsPage />, 'es');
    expect(screen.getByRole('heading', { level: 1, name: 'Términos de servicio' })).toBeInTheDocument();
    expect(sections()).toContain('¿Beacon reemplaza la llamada al 911?');
    const replace911 = screen.getByRole('region', { name: '¿Beacon reemplaza la llamada al 911?' });
    expect(replace911).toHaveTextContent('Si usted u otra persona está en peligro, llame primero al 911.');
    expect(within(replace911).getByRole('link', { name: 'Esta respuesta en las preguntas frecuentes' })).toHaveAttribute('href', '/faq#replace-911');
    expect(screen.getByText(/Preguntas sobre estos términos/)).toHaveTextContent('Preguntas sobre estos términos: consulte Contactar a soporte.');
    expect(screen.getByRole('link', { name: 'Contactar a soporte' })).toHaveAttribute('href', '/contact');
  });
});

describe('PrivacyPage', () => {
  it('answers what Beacon collects and shares, in Spanish for a Spanish reader', () => {
    renderPage(<PrivacyPage />, 'es');
    expect(screen.getByRole('heading', { level: 1, name: 'Política de privacidad' })).toBeInTheDocument();
    expect(sections()).toEqual([
      '¿Qué datos recopila Beacon?',
      '¿Se comparte mi ubicación con alguien?',
      '¿Qué tan precisa es mi ubicación?',
      '¿Cómo elimino mi cuenta y mis datos?',
    ]);
    expect(screen.getByText(/No vendemos sus datos\./)).toBeInTheDocument();
  });
});

describe('ContactPage', () => {
  it('lists the ways to reach help, with their links', () => {
    renderPage(<ContactPage />);
    expect(screen.getByRole('heading', { level: 1, name: 'Contact Support' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '911' })).toHaveAttribute('href', 'tel:911');
    expect(screen.getByText('Request Help')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'alerts not arriving' })).toHaveAttribute('href', '/faq#alerts-not-arriving');
    expect(screen.getByRole('link', { name: 'Profile' })).toHaveAttribute('href', '/profile');
  });

  it('reads in Spanish, its links kept', () => {
    renderPage(<ContactPage />, 'es');
    expect(screen.getByRole('heading', { level: 1, name: 'Contactar a soporte' })).toBeInTheDocument();
    expect(sections()).toEqual(['En caso de emergencia', 'Sobre una alerta que recibió', 'Su cuenta, sus planes y sus notificaciones']);
    expect(screen.getByText(/Beacon avisa; no envía ayuda\./)).toHaveTextContent('Llame primero al 911. Beacon avisa; no envía ayuda.');
    expect(screen.getByRole('link', { name: '911' })).toHaveAttribute('href', 'tel:911');
    expect(screen.getByText('Solicitar ayuda').tagName).toBe('STRONG');
    expect(screen.getByRole('link', { name: 'Alertas' })).toHaveAttribute('href', '/alerts');
    expect(screen.getByRole('link', { name: 'cómo eliminar su cuenta' })).toHaveAttribute('href', '/faq#delete-account');
    expect(screen.getByRole('link', { name: 'Perfil' })).toHaveAttribute('href', '/profile');
  });
});

import { fireEvent, render, screen, within } from '@testing-library/react';
import { createIntl } from 'react-intl';
import { MemoryRouter } from 'react-router-dom';
import { inLanguage } from '@/test/in-language';
import { LandingPage } from './LandingPage';
import { sampleVoiceAlert } from './VoiceDemo';
import { VOICE_DEMO_POINTS, VOICE_TEXTS } from '@/common/voice-texts';

const english = createIntl({ locale: 'en', defaultLocale: 'en' });

describe('LandingPage', () => {
  const spoken: { text: string; lang: string }[] = [];
  beforeEach(() => {
    spoken.length = 0;
  });
  beforeAll(() => {
    class Utterance {
      lang = '';
      rate = 1;
      onend: (() => void) | null = null;
      onerror: (() => void) | null = null;
      constructor(readonly text: string) {}
    }
    Object.assign(window, {
      SpeechSynthesisUtterance: Utterance,
      speechSynthesis: { speak: (u: Utterance) => spoken.push({ text: u.text, lang: u.lang }), cancel: jest.fn() },
    });
  });

  it('links the hero and the closing call to action to sign-up and sign-in', () => {
    render(
      <MemoryRouter>
        <LandingPage />
      </MemoryRouter>,
    );
    expect(screen.getByRole('link', { name: 'View Demo' })).toHaveAttribute('href', '/signup');
    expect(screen.getByRole('link', { name: 'Get Alerts' })).toHaveAttribute('href', '/login');
    expect(screen.getByRole('link', { name: 'Create Free Account' })).toHaveAttribute('href', '/signup');
    for (const title of ['Live Detection', 'Instant Alerts', 'Detailed Dashboard', 'Crisis Intelligence', 'Detect', 'Alert', 'Respond']) {
      expect(screen.getByRole('heading', { name: title })).toBeInTheDocument();
    }
  });

  it('marks all three testimonials as simulated', () => {
    render(
      <MemoryRouter>
        <LandingPage />
      </MemoryRouter>,
    );
    const section = screen.getByRole('region', { name: 'What people say' });
    expect(within(section).getAllByRole('figure')).toHaveLength(3);
    expect(within(section).getAllByText('Simulated testimonial')).toHaveLength(3);
  });

  it('says exactly what voice does in the open app and what a phone call adds, and promises no read-aloud while driving', () => {
    const { container } = render(
      <MemoryRouter>
        <LandingPage />
      </MemoryRouter>,
    );
    const demo = screen.getByRole('region', { name: 'See a live alert' });
    expect(demo).toHaveTextContent(english.formatMessage(VOICE_TEXTS.inApp));
    for (const point of VOICE_DEMO_POINTS) expect(within(demo).getByText(english.formatMessage(point))).toBeInTheDocument();
    expect(demo).toHaveTextContent(/reads every new alert, update and all-clear .* aloud, in the alert’s language, on whichever page you are on, once/);
    expect(demo).toHaveTextContent(/when an administrator sends an alert by voice call, Beacon calls you, .* pressing 1 if you are safe or 2 if you need help/);
    expect(demo).toHaveTextContent('A browser can only speak while Beacon is open in it');
    expect(container).not.toHaveTextContent(/your phone reads aloud|hands-free|while driving/i);
  });

  it('speaks the sample voice alert with the browser speech synthesis', () => {
    render(
      <MemoryRouter>
        <LandingPage />
      </MemoryRouter>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Play voice alert' }));
    expect(spoken).toEqual([{ text: sampleVoiceAlert(english), lang: 'en-US' }]);
    expect(sampleVoiceAlert(english)).toMatch(/^Beacon alert\. Wrong-way driver detected on Interstate 17/);
    expect(screen.getByRole('button', { name: 'Stop voice alert' })).toHaveAttribute('aria-pressed', 'true');
    fireEvent.click(screen.getByRole('button', { name: 'Stop voice alert' }));
    expect(window.speechSynthesis.cancel).toHaveBeenCalled();
  });

  it('speaks to a Spanish reader in Spanish: the page, the sample alert and its voice', () => {
    render(
      inLanguage(
        'es',
        <MemoryRouter>
          <LandingPage />
        </MemoryRouter>,
      ),
    );
    expect(
      screen.getByRole('heading', { level: 1, name: 'Avisos en segundos sobre conductores en sentido contrario y peligros cerca de usted' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Cómo funciona' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Crear cuenta gratis' })).toHaveAttribute('href', '/signup');
    const demo = screen.getByRole('region', { name: 'Vea una alerta en vivo' });
    expect(demo).toHaveTextContent('Con las alertas de voz activadas');
    // the sample's distance in kilometres, as a Spanish reader measures roads
    expect(within(demo).getByText(/a 1,3 km$/)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Reproducir alerta de voz' }));
    expect(spoken).toEqual([{ text: expect.stringMatching(/^Alerta de Beacon\. /), lang: 'es-US' }]);
  });
});

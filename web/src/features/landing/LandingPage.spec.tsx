import { fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { LandingPage } from './LandingPage';
import { SAMPLE_VOICE_ALERT } from './VoiceDemo';
import { VOICE_TEXTS } from '@/common/voice-texts';

describe('LandingPage', () => {
  const spoken: string[] = [];
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
      speechSynthesis: { speak: (u: Utterance) => spoken.push(u.text), cancel: jest.fn() },
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
    expect(demo).toHaveTextContent(VOICE_TEXTS.inApp);
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
    expect(spoken).toEqual([SAMPLE_VOICE_ALERT]);
    expect(screen.getByRole('button', { name: 'Stop voice alert' })).toHaveAttribute('aria-pressed', 'true');
    fireEvent.click(screen.getByRole('button', { name: 'Stop voice alert' }));
    expect(window.speechSynthesis.cancel).toHaveBeenCalled();
  });
});

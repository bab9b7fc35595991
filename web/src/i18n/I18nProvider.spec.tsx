import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { I18nProvider, initialUiLanguage, useLanguage } from './I18nProvider';
import type { UiLanguage } from './languages';

jest.mock('./catalogues', () => {
  const catalogues: Record<string, Record<string, string>> = {
    en: {},
    es: { 'app.language.label': 'Idioma' },
    fr: { 'app.language.label': 'Langue' },
  };
  // fr arrives late: a switch to es after it must still win
  let releaseFr: () => void = () => {};
  return {
    loadCatalogue: jest.fn((l: string) =>
      l === 'fr' ? new Promise((resolve) => (releaseFr = () => resolve(catalogues.fr))) : Promise.resolve(catalogues[l] ?? {}),
    ),
    releaseFr: () => releaseFr(),
  };
});
const { releaseFr } = jest.requireMock('./catalogues') as { releaseFr: () => void };

function Screen() {
  const { language, setLanguage } = useLanguage();
  const [typed, setTyped] = useState('');
  return (
    <>
      <h1>
        <FormattedMessage id="app.language.label" defaultMessage="Language" />
      </h1>
      <output aria-label="language">{language}</output>
      <input aria-label="draft" value={typed} onChange={(e) => setTyped(e.target.value)} />
      {(['es', 'fr', 'en'] as UiLanguage[]).map((l) => (
        <button key={l} onClick={() => void setLanguage(l)}>
          {`to ${l}`}
        </button>
      ))}
    </>
  );
}

beforeEach(() => localStorage.clear());

it('switches the whole tree at once, keeps what was typed, follows with <html lang> and remembers the choice', async () => {
  const user = userEvent.setup();
  render(
    <I18nProvider initial={{ language: 'en', messages: {} }}>
      <Screen />
    </I18nProvider>,
  );
  expect(screen.getByRole('heading')).toHaveTextContent('Language');
  await user.type(screen.getByLabelText('draft'), 'half a report');
  await user.click(screen.getByRole('button', { name: 'to es' }));
  expect(await screen.findByRole('heading', { name: 'Idioma' })).toBeInTheDocument();
  expect(screen.getByLabelText('draft')).toHaveValue('half a report');
  expect(document.documentElement.lang).toMatch(/^es/);
  expect(localStorage.getItem('beacon.language')).toBe('es');
});

it('applies the last language asked for when an earlier catalogue arrives late', async () => {
  const user = userEvent.setup();
  render(
    <I18nProvider initial={{ language: 'en', messages: {} }}>
      <Screen />
    </I18nProvider>,
  );
  await user.click(screen.getByRole('button', { name: 'to fr' }));
  await user.click(screen.getByRole('button', { name: 'to es' }));
  await screen.findByRole('heading', { name: 'Idioma' });
  await act(async () => releaseFr());
  expect(screen.getByRole('heading')).toHaveTextContent('Idioma');
  expect(screen.getByLabelText('language')).toHaveTextContent('es');
});

describe('initialUiLanguage', () => {
  const at = (search: string) => window.history.replaceState(null, '', `/${search}`);
  afterEach(() => at(''));

  it('is ?lang= when given (and remembered), the pseudo-locale only for this visit', () => {
    at('?lang=ko');
    expect(initialUiLanguage()).toBe('ko');
    expect(localStorage.getItem('beacon.language')).toBe('ko');
    at('?lang=en-XA');
    expect(initialUiLanguage()).toBe('en-XA');
    expect(localStorage.getItem('beacon.language')).toBe('ko');
  });

  it("is the remembered choice, else the browser's first language Beacon speaks", () => {
    const languages = jest.spyOn(navigator, 'languages', 'get').mockReturnValue(['de-DE', 'vi-VN', 'en']);
    expect(initialUiLanguage()).toBe('vi');
    localStorage.setItem('beacon.language', 'fr');
    expect(initialUiLanguage()).toBe('fr');
    localStorage.setItem('beacon.language', 'klingon');
    expect(initialUiLanguage()).toBe('vi');
    languages.mockRestore();
  });
});

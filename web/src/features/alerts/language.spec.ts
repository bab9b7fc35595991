import { createElement } from 'react';
import { render } from '@testing-library/react';
import { I18nProvider, type UiLanguage } from '@/i18n';
import type { PreferencesUpdate } from './alerts.api';
import { withFirstLanguage } from './language';

const noHome: PreferencesUpdate = { home: null };

/** The app as a reader of `language` has it (its words are not needed here). */
const appIn = (language: UiLanguage) => render(createElement(I18nProvider, { initial: { language, messages: {} }, children: null }));

describe('the first preferences save carries the app’s language (issue #41: one choice for the app and the alerts)', () => {
  afterEach(() => jest.restoreAllMocks());

  it('adds the language the app is in while none is chosen, whatever the browser says', () => {
    jest.spyOn(navigator, 'language', 'get').mockReturnValue('vi-VN');
    appIn('es');
    expect(withFirstLanguage(noHome, { language: null })).toEqual({ home: null, language: 'es' });
  });

  it('sends English for the pseudo-locale, which is never saved', () => {
    appIn('en-XA');
    expect(withFirstLanguage(noHome, { language: null })).toEqual({ home: null, language: 'en' });
  });

  it('leaves a chosen language, an update that sets one, and an unknown saved state alone', () => {
    appIn('es');
    expect(withFirstLanguage(noHome, { language: 'vi' })).toEqual({ home: null });
    expect(withFirstLanguage({ language: 'ko' as const }, { language: null })).toEqual({ language: 'ko' });
    expect(withFirstLanguage(noHome, undefined)).toEqual({ home: null });
  });
});

import type { PreferencesUpdate } from './alerts.api';
import { withFirstLanguage } from './language';

const noHome: PreferencesUpdate = { home: null };

describe('the first preferences save carries the browser language', () => {
  afterEach(() => jest.restoreAllMocks());

  it('adds the browser language while none is chosen', () => {
    jest.spyOn(navigator, 'language', 'get').mockReturnValue('es-US');
    expect(withFirstLanguage(noHome, { language: null })).toEqual({ home: null, language: 'es' });
  });

  it('leaves a chosen language, an update that sets one, and an unknown saved state alone', () => {
    jest.spyOn(navigator, 'language', 'get').mockReturnValue('es-US');
    expect(withFirstLanguage(noHome, { language: 'vi' })).toEqual({ home: null });
    expect(withFirstLanguage({ language: 'ko' as const }, { language: null })).toEqual({ language: 'ko' });
    expect(withFirstLanguage(noHome, undefined)).toEqual({ home: null });
  });
});

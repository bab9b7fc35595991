import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { createIntl, createIntlCache, RawIntlProvider, type IntlShape } from 'react-intl';
import type { Catalogue } from './catalogue';
import { loadCatalogue } from './catalogues';
import { browserUiLanguage, intlLocaleFor, isUiLanguage, PSEUDO_LOCALE, type UiLanguage } from './languages';

const STORAGE_KEY = 'beacon.language';
const cache = createIntlCache();

function makeIntl(language: UiLanguage, messages: Catalogue): IntlShape {
  return createIntl(
    {
      locale: intlLocaleFor(language),
      messages: messages as Record<string, string>,
      defaultLocale: 'en',
      // A message a catalogue lacks shows its English (the catalogue check keeps that from shipping); say nothing else.
      onError: (e) => {
        if (e.code !== 'MISSING_TRANSLATION' && process.env.NODE_ENV !== 'production') console.error(e);
      },
    },
    cache,
  );
}

let active: IntlShape = makeIntl('en', {});
let activeLanguage: UiLanguage = 'en';

/**
 * The app's current intl for code outside components (toasts, notifications, RTK Query callbacks). Components use
 * useIntl() or <FormattedMessage>, which re-render on a switch; this one is read at the moment a text is made.
 */
export const currentIntl = (): IntlShape => active;

/** The app's current language, for code outside components (the first preferences save carries it). */
export const currentUiLanguage = (): UiLanguage => activeLanguage;

/** What the reader chose last on this device (a visitor's switch, or their preferences), else the browser's. */
export function initialUiLanguage(): UiLanguage {
  try {
    const asked = new URLSearchParams(window.location.search).get('lang');
    if (isUiLanguage(asked)) {
      if (asked !== PSEUDO_LOCALE) localStorage.setItem(STORAGE_KEY, asked);
      return asked;
    }
    const stored = localStorage.getItem(STORAGE_KEY);
    if (isUiLanguage(stored)) return stored;
  } catch {
    // storage refused (private mode): the browser's language
  }
  return browserUiLanguage();
}

interface LanguageState {
  language: UiLanguage;
  /** Switches the whole app at once, after its catalogue has arrived (no flash of English, no layout shift). */
  setLanguage: (language: UiLanguage) => Promise<void>;
}

const LanguageContext = createContext<LanguageState | null>(null);

export function useLanguage(): LanguageState {
  const state = useContext(LanguageContext);
  if (!state) throw new Error('useLanguage outside I18nProvider');
  return state;
}

/**
 * The app's language and its messages. `initial` comes loaded (main.tsx waits for its catalogue before the first
 * paint); `<html lang>` follows the language, so a screen reader reads the page in it (WCAG 3.1.1).
 */
export function I18nProvider({ initial, children }: { initial: { language: UiLanguage; messages: Catalogue }; children: ReactNode }) {
  const [state, setState] = useState(initial);
  const wanted = useRef(initial.language);
  const intl = useMemo(() => makeIntl(state.language, state.messages), [state]);
  active = intl;
  activeLanguage = state.language;

  useEffect(() => {
    document.documentElement.lang = state.language === PSEUDO_LOCALE ? 'en' : intl.locale;
  }, [state.language, intl.locale]);

  const setLanguage = useCallback(async (language: UiLanguage) => {
    wanted.current = language;
    const messages = await loadCatalogue(language);
    // two quick switches: the last one asked wins, whichever catalogue arrives first
    if (wanted.current !== language) return;
    try {
      if (language !== PSEUDO_LOCALE) localStorage.setItem(STORAGE_KEY, language);
    } catch {
      // not remembered on this device; the switch still applies
    }
    setState((s) => (s.language === language ? s : { language, messages }));
  }, []);

  const value = useMemo(() => ({ language: state.language, setLanguage }), [state.language, setLanguage]);
  return (
    <LanguageContext.Provider value={value}>
      <RawIntlProvider value={intl}>{children}</RawIntlProvider>
    </LanguageContext.Provider>
  );
}

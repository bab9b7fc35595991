import { isLanguage, languageFromLocale, type Language } from '@beacon/contracts';

/**
 * The languages the web app speaks: the six Beacon alerts come in, plus a pseudo-locale (long, accented English made
 * from the English catalogue) that finds text the catalogues miss and layouts that break when words grow. The
 * pseudo-locale is reached only by `?lang=en-XA`: no switch offers it and it is never saved to a user's preferences.
 */
export const PSEUDO_LOCALE = 'en-XA';
export type UiLanguage = Language | typeof PSEUDO_LOCALE;

export const isUiLanguage = (x: unknown): x is UiLanguage => isLanguage(x) || x === PSEUDO_LOCALE;

/** The language alerts and saved preferences use for a UI language (the pseudo-locale reads alerts in English). */
export const alertLanguageOf = (ui: UiLanguage): Language => (ui === PSEUDO_LOCALE ? 'en' : ui);

/** Each language by its own name, as a switch lists them: a reader finds theirs without reading the others. */
export const LANGUAGE_ENDONYMS: Record<Language, string> = {
  en: 'English',
  es: 'Español',
  fr: 'Français',
  zh: '中文',
  vi: 'Tiếng Việt',
  ko: '한국어',
};

const browserLanguages = (): readonly string[] =>
  typeof navigator === 'undefined' ? [] : navigator.languages?.length ? navigator.languages : navigator.language ? [navigator.language] : [];

/** The browser's first language Beacon speaks, English when none. */
export const browserUiLanguage = (): Language => {
  for (const tag of browserLanguages()) {
    const primary = tag.toLowerCase().split(/[-_]/)[0];
    if (isLanguage(primary)) return primary;
  }
  return languageFromLocale(undefined);
};

/**
 * The locale dates, numbers and units are formatted in: the UI language with the browser's region when the browser
 * speaks that language (es-MX, en-GB), so a reader in Mexico gets Mexico's formats; else the language alone (whose
 * likely region Intl supplies). Chinese is Simplified: zh-Hans keeps a Taiwanese browser's region off its script.
 */
export function intlLocaleFor(language: UiLanguage, browser: readonly string[] = browserLanguages()): string {
  if (language === PSEUDO_LOCALE) return PSEUDO_LOCALE;
  for (const tag of browser) {
    try {
      const locale = new Intl.Locale(tag);
      if (locale.language !== language) continue;
      if (language === 'zh') return locale.region && ['CN', 'SG', 'MY'].includes(locale.region) ? `zh-Hans-${locale.region}` : 'zh-Hans';
      return locale.region ? `${language}-${locale.region}` : language;
    } catch {
      // a malformed tag in the browser's list: skip it
    }
  }
  return language === 'zh' ? 'zh-Hans' : language;
}

/** Whether a locale measures road distances in miles (the US, the UK, Liberia, Myanmar), from its likely region. */
export function usesMiles(locale: string): boolean {
  try {
    const region = new Intl.Locale(locale).maximize().region;
    return region !== undefined && ['US', 'GB', 'LR', 'MM'].includes(region);
  } catch {
    return false;
  }
}

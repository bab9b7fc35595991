import { languageFromLocale, type AlertPreferences, type Language } from '@beacon/contracts';

/** navigator.language as a language alerts come in (English when Beacon has no alerts in it). */
export const browserLanguage = (): Language => languageFromLocale(typeof navigator === 'undefined' ? undefined : navigator.language);

/**
 * A preferences update as sent: while the user has chosen no language (`saved.language` null), the first save of any
 * screen carries the browser's, so alerts reach them in it from then on. Once chosen, only the preference screen
 * changes it. Unknown saved state (not loaded): the update goes as it is.
 */
export function withFirstLanguage<T extends { language?: Language | null }>(update: T, saved: Pick<AlertPreferences, 'language'> | undefined): T {
  return saved && saved.language === null && update.language === undefined ? { ...update, language: browserLanguage() } : update;
}

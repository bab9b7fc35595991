import type { AlertPreferences, Language } from '@beacon/contracts';
import { alertLanguageOf, currentUiLanguage } from '@/i18n';

/**
 * A preferences update as sent: while the user has chosen no language (`saved.language` null), the first save of any
 * screen carries the app's (the browser's, or the one they switched to), so alerts reach them in the language they read
 * the app in from then on. Unknown saved state (not loaded): the update goes as it is.
 */
export function withFirstLanguage<T extends { language?: Language | null }>(update: T, saved: Pick<AlertPreferences, 'language'> | undefined): T {
  return saved && saved.language === null && update.language === undefined ? { ...update, language: alertLanguageOf(currentUiLanguage()) } : update;
}

import type { ReactElement } from 'react';
import { I18nProvider, type UiLanguage } from '@/i18n';
import type { Catalogue } from '@/i18n/catalogue';

/** `ui` as a reader of `language` sees it: inside the app's provider with that language's catalogue. */
export function inLanguage(language: Exclude<UiLanguage, 'en'>, ui: ReactElement): ReactElement {
  const messages: Catalogue = language === 'en-XA' ? require('@/i18n/catalogues/en-XA.json') : require(`@/i18n/catalogues/${language}`).default;
  return <I18nProvider initial={{ language, messages }}>{ui}</I18nProvider>;
}

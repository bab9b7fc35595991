export { currentIntl, currentUiLanguage, I18nProvider, initialUiLanguage, useLanguage } from './I18nProvider';
export { loadCatalogue } from './catalogues';
export { alertLanguageOf, intlLocaleFor, LANGUAGE_ENDONYMS, PSEUDO_LOCALE, type UiLanguage } from './languages';
export { formatDistance } from './format';
export { defineMessages } from './catalogue';

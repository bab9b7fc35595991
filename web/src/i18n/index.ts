export { currentIntl, currentUiLanguage, I18nProvider, initialUiLanguage, useLanguage } from './I18nProvider';
export { loadCatalogue } from './catalogues';
export { alertLanguageOf, browserUiLanguage, intlLocaleFor, isUiLanguage, LANGUAGE_ENDONYMS, PSEUDO_LOCALE, usesMiles, type UiLanguage } from './languages';
export { formatDistance, formatNumber } from './format';
export { defineMessages, type Catalogue } from './catalogue';

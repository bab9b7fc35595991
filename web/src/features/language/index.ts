export { LanguageSwitch } from './LanguageSwitch';
export { LanguageSync } from './LanguageSync';

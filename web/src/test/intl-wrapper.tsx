import type { ComponentType, ReactNode } from 'react';
import { I18nProvider } from '@/i18n';

/**
 * Every web spec renders inside the app's language provider, in English with no catalogue (each message's own
 * English), as the app does for an English reader. setup.ts applies it to render() and renderHook().
 */
export function withIntl(Inner?: ComponentType<{ children: ReactNode }>) {
  return function IntlWrapper({ children }: { children: ReactNode }) {
    return <I18nProvider initial={{ language: 'en', messages: {} }}>{Inner ? <Inner>{children}</Inner> : children}</I18nProvider>;
  };
}

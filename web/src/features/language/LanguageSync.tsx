import { useEffect } from 'react';
import { useAppSelector } from '@/app/hooks';
import { usePreferencesQuery } from '@/features/alerts/alerts.api';
import { selectUser } from '@/features/auth/auth.slice';
import { PSEUDO_LOCALE, useLanguage } from '@/i18n';

/**
 * A signed-in person's saved language is the app's: chosen on another device, it applies here when they sign in.
 * Until they have chosen one (null), the app keeps this device's and their first save sends it (withFirstLanguage).
 */
export function LanguageSync() {
  const user = useAppSelector(selectUser);
  const { data } = usePreferencesQuery(undefined, { skip: !user });
  const { language, setLanguage } = useLanguage();
  const saved = user ? data?.language : null;
  useEffect(() => {
    if (saved && saved !== language && language !== PSEUDO_LOCALE) void setLanguage(saved);
    // only a change of the saved language (or of who is signed in) applies it: a switch made here saves it first
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [saved]);
  return null;
}

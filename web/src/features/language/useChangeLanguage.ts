import { useCallback } from 'react';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { alertsApi, useUpdatePreferencesMutation } from '@/features/alerts/alerts.api';
import { selectUser } from '@/features/auth/auth.slice';
import { alertLanguageOf, PSEUDO_LOCALE, useLanguage, type UiLanguage } from '@/i18n';

/**
 * Switches the app's language and, for a signed-in person, their saved language: the one their alerts reach them in
 * by every channel. The two are one choice (issue #41), so the app and the alerts never disagree. Their feed is read
 * again, since the server writes it in their language.
 */
export function useChangeLanguage(): (language: UiLanguage) => Promise<void> {
  const { setLanguage } = useLanguage();
  const user = useAppSelector(selectUser);
  const [save] = useUpdatePreferencesMutation();
  const dispatch = useAppDispatch();
  return useCallback(
    async (language: UiLanguage) => {
      await setLanguage(language);
      if (!user || language === PSEUDO_LOCALE) return;
      await save({ language: alertLanguageOf(language) }).unwrap();
      dispatch(alertsApi.util.invalidateTags(['MyAlerts']));
    },
    [setLanguage, user, save, dispatch],
  );
}

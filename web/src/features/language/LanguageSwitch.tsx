import { useId } from 'react';
import { FormattedMessage } from 'react-intl';
import toast from 'react-hot-toast';
import { SUPPORTED_LANGUAGES } from '@beacon/contracts';
import { currentIntl, LANGUAGE_ENDONYMS, PSEUDO_LOCALE, useLanguage, type UiLanguage } from '@/i18n';
import { useChangeLanguage } from './useChangeLanguage';

/**
 * The language switch: each language by its own name (and marked as such for screen readers). In the shell for
 * everyone, and on the preferences page; both are the same choice.
 */
export function LanguageSwitch({ className, compact = false }: { className?: string; compact?: boolean }) {
  const id = useId();
  const { language } = useLanguage();
  const change = useChangeLanguage();
  return (
    <span className={className}>
      <label htmlFor={id} className={compact ? 'visually-hidden' : undefined}>
        <FormattedMessage id="app.language.label" defaultMessage="Language" />
      </label>
      <select
        id={id}
        value={language === PSEUDO_LOCALE ? 'en' : language}
        onChange={(e) =>
          change(e.target.value as UiLanguage).catch(() =>
            toast.error(currentIntl().formatMessage({ id: 'app.language.notSaved', defaultMessage: 'Your language could not be saved. Try again.' })),
          )
        }
      >
        {SUPPORTED_LANGUAGES.map((l) => (
          <option key={l} value={l} lang={l}>
            {LANGUAGE_ENDONYMS[l]}
          </option>
        ))}
      </select>
    </span>
  );
}

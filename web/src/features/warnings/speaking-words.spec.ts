import { TRANSLATION_LANGUAGES } from '@beacon/contracts';

/**
 * The read-aloud's Stop button shows a short word and is named by a longer label: in every language the label must
 * hold the visible word, or speech-input users cannot say what they see (WCAG 2.5.3, axe label-content-name-mismatch).
 */
it.each(TRANSLATION_LANGUAGES)('%s: the Stop button’s name contains its visible word', (language) => {
  const words: Record<string, string> = require(`@/i18n/catalogues/warnings/${language}.json`);
  expect(words['warnings.speaking.stopLabel']).toContain(words['warnings.speaking.stop']);
});

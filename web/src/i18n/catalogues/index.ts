import type { Catalogue } from '../catalogue';
import { PSEUDO_LOCALE, type UiLanguage } from '../languages';

/**
 * Each language's catalogue is its own chunk, fetched only by a reader of that language; English is the code's own
 * words (each message's defaultMessage) and costs nothing to load.
 */
const LOADERS: Record<Exclude<UiLanguage, 'en'>, () => Promise<{ default: Catalogue }>> = {
  es: () => import('./es'),
  fr: () => import('./fr'),
  zh: () => import('./zh'),
  vi: () => import('./vi'),
  ko: () => import('./ko'),
  [PSEUDO_LOCALE]: () => import('./en-XA.json') as Promise<{ default: Catalogue }>,
};

const loaded = new Map<UiLanguage, Catalogue>([['en', {}]]);

/** The messages of `language`, fetched once. */
export async function loadCatalogue(language: UiLanguage): Promise<Catalogue> {
  const known = loaded.get(language);
  if (known) return known;
  const catalogue = (await LOADERS[language as Exclude<UiLanguage, 'en'>]()).default;
  loaded.set(language, catalogue);
  return catalogue;
}

import type { Catalogue } from '../catalogue';
import { PSEUDO_LOCALE, type UiLanguage } from '../languages';

/**
 * Each language's catalogue is its own chunk, fetched only by a reader of that language. English too: a build keeps
 * no message text in the code (vite.config.ts), so the landing entry carries ids only and each reader loads one
 * language's words.
 */
const LOADERS: Record<UiLanguage, () => Promise<{ default: Catalogue }>> = {
  en: () => import('./en.json') as Promise<{ default: Catalogue }>,
  es: () => import('./es'),
  fr: () => import('./fr'),
  zh: () => import('./zh'),
  vi: () => import('./vi'),
  ko: () => import('./ko'),
  [PSEUDO_LOCALE]: () => import('./en-XA.json') as Promise<{ default: Catalogue }>,
};

const loaded = new Map<UiLanguage, Catalogue>();

/** The messages of `language`, fetched once. */
export async function loadCatalogue(language: UiLanguage): Promise<Catalogue> {
  const known = loaded.get(language);
  if (known) return known;
  const catalogue = (await LOADERS[language]()).default;
  loaded.set(language, catalogue);
  return catalogue;
}

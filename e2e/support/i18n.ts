import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { IntlMessageFormat } from 'intl-messageformat';

/**
 * The app's words in a language, as the journeys look for them: by their English (the code's own words, en.json), so a
 * journey reads like the screen it checks and does not care which id a message has. Several messages with the same
 * English must agree in the language, or the journey could look for the wrong one.
 */
const CATALOGUES = join(__dirname, '..', '..', 'web', 'src', 'i18n', 'catalogues');
const readJson = (path: string): Record<string, string> => JSON.parse(readFileSync(path, 'utf8'));

function catalogue(language: string): Record<string, string> {
  const all: Record<string, string> = {};
  for (const area of readdirSync(CATALOGUES, { withFileTypes: true })) {
    if (area.isDirectory()) Object.assign(all, readJson(join(CATALOGUES, area.name, `${language}.json`)));
  }
  return all;
}

/** A message's values: text and numbers, and for a tag its rendering (`{ strong: (chunks) => chunks.join('') }`). */
type Values = Record<string, string | number | ((chunks: string[]) => string)>;

export function wordsIn(language: string) {
  const english = readJson(join(CATALOGUES, 'en.json'));
  const theirs = catalogue(language);
  const format = (id: string, values?: Values) => {
    const said = new IntlMessageFormat(theirs[id], language).format<string>(values as never);
    return Array.isArray(said) ? said.join('') : String(said);
  };
  const words = (text: string, values?: Values): string => {
    const ids = Object.keys(english).filter((id) => english[id] === text);
    if (ids.length === 0) throw new Error(`no message says "${text}" in English`);
    const said = new Set(ids.map((id) => theirs[id]));
    if (said.size !== 1) throw new Error(`"${text}" has ${said.size} ${language} translations (${[...said].join(' | ')}): name its id with .id()`);
    return format(ids[0], values);
  };
  /** One message by its id, where the same English has several translations (a severity "High" and a level "High"). */
  words.id = (id: string, values?: Values): string => {
    if (!(id in theirs)) throw new Error(`no message ${id} in ${language}`);
    return format(id, values);
  };
  return words;
}

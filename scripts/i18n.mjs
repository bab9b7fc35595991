#!/usr/bin/env node
// The web app's message catalogues (issue #41).
//
//   node scripts/i18n.mjs extract   write web/src/i18n/catalogues/en.json (every message the code defines, its English
//                                   as written in the code), en-XA.json (the pseudo-locale made from it) and the
//                                   per-language index files; run it after adding or changing a message
//   node scripts/i18n.mjs check     fail, naming each problem, when en.json is stale, a language lacks a message or has
//                                   one the code no longer defines, a translation does not parse as ICU or does not
//                                   keep the English's placeholders and tags, or an id is outside its area's file
//
// `npm run lint` (and so `npm test`) runs `check`. `--root DIR` points both at another tree (the script's own spec).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { parse, TYPE } from '@formatjs/icu-messageformat-parser';
import { compile, extract } from '@formatjs/cli-lib';

/** Each area is the first part of the ids it holds: alerts.card.title lives in catalogues/alerts/<language>.json. */
export const CATALOGUE_AREAS = [
  'app',
  'common',
  'errors',
  'auth',
  'alerts',
  'warnings',
  'offline',
  'community',
  'incidents',
  'legal',
  'faq',
  'dashboard',
  'map',
  'traffic',
  'landing',
  'profile',
  'store',
  'premium',
  'admin',
];
export const TRANSLATED_LANGUAGES = ['es', 'fr', 'zh', 'vi', 'ko'];
const PSEUDO_LOCALE = 'en-XA';

const args = process.argv.slice(2);
const rootAt = args.indexOf('--root');
const root = rootAt >= 0 ? args[rootAt + 1] : join(import.meta.dirname, '..');
const command = args.find((a, i) => !a.startsWith('--') && (rootAt < 0 || i !== rootAt + 1));
const src = join(root, 'web/src');
const dir = join(src, 'i18n/catalogues');

function sourceFiles(at) {
  const out = [];
  for (const name of readdirSync(at)) {
    const path = join(at, name);
    if (statSync(path).isDirectory()) {
      if (name !== 'test' && name !== 'node_modules') out.push(...sourceFiles(path));
    } else if (/\.(ts|tsx)$/.test(name) && !/\.spec\.tsx?$/.test(name) && !/test-utils\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out.sort();
}

/** Every message the code defines: id -> English. A message without an explicit id is an error (ids are the contract). */
async function extractEnglish() {
  const problems = [];
  const json = await extract(sourceFiles(src), {
    throws: true,
    extractSourceLocation: true,
    preserveWhitespace: true,
    idInterpolationPattern: '__missing_id__[contenthash:5]',
  });
  const english = {};
  for (const [id, m] of Object.entries(JSON.parse(json)).sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (id.startsWith('__missing_id__')) problems.push(`${relative(root, m.file)}:${m.line}: a message without an id ("${m.defaultMessage}")`);
    else english[id] = m.defaultMessage;
  }
  return { english, problems };
}

const readJson = (path) => (existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : {});
const stable = (obj) => `${JSON.stringify(obj, null, 2)}\n`;

/** The arguments and tags a message uses, with their kinds: a translation must keep every one of them. */
function shapeOf(message) {
  const found = new Set();
  const walk = (elements) => {
    for (const el of elements) {
      if (el.type === TYPE.argument) found.add(`{${el.value}}`);
      else if (el.type === TYPE.number) found.add(`{${el.value}, number}`);
      else if (el.type === TYPE.date || el.type === TYPE.time) found.add(`{${el.value}, date}`);
      else if (el.type === TYPE.plural) {
        found.add(`{${el.value}, plural}`);
        for (const opt of Object.values(el.options)) walk(opt.value);
      } else if (el.type === TYPE.select) {
        found.add(`{${el.value}, select: ${Object.keys(el.options).sort().join('|')}}`);
        for (const opt of Object.values(el.options)) walk(opt.value);
      } else if (el.type === TYPE.tag) {
        found.add(`<${el.value}>`);
        walk(el.children);
      }
    }
  };
  walk(parse(message));
  return [...found].sort().join(' ');
}

function languageIndex(language) {
  const imports = CATALOGUE_AREAS.map((area) => `import ${area} from './${area}/${language}.json';`).join('\n');
  return `// Written by \`npm run i18n:extract\` from the areas in scripts/i18n.mjs: every area's ${language} messages in one catalogue.
import type { Catalogue } from '../catalogue';
${imports}

const catalogue: Catalogue = { ${CATALOGUE_AREAS.map((a) => `...${a}`).join(', ')} };
export default catalogue;
`;
}

async function pseudo(english) {
  const at = mkdtempSync(join(tmpdir(), 'beacon-i18n-'));
  try {
    writeFileSync(join(at, 'en.json'), JSON.stringify(english));
    return JSON.parse(await compile([join(at, 'en.json')], { pseudoLocale: PSEUDO_LOCALE, ast: true, format: 'simple' }));
  } finally {
    rmSync(at, { recursive: true, force: true });
  }
}

async function runExtract() {
  const { english, problems } = await extractEnglish();
  if (problems.length) return report(problems);
  writeFileSync(join(dir, 'en.json'), stable(english));
  writeFileSync(join(dir, `${PSEUDO_LOCALE}.json`), stable(await pseudo(english)));
  for (const language of TRANSLATED_LANGUAGES) {
    writeFileSync(join(dir, `${language}.ts`), languageIndex(language));
    for (const area of CATALOGUE_AREAS) {
      mkdirSync(join(dir, area), { recursive: true });
      const path = join(dir, area, `${language}.json`);
      if (!existsSync(path)) writeFileSync(path, '{}\n');
    }
  }
  console.log(`i18n: ${Object.keys(english).length} messages extracted`);
}

async function runCheck() {
  const { english, problems } = await extractEnglish();
  if (stable(english) !== stable(readJson(join(dir, 'en.json'))))
    problems.push('web/src/i18n/catalogues/en.json is not what the code defines: run `npm run i18n:extract`');
  if (stable(await pseudo(english)) !== stable(readJson(join(dir, `${PSEUDO_LOCALE}.json`))))
    problems.push(`web/src/i18n/catalogues/${PSEUDO_LOCALE}.json is stale: run \`npm run i18n:extract\``);
  const area = (id) => id.split('.')[0];
  for (const id of Object.keys(english))
    if (!CATALOGUE_AREAS.includes(area(id))) problems.push(`${id}: its area "${area(id)}" is not one of scripts/i18n.mjs's`);
  const shapes = Object.fromEntries(Object.entries(english).map(([id, m]) => [id, shapeOf(m)]));
  for (const language of TRANSLATED_LANGUAGES) {
    if (readFileSync(join(dir, `${language}.ts`), 'utf8') !== languageIndex(language))
      problems.push(`catalogues/${language}.ts is stale: run \`npm run i18n:extract\``);
    const seen = new Set();
    for (const a of CATALOGUE_AREAS) {
      const file = `catalogues/${a}/${language}.json`;
      for (const [id, message] of Object.entries(readJson(join(dir, a, `${language}.json`)))) {
        seen.add(id);
        if (area(id) !== a) problems.push(`${file}: ${id} belongs in catalogues/${area(id)}/${language}.json`);
        if (!(id in english)) {
          problems.push(`${file}: ${id} is not a message of the code (removed or renamed?)`);
          continue;
        }
        let shape;
        try {
          shape = shapeOf(message);
        } catch (e) {
          problems.push(`${file}: ${id} is not valid ICU (${e.message})`);
          continue;
        }
        if (shape !== shapes[id]) problems.push(`${file}: ${id} has "${shape}" where the English has "${shapes[id]}"`);
        if (!message.trim()) problems.push(`${file}: ${id} is empty`);
      }
    }
    for (const id of Object.keys(english)) if (!seen.has(id)) problems.push(`catalogues/${area(id)}/${language}.json lacks ${id} ("${english[id]}")`);
  }
  if (problems.length) return report(problems);
  console.log(`i18n: ${Object.keys(english).length} messages, each in ${TRANSLATED_LANGUAGES.length + 1} languages`);
}

function report(problems) {
  for (const p of problems) console.error(`i18n: ${p}`);
  console.error(`i18n: ${problems.length} problem(s)`);
  process.exitCode = 1;
}

if (command === 'extract') await runExtract();
else if (command === 'check') await runCheck();
else {
  console.error('usage: node scripts/i18n.mjs extract|check [--root DIR]');
  process.exitCode = 2;
}

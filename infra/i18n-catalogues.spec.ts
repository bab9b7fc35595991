import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The catalogue check (scripts/i18n.mjs, run by `npm run lint`) on a tree of its own: it must pass a complete set of
 * catalogues and name each way one goes wrong. The real tree's check is the lint stage itself.
 */
const script = join(__dirname, '..', 'scripts', 'i18n.mjs');
const LANGUAGES = ['es', 'fr', 'zh', 'vi', 'ko'];

let root: string;
const catalogues = () => join(root, 'web/src/i18n/catalogues');
const run = (command: 'extract' | 'check') => {
  const r = spawnSync(process.execPath, [script, command, '--root', root], { encoding: 'utf8' });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
};
const component = (greeting: string) => `import { FormattedMessage, useIntl } from 'react-intl';
export function Hello({ n }: { n: number }) {
  const intl = useIntl();
  return (
    <p title={intl.formatMessage({ id: 'app.hello.title', defaultMessage: 'Greeting' })}>
      <FormattedMessage id="app.hello.text" defaultMessage="${greeting}" values={{ n }} />
    </p>
  );
}
`;
const translate = (language: string, messages: Record<string, string>) =>
  writeFileSync(join(catalogues(), 'app', `${language}.json`), `${JSON.stringify(messages, null, 2)}\n`);
const complete = (language: string) => ({
  'app.hello.text': `[${language}] {n, plural, one {# alerta} other {# alertas}}`,
  'app.hello.title': `[${language}] hola`,
});

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'i18n-check-'));
  mkdirSync(catalogues(), { recursive: true });
  writeFileSync(join(root, 'web/src/hello.tsx'), component('You have {n, plural, one {# alert} other {# alerts}}'));
  expect(run('extract').status).toBe(0);
  for (const l of LANGUAGES) translate(l, complete(l));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

it('passes catalogues that hold every message with its placeholders, and writes the English and the pseudo-locale', () => {
  const r = run('check');
  expect(r.out).toContain('2 messages, each in 6 languages');
  expect(r.status).toBe(0);
  expect(JSON.parse(readFileSync(join(catalogues(), 'en.json'), 'utf8'))).toEqual({
    'app.hello.text': 'You have {n, plural, one {# alert} other {# alerts}}',
    'app.hello.title': 'Greeting',
  });
  // the pseudo-locale is the English, accented and longer
  expect(readFileSync(join(catalogues(), 'en-XA.json'), 'utf8')).toContain('Ɠřḗḗḗḗŧīƞɠ');
});

it('names a message a language lacks', () => {
  translate('ko', { 'app.hello.title': '인사' });
  const r = run('check');
  expect(r.status).toBe(1);
  expect(r.out).toContain('catalogues/app/ko.json lacks app.hello.text');
});

it('names a translation that drops or renames a placeholder, or is not ICU', () => {
  translate('fr', { ...complete('fr'), 'app.hello.text': 'Vous avez {count} alertes' });
  translate('vi', { ...complete('vi'), 'app.hello.text': 'Bạn có {n, plural, one {# cảnh báo' });
  const r = run('check');
  expect(r.status).toBe(1);
  expect(r.out).toMatch(/app\/fr\.json: app\.hello\.text has "\{count\}" where the English has "\{n, plural\}"/);
  expect(r.out).toMatch(/app\/vi\.json: app\.hello\.text is not valid ICU/);
});

it('names a message the code no longer defines and one filed under another area', () => {
  translate('es', { ...complete('es'), 'app.gone': 'adiós', 'alerts.x': 'x' });
  const r = run('check');
  expect(r.status).toBe(1);
  expect(r.out).toContain('app.gone is not a message of the code');
  expect(r.out).toContain('alerts.x belongs in catalogues/alerts/es.json');
});

it('finds an English catalogue older than the code, and a message without an id', () => {
  writeFileSync(join(root, 'web/src/hello.tsx'), component('You now have {n, plural, one {# alert} other {# alerts}}'));
  writeFileSync(
    join(root, 'web/src/anonymous.tsx'),
    `import { FormattedMessage } from 'react-intl';\nexport const A = () => <FormattedMessage defaultMessage="No id" />;\n`,
  );
  const r = run('check');
  expect(r.status).toBe(1);
  expect(r.out).toMatch(/web\/src\/anonymous\.tsx:2: a message without an id \("No id"\)/);
  rmSync(join(root, 'web/src/anonymous.tsx'));
  expect(run('check').out).toContain('en.json is not what the code defines: run `npm run i18n:extract`');
});

// `npm run lint`. The house rules a machine can check; `npm test` runs it first.
import formatjs from 'eslint-plugin-formatjs';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';
import { beaconPlugin } from './scripts/eslint-boundaries.mjs';

const GENERATE_SYNC =
  "a key from generateKeyPairSync can hang Node 20 for good when it is exported as JWK or its details are read; use createECDH (newVapidKeyPair) or jose's generateKeyPair";

export default [
  { ignores: ['**/dist/**', '**/node_modules/**', 'test-results/**', 'playwright-report/**', 'bench/results/**', 'web/public/**', 'web/dist/**'] },
  {
    files: ['**/*.{ts,tsx,mjs,js}'],
    languageOptions: { parser: tseslint.parser, ecmaVersion: 'latest', sourceType: 'module' },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    plugins: { beacon: beaconPlugin, '@typescript-eslint': tseslint.plugin },
    rules: {
      'beacon/boundaries': [
        'error',
        {
          zones: [
            {
              target: 'services/alerts/src/deliveries',
              from: ['alerts', 'dispatch', 'channels', 'live', 'settings'].map((folder) => `services/alerts/src/${folder}`),
              message: 'deliveries/ is the floor the HTTP API and the dispatcher both stand on; move what both need down into it',
            },
          ],
        },
      ],
      'no-debugger': 'error',
      'no-duplicate-imports': ['error', { allowSeparateTypeImports: true }],
      'no-var': 'error',
      'prefer-const': 'error',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      // Node 20 can deadlock a process that exports such a key as JWK or reads its asymmetricKeyDetails (jose does):
      // see newVapidKeyPair in services/alerts/src/keys/server-keys.ts.
      'no-restricted-imports': ['error', ...['node:crypto', 'crypto'].map((name) => ({ name, importNames: ['generateKeyPairSync'], message: GENERATE_SYNC }))],
      'no-restricted-properties': ['error', { property: 'generateKeyPairSync', message: GENERATE_SYNC }],
    },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  {
    // Every word a reader sees comes from the catalogues (issue #41): no text, label, placeholder, title or alt written
    // into JSX. The staff console (alerts-admin, moderation, the store's product admin, contact groups) stays English, as README says;
    // what it previews of the public's messages is Beacon's shared words in each language.
    files: ['web/src/**/*.{ts,tsx}'],
    ignores: [
      'web/src/**/*.spec.{ts,tsx}',
      'web/src/test/**',
      'web/src/**/*test-utils.tsx',
      'web/src/features/alerts-admin/**',
      'web/src/features/moderation/**',
      'web/src/features/store/AdminProducts*.tsx',
      'web/src/features/contact-groups-admin/**',
    ],
    plugins: { formatjs },
    rules: {
      'formatjs/no-literal-string-in-jsx': ['error', { props: { include: [['*', '{label,placeholder,title,alt,aria-label,aria-description}']] } }],
      'formatjs/enforce-default-message': ['error', 'literal'],
      'formatjs/enforce-placeholders': 'error',
      'formatjs/no-invalid-icu': 'error',
      'formatjs/no-multiple-plurals': 'error',
    },
  },
  {
    // The alert forms and their form kit: one component per form section, each short enough to read on one screen.
    files: [
      'web/src/common/form/**/*.tsx',
      'web/src/features/alerts/{AlertPreferencesPage,PreferencesSections}.tsx',
      'web/src/features/alerts-admin/{CreateAlertPage,CreateAlertSteps,CreateAlertReview,QuickSendPage,QuickSendFields,AlertTextFields,AdminSettingsPage,AdminSettingsSections}.tsx',
    ],
    rules: { 'max-lines-per-function': ['error', { max: 150 }] },
  },
];

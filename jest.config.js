const { existsSync, readdirSync, readFileSync } = require('node:fs');
const { join } = require('node:path');

// Three tiers (see ARCHITECTURE.md): unit specs next to the code, integration specs against the real
// PostgreSQL and Redis, and web component specs in jsdom. Browser journeys run under Playwright (e2e/).
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true, tsx: true },
      transform: { legacyDecorator: true, decoratorMetadata: true, react: { runtime: 'automatic' } },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
  },
];
/**
 * Jest runs specs as CommonJS through SWC, and its module system cannot load an ES module with require() on Node 20 or
 * 22 (Node itself can: the built server does). So the packages that ship only ES modules (NestJS 12, jose, file-type,
 * ...) are compiled to CommonJS by SWC too, like the specs; every other package in node_modules is loaded as it is.
 * The list is read from node_modules at start: a package that turns ESM-only in an upgrade needs no edit here.
 */
function esmOnlyPackages() {
  const names = new Set();
  const offersRequire = (exports) => JSON.stringify(exports ?? null).includes('"require"');
  const visit = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.') || !(entry.isDirectory() || entry.isSymbolicLink())) continue;
      const path = join(dir, entry.name);
      if (entry.name.startsWith('@')) {
        visit(path);
        continue;
      }
      const manifest = join(path, 'package.json');
      if (!existsSync(manifest) || entry.isSymbolicLink()) continue;
      const pkg = JSON.parse(readFileSync(manifest, 'utf8'));
      if (pkg.type === 'module' && !offersRequire(pkg.exports) && !String(pkg.main ?? '').endsWith('.cjs')) names.add(pkg.name);
      if (existsSync(join(path, 'node_modules'))) visit(join(path, 'node_modules'));
    }
  };
  visit(join(__dirname, 'node_modules'));
  return [...names].sort();
}
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// the package a file belongs to is the one after its last node_modules/ (a nested copy is its own package)
const transformIgnorePatterns = [`/node_modules/(?!(?:${esmOnlyPackages().map(escape).join('|')})/)(?!.*/node_modules/)`];

const moduleNameMapper = {
  '^@beacon/(contracts|geo|auth|common|testing)$': '<rootDir>/libs/$1/src',
};
const base = { transform: { '^.+\\.(t|j)sx?$': swc }, transformIgnorePatterns, moduleNameMapper, testEnvironment: 'node' };

module.exports = {
  projects: [
    { ...base, displayName: 'unit', testMatch: ['<rootDir>/{services,libs,infra,bench}/**/*.spec.ts'] },
    {
      ...base,
      displayName: 'integration',
      testMatch: ['<rootDir>/{services,libs,infra,bench}/**/*.integration-spec.ts'],
      globalSetup: '<rootDir>/libs/testing/src/global-setup.ts',
      // testTimeout is not a per-project option in Jest 30; this file sets it for integration specs only
      setupFilesAfterEnv: ['<rootDir>/libs/testing/src/integration-timeout.ts'],
    },
    {
      ...base,
      displayName: 'web',
      testEnvironment: '<rootDir>/web/src/test/jsdom-environment.js',
      testMatch: ['<rootDir>/web/src/**/*.spec.{ts,tsx}'],
      setupFilesAfterEnv: ['<rootDir>/web/src/test/setup.ts'],
      moduleNameMapper: {
        ...moduleNameMapper,
        '\\.(css|png|svg|jpg)$': '<rootDir>/web/src/test/file-stub.js',
        '^@/(.*)$': '<rootDir>/web/src/$1',
      },
    },
  ],
};

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
const moduleNameMapper = {
  '^@beacon/(contracts|geo|auth|common|testing)$': '<rootDir>/libs/$1/src',
};
const base = { transform: { '^.+\\.(t|j)sx?$': swc }, moduleNameMapper, testEnvironment: 'node' };

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

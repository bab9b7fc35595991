import { CONSOLE_ONLY, chunkBoundaryProblems, type ChunkFacts } from '../../chunk-boundaries';

// The build-time check of web/chunk-boundaries.ts (issue #35) on made-up chunks; `npm run build` runs it on the real ones.
const W = '/repo/web/src';
const chunk = (fileName: string, facts: Partial<ChunkFacts>): ChunkFacts => ({
  fileName,
  isEntry: false,
  isDynamicEntry: false,
  facadeModuleId: null,
  imports: [],
  moduleIds: [],
  ...facts,
});
/** One module for every rule, all in the console's chunks: a build that keeps the boundaries. */
const consoleModules = [
  '/repo/node_modules/sms-segments-calculator/dist/index.js',
  '/repo/node_modules/grapheme-splitter/index.js',
  '/repo/libs/contracts/src/sms-segments.ts',
  `${W}/app/admin-area.tsx`,
  `${W}/features/alerts-admin/CreateAlertPage.tsx`,
  `${W}/features/moderation/ModerationPage.tsx`,
  `${W}/features/store/AdminProductsPage.tsx`,
];
const build = (shared: string[] = []) => [
  chunk('index.js', { isEntry: true, moduleIds: [`${W}/main.tsx`], imports: [] }),
  chunk('alerts.js', { isDynamicEntry: true, facadeModuleId: `${W}/features/alerts/index.ts`, imports: ['index.js', 'language.js'] }),
  chunk('language.js', { moduleIds: ['/repo/libs/contracts/src/languages.ts', ...shared] }),
  chunk('admin-area.js', { isDynamicEntry: true, facadeModuleId: `${W}/app/admin-area.tsx`, imports: ['index.js', 'console.js', 'language.js'] }),
  chunk('console.js', { moduleIds: consoleModules }),
];

describe('chunk boundaries', () => {
  it('passes a build whose console-only modules are all in console chunks', () => {
    expect(CONSOLE_ONLY).toHaveLength(consoleModules.length);
    expect(chunkBoundaryProblems(build())).toEqual({ leaks: [], stale: [] });
  });

  it('names a console-only module in a chunk a user page loads statically, and the page', () => {
    const { leaks } = chunkBoundaryProblems(build(['/repo/node_modules/sms-segments-calculator/dist/libs/Segment.js']));
    expect(leaks).toEqual([
      expect.stringMatching(/^sms-segments-calculator .*: 1 module\(s\), .* in language\.js, loaded by alerts\.js \(web\/src\/features\/alerts/),
    ]);
  });

  it('names a rule that matches no module at all, so the list cannot go stale unseen', () => {
    const chunks = build().map((c) => ({ ...c, moduleIds: c.moduleIds.filter((id) => !id.includes('grapheme-splitter')) }));
    expect(chunkBoundaryProblems(chunks).stale).toEqual([expect.stringMatching(/^grapheme-splitter/)]);
  });
});

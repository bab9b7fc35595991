import type { Plugin } from 'vite';

/**
 * Code only the admin console runs (issue #35). None of it may be in a chunk that the landing page or a user's page
 * loads: the entry chunk and every lazily loaded page that is not the console's, with all the chunks they import
 * statically. Each rule names what it keeps out and matches module ids (paths; rollup adds \0 prefixes and ?suffixes).
 */
export const CONSOLE_ONLY: readonly { what: string; id: RegExp }[] = [
  { what: 'sms-segments-calculator (the SMS segment counter)', id: /\/node_modules\/sms-segments-calculator\// },
  { what: 'grapheme-splitter (used by the SMS segment counter)', id: /\/node_modules\/grapheme-splitter\// },
  { what: 'libs/contracts/src/sms-segments.ts', id: /\/libs\/contracts\/src\/sms-segments\.ts$/ },
  { what: 'the admin console area (web/src/app/admin-area.tsx)', id: /\/web\/src\/app\/admin-area\.tsx$/ },
  { what: "an admin console feature's module (web/src/features/*-admin/)", id: /\/web\/src\/features\/[^/]+-admin\// },
  { what: "the moderation console's module (web/src/features/moderation/)", id: /\/web\/src\/features\/moderation\// },
  { what: 'the products console (AdminProductsPage, ProductForm)', id: /\/web\/src\/features\/store\/(AdminProductsPage|ProductForm)\.tsx$/ },
];

/**
 * Modules with no side effects when loaded, declared so because the bundler must otherwise assume some: the counter's
 * packages are CommonJS, and the module that imports them calls their CommonJS wrapper at its top (Rolldown, Vite 8's
 * bundler, keeps that call and so the module). Without it, they stay in the entry's chunk even when only a lazily
 * loaded page uses them (the SMS counter reaches the web app through @beacon/contracts, which the entry imports).
 */
export const SIDE_EFFECT_FREE = /\/node_modules\/(sms-segments-calculator|grapheme-splitter)\/|\/libs\/contracts\/src\/sms-segments\.ts$/;

/** What the check needs of a rollup output chunk. */
export interface ChunkFacts {
  fileName: string;
  isEntry: boolean;
  isDynamicEntry: boolean;
  facadeModuleId: string | null;
  imports: string[];
  moduleIds: string[];
}

const posix = (id: string) => id.replace(/\\/g, '/');
const ruleFor = (id: string) => CONSOLE_ONLY.find((r) => r.id.test(posix(id)));

/**
 * The console-only modules in the chunks a signed-out visitor or a user loads, one line each (empty: none), and the
 * rules that matched no module of the build at all (a renamed or removed module: the list must follow, or it checks
 * nothing). A console chunk is a lazily loaded one whose own module (its facade) is console-only.
 */
export function chunkBoundaryProblems(chunks: ChunkFacts[]): { leaks: string[]; stale: string[] } {
  const byName = new Map(chunks.map((c) => [c.fileName, c]));
  const roots = chunks.filter((c) => c.isEntry || (c.isDynamicEntry && !(c.facadeModuleId && ruleFor(c.facadeModuleId))));
  // the chunks each landing or user chunk loads statically (itself included), and who loads each one
  const loadedBy = new Map<string, Set<string>>();
  for (const root of roots) {
    const label = root.isEntry ? `${root.fileName} (the entry)` : `${root.fileName} (${posix(root.facadeModuleId ?? '').replace(/^.*\/web\//, 'web/')})`;
    const walk = (name: string) => {
      const by = loadedBy.get(name) ?? new Set<string>();
      if (!byName.has(name) || by.has(label)) return;
      loadedBy.set(name, by.add(label));
      byName.get(name)!.imports.forEach(walk);
    };
    walk(root.fileName);
  }
  const leaks: string[] = [];
  for (const [name, by] of loadedBy) {
    for (const rule of CONSOLE_ONLY) {
      // a CommonJS module comes with proxies (\0 prefix, ?commonjs-… suffix): each file counts once
      const ids = [...new Set(byName.get(name)!.moduleIds.map((id) => posix(id).replace(/^\0/, '').replace(/\?.*$/, '')))].filter((id) => rule.id.test(id));
      if (ids.length)
        leaks.push(
          `${rule.what}: ${ids.length} module(s), e.g. ${ids[0].replace(/^.*?\/(node_modules|web|libs)\//, '$1/')}, in ${name}, loaded by ${[...by].find((l) => l.endsWith('(the entry)')) ?? [...by].join(', ')}`,
        );
    }
  }
  const all = chunks.flatMap((c) => c.moduleIds.map(posix));
  const stale = CONSOLE_ONLY.filter((r) => !all.some((id) => r.id.test(id))).map((r) => `${r.what} (${r.id})`);
  return { leaks, stale };
}

/**
 * Fails the web build when a console-only module (CONSOLE_ONLY) lands in the landing page's or a user page's chunks,
 * so `npm run build` (the first stage of `npm test`, and the image build) stops there.
 */
export function chunkBoundaries(): Plugin {
  return {
    name: 'beacon-chunk-boundaries',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).flatMap((c) => (c.type === 'chunk' ? [c] : []));
      const { leaks, stale } = chunkBoundaryProblems(chunks);
      const problems = [
        ...(leaks.length
          ? [
              `admin console code in the landing or user chunks (load it only from the console: a lazy import, or a module only console code imports):`,
              ...leaks,
            ]
          : []),
        ...(stale.length ? ['console-only rules that match no module of the build (renamed or removed: update CONSOLE_ONLY):', ...stale] : []),
      ];
      if (problems.length) this.error(`chunk boundaries:\n${problems.join('\n')}`);
    },
  };
}

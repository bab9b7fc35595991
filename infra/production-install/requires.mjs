/**
 * Every `require()` a production entry point can reach, followed through the compiled tree and resolved the way Node
 * resolves it from the installed folder. A start-up catches what loads at start; this also catches what loads later
 * (a lazy `await import()`, which tsc compiles to a `require()` inside a function), before a user's request does.
 */
import { existsSync, readFileSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { join, relative } from 'node:path';

const BUILTIN = new Set(builtinModules);
const REQUIRE = /\brequire\(\s*(['"])([^'"\n]+)\1\s*\)/g;

const isBuiltin = (specifier) => specifier.startsWith('node:') || BUILTIN.has(specifier.split('/')[0]) || BUILTIN.has(specifier);

/** The package a bare specifier names: `@scope/name` or `name`. */
export const packageOf = (specifier) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

/**
 * The requires that do not resolve in `installDir` (its node_modules and the files copied into it), starting from
 * `entries` (paths relative to installDir). Returns `{ missing: [{ file, specifier }], files }`: `files` is how many
 * compiled files the entries reach.
 */
export function unresolvedRequires(installDir, entries) {
  const seen = new Set();
  const missing = [];
  const queue = [];
  for (const entry of entries) {
    const file = join(installDir, entry);
    if (!existsSync(file)) missing.push({ file: entry, specifier: '(the entry point itself)' });
    else queue.push(file);
  }
  while (queue.length) {
    const file = queue.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    if (!file.endsWith('.js') && !file.endsWith('.cjs')) continue;
    const resolveFrom = createRequire(file);
    for (const m of readFileSync(file, 'utf8').matchAll(REQUIRE)) {
      const specifier = m[2];
      if (isBuiltin(specifier)) continue;
      let resolved;
      try {
        resolved = resolveFrom.resolve(specifier);
      } catch {
        missing.push({ file: relative(installDir, file), specifier });
        continue;
      }
      // only our own compiled files are followed: a package's internals are its own business
      if (!specifier.startsWith('.') && !specifier.startsWith('/')) continue;
      if (!relative(installDir, resolved).split('/').includes('node_modules')) queue.push(resolved);
    }
  }
  return { missing, files: seen.size };
}

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { preProcessFile } from 'typescript';

const SRC = join(__dirname, '..', 'services', 'alerts', 'src');
const SPEC = /\.(integration-)?spec\.ts$/;
/** The files at the top of the tree (main.ts, the modules) compose the folders; they form a node of their own. */
const TOP = '(top level)';

/** The top-level folder of `services/alerts/src` that a path inside it belongs to. */
function folderOf(path: string): string {
  const parts = relative(SRC, path).split(sep);
  return parts.length > 1 ? parts[0] : TOP;
}

/** Every non-spec source file's relative imports (type-only ones and re-exports too), as folder -> folders it imports. */
function folderImports(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts') && !SPEC.test(f));
  for (const file of files) {
    const path = join(SRC, file);
    const from = folderOf(path);
    for (const { fileName } of preProcessFile(readFileSync(path, 'utf8'), true, true).importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const to = folderOf(resolve(dirname(path), fileName));
      if (to !== from) graph.set(from, (graph.get(from) ?? new Set()).add(to));
    }
  }
  return graph;
}

/** The folder pairs that import each other, each once: 'alerts <-> settings'. */
function mutualPairs(graph: Map<string, Set<string>>): string[] {
  const pairs: string[] = [];
  for (const [a, targets] of graph) for (const b of targets) if (a < b && graph.get(b)?.has(a)) pairs.push(`${a} <-> ${b}`);
  return pairs.sort();
}

describe('services/alerts/src: import graph of its folders', () => {
  const graph = folderImports();

  it('reads the imports it judges (deliveries/ is the floor both entry points stand on)', () => {
    expect([...(graph.get('alerts') ?? [])]).toContain('deliveries');
    expect([...(graph.get('dispatch') ?? [])]).toContain('deliveries');
    expect([...(graph.get('channels') ?? [])]).toContain('deliveries');
    expect([...(graph.get(TOP) ?? [])]).toContain('alerts');
  });

  it('has no two folders importing each other', () => {
    expect(mutualPairs(graph)).toEqual([]);
  });
});

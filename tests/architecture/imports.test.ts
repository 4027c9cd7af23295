/**
 * The import graph of src/ (docs/architecture.md, "Folders and their arrows"): no
 * cycle between files, and every import between folders points down the layers
 * drawn there (two folders of one layer do not import each other either).
 * Relative imports only (packages are not ours); `import type` counts too, since
 * a type-only cycle still ties two files' meanings together.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(import.meta.dirname, '../../src');

/** Lower layers first; a file may import its own folder and any folder of a lower layer. */
const LAYERS: readonly (readonly string[])[] = [
  ['schemas'],
  ['(root)'], // src/env.ts: the settings schema
  ['text', 'vectors'],
  ['web'],
  ['language'],
  ['snapshot', 'generate', 'keys'],
  ['query'],
  ['search'],
  ['server'],
  ['site'],
  ['styles'],
  ['ops', 'cli', 'components', 'layouts'],
  ['pages'],
];

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|astro|mjs)$/.test(entry.name) ? [full] : [];
  });
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\b[^'"]*?\bfrom\s*['"](\.{1,2}\/[^'"]+)['"]|\bimport\s*\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)|(?:^|\n)\s*import\s*['"](\.{1,2}\/[^'"]+)['"]/g;

function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    const text = fs.readFileSync(file, 'utf8');
    const targets = [...text.matchAll(IMPORT)].map((m) => path.resolve(path.dirname(file), (m[1] ?? m[2] ?? m[3])!));
    graph.set(file, targets.filter((t) => t.startsWith(SRC + path.sep)));
  }
  return graph;
}

const folderOf = (file: string) => {
  const parts = path.relative(SRC, file).split(path.sep);
  return parts.length > 1 ? parts[0]! : '(root)';
};
const layerOf = (folder: string) => LAYERS.findIndex((layer) => layer.includes(folder));

/** Strongly connected components with more than one file (Tarjan). */
function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(path.relative(SRC, w));
    } while (w !== v);
    if (component.length > 1) found.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

describe('src import graph', () => {
  const graph = importGraph();

  it('names every folder of src in a layer', () => {
    const folders = new Set([...graph.keys()].map(folderOf));
    expect([...folders].filter((f) => layerOf(f) === -1)).toEqual([]);
  });

  it('has no import cycle', () => {
    expect(cycles(graph)).toEqual([]);
  });

  it('imports between folders point down the layers', () => {
    const upward: string[] = [];
    for (const [file, targets] of graph) {
      for (const target of targets) {
        const from = folderOf(file);
        const to = folderOf(target);
        if (from !== to && layerOf(to) >= layerOf(from)) upward.push(`${path.relative(SRC, file)} -> ${path.relative(SRC, target)}`);
      }
    }
    expect(upward).toEqual([]);
  });

  it('finds a cycle when there is one (the check can fail)', () => {
    const a = path.join(SRC, 'search/a.ts');
    const b = path.join(SRC, 'search/b.ts');
    const c = path.join(SRC, 'search/c.ts');
    expect(cycles(new Map([[a, [b]], [b, [c]], [c, [a]]]))).toEqual([['search/a.ts', 'search/b.ts', 'search/c.ts']]);
    expect(cycles(new Map([[a, [b]], [b, [c]], [c, []]]))).toEqual([]);
  });
});

/**
 * Comments name files that exist: every `.ts` file a comment under src/ names
 * (a path from the repository's root, from the commenting file's folder or one of
 * its parents, a bare file name found anywhere in the repository, or a pattern
 * with `*` that matches one) must be there. A renamed or removed module leaves no
 * comment pointing at it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SKIPPED = new Set(['node_modules', 'dist', '.git', '.astro', 'cache']);

function filesUnder(dir: string, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (SKIPPED.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) filesUnder(full, out);
    else out.push(path.relative(ROOT, full));
  }
  return out;
}

const repoFiles = filesUnder(ROOT);
const baseNames = new Set(repoFiles.map((f) => path.basename(f)));

/** The comments of a source file: block comments and line comments (a `//` inside a URL or a string is close enough: its names are checked the same). */
const commentsOf = (text: string): string[] => [...text.matchAll(/\/\*[\s\S]*?\*\/|(?<![:'"`\w])\/\/[^\n]*/g)].map((m) => m[0]);

/** File names a comment mentions: words ending in `.ts`, with folders, `[params]` and `*` patterns. */
const namesIn = (comment: string): string[] => [...comment.matchAll(/(?<![\w.-])[\w./[\]*-]*[\w\]*-]\.ts\b/g)].map((m) => m[0].replace(/^\.\//, ''));

const asPattern = (name: string) => new RegExp(`(^|/)${name.replace(/[.[\]]/g, '\\$&').replace(/\*/g, '[^/]*')}$`);

/** Whether `name`, mentioned in `file`, is a file of the repository. */
function resolves(file: string, name: string): boolean {
  if (name.includes('*')) return repoFiles.some((f) => asPattern(name).test(f));
  if (!name.includes('/')) return baseNames.has(name);
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(ROOT, dir, name))) return true;
    if (dir === '.' || dir === '') return false;
  }
}

describe('comments under src/', () => {
  const sources = repoFiles.filter((f) => f.startsWith(`src${path.sep}`) && /\.(ts|astro|mjs)$/.test(f));

  it('reads the source files and finds the names their comments mention', () => {
    expect(sources.length).toBeGreaterThan(100);
    expect(namesIn('see src/search/search.ts, keyword-*.ts and src/pages/sitemap-[part].xml.ts')).toEqual([
      'src/search/search.ts',
      'keyword-*.ts',
      'src/pages/sitemap-[part].xml.ts',
    ]);
    expect(resolves('src/search/search.ts', 'src/search/search-text.ts')).toBe(false);
    expect(resolves('src/server/rest/route.ts', 'auth/key-routes.ts')).toBe(true);
  });

  it('name only .ts files that exist', () => {
    const missing = sources.flatMap((file) =>
      commentsOf(fs.readFileSync(path.join(ROOT, file), 'utf8'))
        .flatMap(namesIn)
        .filter((name) => !resolves(file, name))
        .map((name) => `${file}: ${name}`),
    );
    expect(missing).toEqual([]);
  });
});

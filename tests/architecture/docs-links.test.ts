/**
 * The docs' relative links resolve: every link in README.md, docs/*.md and the
 * benchmark results pages names a file that exists, and a link with an anchor names a
 * heading of that file (GitHub's heading ids: lower case, punctuation dropped, spaces
 * as hyphens, a repeated heading suffixed -1, -2, ...). External links and links
 * inside code are not checked. Every npm script is named in the README's command table.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

const pages = [
  'README.md',
  'bench/results/README.md',
  'bench/results/history.md',
  ...fs.readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`),
].filter((page) => fs.existsSync(path.join(ROOT, page)));

/** The text outside fenced code blocks and inline code spans. */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
}

/** The id GitHub gives each heading of a page, in order. */
function headingIds(markdown: string): string[] {
  const seen = new Map<string, number>();
  const ids: string[] = [];
  for (const [, text] of markdown.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = text!
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    ids.push(n === 0 ? base : `${base}-${n}`);
  }
  return ids;
}

/** Relative link targets of a page: `[text](target)`, without the title. */
function relativeLinks(markdown: string): string[] {
  return [...prose(markdown).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
    .map((m) => m[1]!)
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

describe('heading ids', () => {
  it('follow GitHub: punctuation dropped, spaces as hyphens, repeats numbered', () => {
    expect(headingIds('# Search (src/search)\n## The start variables (`A_B`, `C`)\n## Notes\n## Notes\n')).toEqual([
      'search-srcsearch',
      'the-start-variables-a_b-c',
      'notes',
      'notes-1',
    ]);
  });
});

describe('relative links in the docs resolve', () => {
  it('finds the pages', () => {
    expect(pages).toContain('README.md');
    expect(pages.length).toBeGreaterThanOrEqual(8);
  });
  for (const page of pages) {
    it(page, () => {
      const text = fs.readFileSync(path.join(ROOT, page), 'utf8');
      const broken: string[] = [];
      for (const target of relativeLinks(text)) {
        const [file, anchor] = target.split('#') as [string, string | undefined];
        const resolved = file === '' ? path.join(ROOT, page) : path.resolve(path.dirname(path.join(ROOT, page)), decodeURI(file));
        if (!fs.existsSync(resolved)) {
          broken.push(`${target}: no such file`);
          continue;
        }
        if (anchor !== undefined && resolved.endsWith('.md') && !headingIds(fs.readFileSync(resolved, 'utf8')).includes(anchor)) {
          broken.push(`${target}: no such heading`);
        }
      }
      expect(broken).toEqual([]);
    });
  }
});

describe('the README names every npm script', () => {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const scripts = Object.keys((JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts);
  for (const name of scripts) {
    it(name, () => {
      const command = name === 'start' || name === 'test' ? `npm ${name}` : `npm run ${name}`;
      expect(readme).toMatch(new RegExp(`^\\| \`${command.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[ \`]`, 'm'));
    });
  }
});

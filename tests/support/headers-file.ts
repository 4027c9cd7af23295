/**
 * What a CDN serving dist/client sends for a path, read from its `_headers` file
 * the way Cloudflare Pages applies it (its asset server's `attachCustomHeaders`):
 * every rule whose pattern matches the path, in file order; a rule first deletes the
 * headers it detaches (`! Name`), then sets its own, appending (", ") to a header an
 * earlier rule set. In a pattern `*` matches any characters, `/` included, and
 * `:name` one path segment.
 */
interface Rule {
  pattern: RegExp;
  set: [string, string][];
  unset: string[];
}

export function parseHeadersFile(text: string): Rule[] {
  const rules: Rule[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    if (!/^\s/.test(line)) {
      rules.push({ pattern: patternOf(line.trim()), set: [], unset: [] });
      continue;
    }
    const rule = rules.at(-1);
    if (!rule) throw new Error(`a header line before any path: ${line}`);
    const entry = line.trim();
    if (entry.startsWith('!')) {
      rule.unset.push(entry.slice(1).trim());
      continue;
    }
    const colon = entry.indexOf(':');
    if (colon < 1) throw new Error(`not a header line: ${line}`);
    rule.set.push([entry.slice(0, colon).trim(), entry.slice(colon + 1).trim()]);
  }
  return rules;
}

function patternOf(path: string): RegExp {
  const source = path
    .split(/(\*|:[A-Za-z]\w*)/)
    .map((part) => (part === '*' ? '.*' : part.startsWith(':') && part.length > 1 ? '[^/]+' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`);
}

/** The headers the rules give a path (names lowercase), over what the host itself sent. */
export function headersFromFile(rules: Rule[], pathname: string, hostHeaders: Record<string, string> = {}): Record<string, string> {
  const headers = new Map(Object.entries(hostHeaders).map(([k, v]) => [k.toLowerCase(), v]));
  const setByRules = new Set<string>();
  for (const rule of rules) {
    if (!rule.pattern.test(pathname)) continue;
    for (const name of rule.unset) headers.delete(name.toLowerCase());
    for (const [name, value] of rule.set) {
      const key = name.toLowerCase();
      const before = headers.get(key);
      headers.set(key, setByRules.has(key) && before !== undefined ? `${before}, ${value}` : value);
      setByRules.add(key);
    }
  }
  return Object.fromEntries(headers);
}

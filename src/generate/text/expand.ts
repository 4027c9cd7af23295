/**
 * A tiny template language for generated prose: `{a|b|c}` picks one alternative,
 * `$name` asks the context for a value (each call may give a different one, e.g. the
 * next synonym). Alternatives are not nested; they may contain variables.
 */
import type { Random } from '../random.ts';

export type Vars = Readonly<Record<string, () => string>>;

const ALTERNATIVES = /\{([^{}]*)\}/g;
const VARIABLE = /\$([a-zA-Z][a-zA-Z0-9]*)/g;

export function expand(template: string, rng: Random, vars: Vars): string {
  const chosen = template.replace(ALTERNATIVES, (_, body: string) => rng.pick(body.split('|')));
  const filled = chosen.replace(VARIABLE, (_, name: string) => {
    const value = vars[name];
    if (!value) throw new Error(`template variable $${name} has no value: ${template}`);
    return value();
  });
  const tidy = filled.replace(/\s+/g, ' ').replace(/\s+([,.])/g, '$1').trim();
  return tidy.charAt(0).toUpperCase() + tidy.slice(1);
}

/** "a, b dan c" / "a, b and c" */
export function joinList(items: readonly string[], conjunction: string): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} ${conjunction} ${items[items.length - 1]}`;
}

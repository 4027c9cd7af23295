/**
 * A tiny template language for generated prose: `{a|b|c}` picks one alternative,
 * `$name` asks the context for a value (each call may give a different one, e.g. the
 * next synonym). Alternatives are not nested; they may contain variables. Templates
 * are parsed once, when their pools load (`compilePools`): a million descriptions
 * expand many millions of them.
 */
import type { Random } from '../random.ts';

/** Gives the value of a template variable; called once per occurrence. */
export type Vars = (name: string) => string;

type Piece = string | { variable: string };
type Part = Piece | { options: Piece[][] };
/** A parsed template. */
export type Template = readonly Part[];

function pieces(text: string): Piece[] {
  const out: Piece[] = [];
  const pattern = /\$([a-zA-Z][a-zA-Z0-9]*)/g;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > last) out.push(text.slice(last, match.index));
    out.push({ variable: match[1] as string });
    last = match.index + match[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

export function compileTemplate(template: string): Template {
  const parts: Part[] = [];
  const pattern = /\{([^{}]*)\}/g;
  let last = 0;
  for (const match of template.matchAll(pattern)) {
    if (match.index > last) parts.push(...pieces(template.slice(last, match.index)));
    parts.push({ options: (match[1] as string).split('|').map(pieces) });
    last = match.index + match[0].length;
  }
  if (last < template.length) parts.push(...pieces(template.slice(last)));
  return parts;
}

function render(piece: Piece, vars: Vars): string {
  return typeof piece === 'string' ? piece : vars(piece.variable);
}

/** Every pool of templates parsed: the same keys, each list in the same order. */
export function compilePools<K extends string>(pools: Readonly<Record<K, readonly string[]>>): Record<K, Template[]> {
  return Object.fromEntries(Object.entries<readonly string[]>(pools).map(([key, list]) => [key, list.map(compileTemplate)])) as Record<K, Template[]>;
}

export function expand(template: Template, rng: Random, vars: Vars): string {
  let text = '';
  for (const part of template) {
    if (typeof part === 'object' && 'options' in part) {
      for (const piece of rng.pick(part.options)) text += render(piece, vars);
    } else {
      text += render(part, vars);
    }
  }
  // an empty alternative leaves a double space or a space before punctuation
  const tidy = text.replace(/ {2,}/g, ' ').replace(/ ([,.])/g, '$1').trim();
  return tidy.charAt(0).toUpperCase() + tidy.slice(1);
}

/** "a, b dan c" / "a, b and c" */
export function joinList(items: readonly string[], conjunction: string): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} ${conjunction} ${items[items.length - 1]}`;
}

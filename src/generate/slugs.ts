/**
 * Provider slugs: the company name without its legal form, lowercased, diacritics
 * removed. A repeated name gets "-2", "-3", ...; names never end in a digit, so a
 * suffixed slug cannot collide with a plain one and one counter per base suffices.
 */
export function slugify(companyName: string): string {
  return companyName
    .replace(/^(PT|CV)\s+/, '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

export class SlugRegistry {
  private readonly seen = new Map<string, number>();

  take(companyName: string): string {
    const base = slugify(companyName) || 'provider';
    const count = (this.seen.get(base) ?? 0) + 1;
    this.seen.set(base, count);
    return count === 1 ? base : `${base}-${count}`;
  }
}

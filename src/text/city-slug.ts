/**
 * Place names: the one citySlug normalization (docs/interface.md), shared by the
 * snapshot builder (providers.city_slug), the discovery API and the static landing
 * pages (lowercase, diacritics removed, runs of anything but a-z0-9 become "-"),
 * and the one rule that picks the name shown for a place the data spells several
 * ways (the builder's providers.city_name and province_name).
 */
export function citySlug(city: string): string {
  return city
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** Mixed case ("Denpasar", "DKI Jakarta"): not typed with caps lock on or off. */
export const isWellCased = (name: string): boolean => name !== name.toUpperCase() && name !== name.toLowerCase();

/** "DENPASAR" -> "Denpasar", "tangerang selatan" -> "Tangerang Selatan": each word's first letter capital. */
export const titleCase = (name: string): string =>
  name.toLowerCase().replace(/(^|[^\p{L}\p{N}'’])(\p{L})/gu, (_, before: string, letter: string) => before + letter.toUpperCase());

const byCountThenCodePoint = (a: [string, number], b: [string, number]) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

/**
 * The name shown for the spellings (with their counts) of one place, i.e. of one
 * citySlug: the most common well-cased spelling (ties: the first in code-point
 * order); when none is well-cased ("DENPASAR", "denpasar"), the most common one in
 * title case. So the most common spelling names the place, unless it is all
 * capitals or all lower case and a well-cased one exists.
 */
export function placeName(spellings: ReadonlyMap<string, number>): string {
  const ranked = [...spellings].sort(byCountThenCodePoint);
  const wellCased = ranked.find(([name]) => isWellCased(name));
  if (wellCased) return wellCased[0];
  const first = ranked[0];
  if (!first) throw new Error('placeName needs at least one spelling');
  return titleCase(first[0]);
}

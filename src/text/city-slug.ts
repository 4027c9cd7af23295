/**
 * The one citySlug normalization (docs/interface.md), shared by the snapshot
 * builder (providers.city_slug), the discovery API and the static landing pages:
 * lowercase, diacritics removed, runs of anything but a-z0-9 become "-".
 */
export function citySlug(city: string): string {
  return city
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** When several spellings share a slug, the most common one names the city (ties: the first in code-point order). */
export function mostCommonSpelling(spellings: Map<string, number>): string {
  return [...spellings].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))[0]![0];
}

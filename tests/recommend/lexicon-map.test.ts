/** The built-in service lexicon on a dataset with its own category slugs (src/query/nl-query-lexicon-map.ts). */
import { describe, expect, it } from 'vitest';
import { lexiconCategories } from '../../src/query/nl-query-lexicon-map.ts';
import { parseRequest, queryParser } from '../../src/query/nl-query.ts';

const slugs = ['mobile-app-development', 'ios-app', 'android-app', 'cloud-devops', 'devops-sre', 'company-profile-website', 'web-app', 'web-application'];

describe('lexiconCategories', () => {
  const map = lexiconCategories(slugs);
  it('keeps exact slugs and maps a key to the one slug holding its words', () => {
    expect(map.get('mobile-app-development')).toBe('mobile-app-development');
    expect(map.get('ios')).toBe('ios-app');
    expect(map.get('android')).toBe('android-app');
    expect(map.get('company-profile-websites')).toBe('company-profile-website'); // compared by stem
  });
  it('never takes a slug another key has exactly, and skips an ambiguous key', () => {
    expect(map.get('devops')).toBe('devops-sre'); // "cloud-devops" belongs to the key of that name
    expect(map.has('seo')).toBe(false);
  });
  it('lets the parser read lexicon phrases for those categories', () => {
    const vocab = { cities: [], provinces: [], categories: slugs.map((slug) => ({ slug, name: slug.replace(/-/g, ' '), parentSlug: null })) };
    expect(parseRequest('bikin aplikasi iphone', queryParser(vocab)).services.map((s) => s.slug)).toEqual(['ios-app']);
    expect(parseRequest('kubernetes consultants', queryParser(vocab)).services.map((s) => s.slug)).toEqual(['devops-sre']);
  });
});

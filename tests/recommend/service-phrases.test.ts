/**
 * Which lexicon phrases name which of a snapshot's services (src/query/service-phrases.ts),
 * and how the request's reader uses that (src/query/nl-query.ts): a phrase two services
 * share names neither unless the request's other words favour one; a phrase holding
 * half of one child's name names the child. The category tree is written here, with
 * the names' translations a snapshot's bridge would give (VocabularyCategory.forms).
 */
import { describe, expect, it } from 'vitest';
import { parseRequest, queryParser, type Vocabulary, type VocabularyCategory } from '../../src/query/nl-query.ts';
import { nameWords, servicePhrases } from '../../src/query/service-phrases.ts';

const category = (slug: string, name: string, parentSlug: string | null, translated: string[] = []): VocabularyCategory => {
  const c = { slug, name, parentSlug };
  return { ...c, forms: [...nameWords(c), ...translated] };
};
const categories = [
  category('digital-marketing', 'Digital Marketing', null),
  category('social-media-ads', 'Iklan Media Sosial', 'digital-marketing', ['social', 'advertising']),
  category('social-media-management', 'Social Media Management', 'digital-marketing', ['sosial']),
  category('video-photo-production', 'Produksi Video & Foto', null, ['production', 'photo']),
  category('corporate-video', 'Video Korporat & Company Profile', 'video-photo-production'),
  category('web-development', 'Pengembangan Web', null),
  category('company-profile-website', 'Website Company Profile', 'web-development'),
];
const vocab: Vocabulary = { cities: ['Medan', 'Jakarta Selatan'], provinces: ['Sumatera Utara', 'DKI Jakarta'], categories };
const parser = queryParser(vocab);
const services = (q: string, favoured?: (words: readonly string[], slugs: readonly string[]) => string | null) =>
  parseRequest(q, parser, favoured ? { favoured } : {}).services.map((s) => s.slug);

describe('servicePhrases', () => {
  const phrases = servicePhrases(categories);

  it('leaves out a phrase two services outside one family line share, keeping who shares it', () => {
    expect(phrases.shared.get('media sosial')).toEqual(['social-media-ads', 'social-media-management']);
    expect(phrases.shared.get('company profile')).toEqual(['company-profile-website', 'corporate-video']);
    expect(phrases.lexicon.get('social-media-ads')).not.toContain('media sosial');
    expect(phrases.lexicon.get('social-media-ads')).toContain('iklan');
  });

  it('moves a phrase holding half of one child\'s name to that child', () => {
    expect(phrases.lexicon.get('corporate-video')).toContain('video company profile');
    expect(phrases.lexicon.get('video-photo-production')).not.toContain('video company profile');
    // one word is too little: "website" stays with web development
    expect(phrases.lexicon.get('web-development')).toContain('website');
  });
});

describe('the request reader with shared phrases', () => {
  it('reads a shared phrase as nothing, unless the other words favour one of its services', () => {
    expect(services('kelola media sosial')).toEqual([]);
    const favoured = (words: readonly string[], slugs: readonly string[]) => (words.includes('kelola') ? slugs.find((s) => s.endsWith('management'))! : null);
    expect(services('kelola media sosial', favoured)).toEqual(['social-media-management']);
    expect(services('media sosial', favoured)).toEqual([]);
    // managing is not advertising: the lexicon's management phrases are not the advertising service's
    expect(servicePhrases(categories).lexicon.get('social-media-ads')).not.toContain('kelola sosmed');
    expect(services('social media management')).toEqual(['social-media-management']);
    expect(services('pasang iklan facebook')).toEqual(['social-media-ads']);
  });

  it('reads the more specific child a phrase names', () => {
    expect(services('video company profile')).toEqual(['corporate-video']);
  });
});

describe('the place a request names', () => {
  const read = (q: string) => parseRequest(q, parser);

  it('reads an everyday-word city when it ends the request, or follows a place word', () => {
    expect(read('kelola media sosial Medan').place).toMatchObject({ kind: 'city', city: 'Medan' });
    expect(read('jasa foto dekat Medan').place).toMatchObject({ kind: 'city', city: 'Medan' });
    expect(read('medan magnet website').place).toBeNull();
  });

  it('ranks the request without its place; the last word is typed halfway only when it ends the request', () => {
    expect(read('jasa pembuatan website Jakarta Selatan').ranked).toEqual({ text: 'jasa pembuatan website', tokens: ['jasa', 'pembuatan', 'website'], endsInWord: false });
    expect(read('di Medan jasa web').ranked).toEqual({ text: 'jasa web', tokens: ['jasa', 'web'], endsInWord: true });
    expect(read('website').ranked).toEqual({ text: 'website', tokens: ['website'], endsInWord: true });
    // nothing else left: the request as sent
    expect(read('Medan').ranked.text).toBe('Medan');
  });
});

/**
 * Writes a provider's tagline and description from the sentence pools: the intro
 * first, then a random number of other slots in a random order, sometimes a closing
 * line. Synonyms of the primary service are drawn per provider, so two providers of
 * the same service rarely say it the same way; the ones used are returned as the
 * ground truth for search evaluation.
 */
import type { Concept } from '../concepts.ts';
import type { Random } from '../random.ts';
import { EN_POOLS } from './sentences-en.ts';
import { ID_POOLS } from './sentences-id.ts';
import { compilePools, expand, joinList, type Vars } from './expand.ts';

export type DescriptionLanguage = 'id' | 'en' | 'id+en';

export interface ProfileFacts {
  name: string;
  /** the city as written in the profile, or null */
  city: string | null;
  country: string;
  primary: Concept;
  secondary: readonly Concept[];
  tags: readonly string[];
  /** industryFocus values (English labels); localized here */
  industries: readonly string[];
  since: number;
  team: number;
}

export interface WrittenProfile {
  tagline: string;
  description: string;
  /** primary-service synonyms that occur in the tagline or description */
  conceptKeywords: string[];
}

// Parsed once at load: constant tables, never changed after.
const POOLS = { id: compilePools(ID_POOLS), en: compilePools(EN_POOLS) };

const MIDDLE_SLOTS = ['services', 'secondary', 'tech', 'clients', 'experience', 'process', 'guarantee', 'location', 'example', 'values'] as const;

const INDUSTRY_ID: Readonly<Record<string, string>> = {
  Retail: 'ritel', 'F&B': 'F&B dan kuliner', Fintech: 'fintech', Healthcare: 'kesehatan', Education: 'pendidikan',
  Government: 'pemerintahan', Manufacturing: 'manufaktur', Property: 'properti', Tourism: 'pariwisata',
  Logistics: 'logistik', Banking: 'perbankan', Automotive: 'otomotif', Hospitality: 'perhotelan', Energy: 'energi',
  Media: 'media', Agriculture: 'agrikultur', 'Non-profit': 'organisasi nirlaba', Telecommunications: 'telekomunikasi',
};

export function writeProfile(rng: Random, facts: ProfileFacts, language: DescriptionLanguage): WrittenProfile {
  const used = new Set<string>();
  const parts: string[] = [];
  const languages: Array<'id' | 'en'> = language === 'id+en' ? ['id', 'en'] : [language];
  let tagline = '';
  for (const lang of languages) {
    const vars = makeVars(rng, facts, lang, used);
    if (!tagline) tagline = expand(rng.pick(POOLS[lang].tagline), rng, vars);
    parts.push(paragraph(rng, facts, lang, vars, language === 'id+en'));
  }
  return { tagline, description: parts.join('\n\n'), conceptKeywords: [...used] };
}

function paragraph(rng: Random, facts: ProfileFacts, lang: 'id' | 'en', vars: Vars, short: boolean): string {
  const pools = POOLS[lang];
  const available = MIDDLE_SLOTS.filter((slot) => slot !== 'secondary' || facts.secondary.length > 0);
  const middleCount = short ? rng.int(1, 3) : rng.weighted([[2, 2], [3, 4], [4, 4], [5, 3], [6, 2]] as const);
  const slots = rng.sample(available, middleCount);
  const sentences = [expand(rng.pick(pools.intro), rng, vars)];
  for (const slot of slots) sentences.push(expand(rng.pick(pools[slot]), rng, vars));
  if (rng.chance(0.5)) sentences.push(expand(rng.pick(pools.closing), rng, vars));
  return sentences.join(' ');
}

function makeVars(rng: Random, facts: ProfileFacts, lang: 'id' | 'en', used: Set<string>): Vars {
  const and = lang === 'id' ? 'dan' : 'and';
  const primaryTerms = rng.sample(lang === 'id' ? facts.primary.termsId : facts.primary.termsEn, rng.int(2, 3));
  const features = lang === 'id' ? facts.primary.featuresId : facts.primary.featuresEn;
  const industryLabel = (value: string) => (lang === 'id' ? (INDUSTRY_ID[value] ?? value.toLowerCase()) : value);
  let termIndex = 0;
  const place = facts.city ?? (facts.country === 'ID' ? 'Indonesia' : lang === 'id' ? 'luar negeri' : 'the region');
  // one closure with a switch rather than an object of closures: it is built per paragraph, a million times
  return (name) => {
    switch (name) {
      case 'name':
        return facts.name;
      case 'city':
        return place;
      case 'term': {
        const term = primaryTerms[termIndex++ % primaryTerms.length] as string;
        used.add(term);
        return term;
      }
      case 'term2': {
        const concept = rng.pick(facts.secondary);
        return rng.pick(lang === 'id' ? concept.termsId : concept.termsEn);
      }
      case 'features':
        return joinList(rng.sample(features, rng.int(2, 3)), and);
      case 'feature':
        return rng.pick(features);
      case 'tags':
        return joinList(rng.sample(facts.tags, rng.int(Math.min(2, facts.tags.length), Math.min(4, facts.tags.length))), and);
      case 'industries':
        return joinList(rng.sample(facts.industries, rng.int(1, 3)).map(industryLabel), and);
      case 'industry':
        return industryLabel(rng.pick(facts.industries));
      case 'since':
        return String(facts.since);
      case 'yearsCount':
        return String(Math.max(2, 2026 - facts.since));
      case 'projects':
        return String(rng.int(2, 60) * 5);
      case 'clients':
        return String(rng.int(3, 40) * 5);
      case 'team':
        return String(facts.team);
      case 'months':
        return String(rng.pick(WARRANTY_MONTHS));
      case 'days':
        return String(rng.int(2, 7));
      case 'weeks':
        return String(rng.int(4, 16));
      default:
        throw new Error(`template variable $${name} has no value`);
    }
  };
}

const WARRANTY_MONTHS = [1, 2, 3, 3, 6, 6, 12];

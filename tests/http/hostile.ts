/** Deterministic hostile query strings: FTS5 syntax, SQL, quotes, emoji, huge and broken input. */

const FRAGMENTS = [
  'AND', 'OR', 'NOT', 'NEAR(', 'NEAR/3', 'NEAR(a b, 2)', '*', '^', '"', "'", '(', ')', '((', '))', '{', '}', ':', '-', '+',
  'company_name:', '{company_name tagline}:', 'fts_providers', "'; DROP TABLE providers;--", '1 OR 1=1', 'UNION SELECT * FROM provider_dashboard',
  '%', '\\', '\u0000', '\u200b', '\u202e', '\ud83d\ude00', '\ud83d', '👨‍👩‍👧‍👦', 'ﬁ', 'é', 'Ｔｏｋｏ', 'ملف', '<script>', '&amp;', '\n', '\t',
  'toko', 'online', 'website', 'jasa', 'aplikasi', 'zyxwvut', 'secretunpublishedword', 'a', 'x', '  ',
];
const RAW_ESCAPES = ['%', '%zz', '%E0%A4%A', '%00', '%ff%fe', '%C0%AF', '%2', '%%%', '%u0041', '%ED%A0%BD'];

export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface HostileValue {
  /** the text, to be percent-encoded into the URL */
  text: string;
  /** a raw (possibly broken) percent-escape appended unencoded */
  raw: string;
}

export function hostileValues(count: number, seed: number): HostileValue[] {
  const rand = mulberry32(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
  const out: HostileValue[] = [];
  for (let i = 0; i < count; i++) {
    const kind = i % 10;
    let text: string;
    if (kind === 0) text = pick(FRAGMENTS).repeat(1 + Math.floor(rand() * 4000)).slice(0, 10_240); // up to 10 KB
    else if (kind === 1) text = String.fromCodePoint(...Array.from({ length: 1 + Math.floor(rand() * 12) }, () => Math.floor(rand() * 0x10ffff) % 0xd800));
    else text = Array.from({ length: 1 + Math.floor(rand() * 8) }, () => pick(FRAGMENTS)).join(rand() < 0.5 ? ' ' : '');
    out.push({ text, raw: kind === 3 || kind === 7 ? pick(RAW_ESCAPES) : '' });
  }
  return out;
}

// A lone surrogate cannot be percent-encoded as UTF-8; its broken byte form is in RAW_ESCAPES.
export const encodeHostile = (v: HostileValue) => encodeURIComponent(v.text.toWellFormed()) + v.raw;

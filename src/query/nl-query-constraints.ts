/**
 * Quality constraints written in a request, Indonesian or English:
 *   trust:  "trust level 4+", "minimal level 3", "at least trust level 3", "trust 4 ke atas",
 *           "terverifikasi" / "verified" (level 3, the site's "Terverifikasi" label),
 *           "sangat terpercaya" / "highly trusted" (level 4);
 *   rating: "rating minimal 4", "rating 4.5+", "rated at least 4", "bintang 4 ke atas",
 *           "4 stars and up", "at least 4 stars", "rating di atas 4".
 * Each is a floor; the matched words are blanked out so the rest of the parser
 * (budget, place, services) never reads "level 4" as anything else.
 */

export interface Constraints {
  /** minimum trust level 0-5, or null when none was stated */
  minTrustLevel: number | null;
  /** minimum overall rating 0-5, or null when none was stated */
  minRating: number | null;
  /** the text each was read from ("trust level 4+"), for meta.understood */
  read: string[];
  /** the request with the matched words blanked out */
  rest: string;
  /** where the matched words were ([start, end) offsets into the request) */
  ranges: [number, number][];
}

// "minimal" and friends, before or after the number.
const AT_LEAST = String.raw`(?:min(?:imal|imum)?\.?|paling\s+(?:tidak|sedikit|rendah)|sekurang(?:-|\s)?kurangnya|setidaknya|at\s+least|no\s+less\s+than|di\s+atas|lebih\s+dari|above|over|from|dari|>=?|≥)`;
const OR_MORE = String.raw`(?:\+|\s*(?:ke\s+atas|keatas|atau\s+lebih|or\s+(?:more|higher|above|better)|and\s+(?:up|above|higher)|up|plus))`;
const NUMBER = String.raw`(\d(?:[.,]\d{1,2})?)`;

// Bare "level" is a trust level only with "minimal"/"at least" before it or "+"/"ke atas" after it
// ("IT support level 2" is not a trust level); so is a bare star count ("a 5 star hotel").
const TRUST_WORD = String.raw`(?:trust(?:\s+level)?|tingkat\s+kepercayaan|level\s+kepercayaan|level\s+trust|trust\s+score|kepercayaan)`;
const RATING_WORD = String.raw`(?:rating|rated|ratingnya|nilai|skor|score)`;
const STARS = String.raw`(?:stars?|bintang)`;

interface Rule {
  kind: 'trust' | 'rating';
  pattern: RegExp;
  /** value from the match (the captured number when null) */
  value?: number;
}

const rx = (source: string) => new RegExp(source, 'giu');
const B = String.raw`(?<![\p{L}\p{N}])`;
const E = String.raw`(?![\p{L}\p{N}])`;

const RULES: Rule[] = [
  // "minimal trust level 3", "at least level 4", "trust level minimal 3", "trust level 4+", "level 4 ke atas"
  { kind: 'trust', pattern: rx(`${B}${AT_LEAST}\\s*(?:${TRUST_WORD}|level)\\s*${NUMBER}${E}(?:${OR_MORE})?`) },
  { kind: 'trust', pattern: rx(`${B}${TRUST_WORD}\\s*(?:${AT_LEAST}\\s*)?${NUMBER}(?:${OR_MORE}|${E})`) },
  { kind: 'trust', pattern: rx(`${B}level\\s*${NUMBER}(?:${OR_MORE})`) },
  // "rating minimal 4", "rating 4.5+", "rated at least 4", "minimal rating 4", "bintang 4 ke atas"
  { kind: 'rating', pattern: rx(`${B}${AT_LEAST}\\s*(?:${RATING_WORD}|${STARS})\\s*${NUMBER}${E}(?:${OR_MORE})?`) },
  { kind: 'rating', pattern: rx(`${B}${RATING_WORD}\\s*(?:${AT_LEAST}\\s*)?${NUMBER}(?:${OR_MORE}|${E})`) },
  { kind: 'rating', pattern: rx(`${B}${STARS}\\s*(?:${AT_LEAST}\\s*)?${NUMBER}(?:${OR_MORE})`) },
  // "4 stars and up", "4+ stars", "at least 4 stars", "4.5 bintang ke atas"
  { kind: 'rating', pattern: rx(`${B}${AT_LEAST}\\s*${NUMBER}\\s*${STARS}${E}`) },
  { kind: 'rating', pattern: rx(`${B}${NUMBER}\\s*(?:\\+\\s*${STARS}${E}|${STARS}(?:${OR_MORE}))`) },
  // Words that name a trust level ("Terverifikasi" is level 3 on the site; "Sangat terpercaya" level 4).
  { kind: 'trust', value: 4, pattern: rx(`${B}(?:sangat\\s+terpercaya|highly\\s+trusted|very\\s+trusted)${E}`) },
  { kind: 'trust', value: 3, pattern: rx(`${B}(?:sudah\\s+|telah\\s+)?(?:terverifikasi|diverifikasi|verified)${E}`) },
];

const LIMITS = { trust: 5, rating: 5 } as const;

export function findConstraints(text: string): Constraints {
  let rest = text;
  let minTrustLevel: number | null = null;
  let minRating: number | null = null;
  const read: string[] = [];
  const ranges: [number, number][] = [];
  // Rules reading a number need a digit; nine requests in ten have none (13 -> 3 us a request).
  const hasDigit = /\d/.test(text);
  for (const rule of RULES) {
    if (rule.value === undefined && !hasDigit) continue;
    for (const m of rest.matchAll(rule.pattern)) {
      const value = rule.value ?? Number(m[1]!.replace(',', '.'));
      if (!Number.isFinite(value) || value < 0 || value > LIMITS[rule.kind]) continue;
      if (rule.kind === 'trust') {
        if (!Number.isInteger(value)) continue;
        minTrustLevel = Math.max(minTrustLevel ?? 0, value);
      } else minRating = Math.max(minRating ?? 0, value);
      read.push(m[0].trim());
      ranges.push([m.index, m.index + m[0].length]);
      rest = rest.slice(0, m.index) + ' '.repeat(m[0].length) + rest.slice(m.index + m[0].length);
    }
  }
  return { minTrustLevel, minRating, read, rest, ranges };
}

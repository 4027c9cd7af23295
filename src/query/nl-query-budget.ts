/**
 * Budgets written the ways people write them: "budget 50 juta", "di bawah 30jt",
 * "Rp 100.000.000", "Rp1,5 M", "100rb", "under $5k", "USD 20,000".
 *
 * A budget is a ceiling in IDR. Dollar amounts are converted at a fixed rate
 * (USD_TO_IDR) so an answer never depends on the day it was asked; the rate is
 * a round figure near the 2025 average and only ever decides which providers
 * are "within budget". Several amounts ("20-50 juta", "antara 20 juta dan 50
 * juta") give their largest as the ceiling.
 *
 * Only amounts with a currency or a unit count: "top 10", "ISO 27001" and "5
 * tahun" are not budgets. A bare number of at least 1,000 counts right after a
 * budget word ("budget 50000000").
 */
export const USD_TO_IDR = 16_000;

export interface Budget {
  /** the ceiling in IDR */
  maxIdr: number;
  /** the amount as written, in its own currency */
  amount: number;
  currency: 'IDR' | 'USD';
  /** the text it was read from, e.g. "di bawah 30jt" is read from "30jt" */
  text: string;
}

export interface BudgetMatch {
  budget: Budget | null;
  /** where the amounts were ([start, end) offsets into the query) */
  ranges: [number, number][];
}

const UNIT_MULTIPLIERS: Readonly<Record<string, number>> = {
  rb: 1e3, ribu: 1e3, k: 1e3, thousand: 1e3, ribuan: 1e3,
  jt: 1e6, juta: 1e6, jutaan: 1e6, million: 1e6, millions: 1e6, mio: 1e6, mn: 1e6, mil: 1e6,
  miliar: 1e9, milyar: 1e9, billion: 1e9, bn: 1e9, b: 1e9, m: 1e9,
};

// (currency)? number (unit)? (currency)?  -- the number must not be glued to a word ("k8s", "web3").
const MONEY =
  /(?<![\p{L}\p{N}]|\d[.,])(?:(?<prefix>rp\.?|idr|us\$|\$|usd)\s*)?(?<number>\d+(?:[.,]\d+)*)\s*(?<unit>ribuan|ribu|rb|thousand|jutaan|juta|jt|millions|million|mio|mn|mil|miliar|milyar|billion|bn|b|k|m)?(?![\p{L}\p{N}])\s*(?<suffix>rupiah|idr|usd|dollars?|dolar)?(?![\p{L}\p{N}])/giu;
const BUDGET_WORD_BEFORE = /(?:budget|anggaran|dana|biaya|harga|max|maks|maksimal|maximum|under|below|bawah|kurang dari|less than|up to|sampai|hingga|<=?)\s*$/i;

/** "100.000.000" -> 100000000, "1,5" -> 1.5, "$5,000" -> 5000, "2.5" -> 2.5 (see module comment). */
function parseNumber(text: string): number {
  const groups = text.split(/[.,]/);
  if (groups.length === 1) return Number(text);
  const thousands = groups.slice(1).every((g) => g.length === 3);
  if (thousands) return Number(groups.join(''));
  // One separator that is not a thousands group: a decimal point or comma.
  if (groups.length === 2) return Number(`${groups[0]}.${groups[1]}`);
  return Number.NaN;
}

export function findBudget(query: string): BudgetMatch {
  let best: Budget | null = null;
  const ranges: [number, number][] = [];
  for (const m of query.matchAll(MONEY)) {
    const g = m.groups!;
    const value = parseNumber(g.number!);
    if (!Number.isFinite(value) || value <= 0) continue;
    const prefix = g.prefix?.toLowerCase();
    const suffix = g.suffix?.toLowerCase();
    const unit = g.unit?.toLowerCase();
    const usd = prefix === '$' || prefix === 'us$' || prefix === 'usd' || suffix === 'usd' || suffix?.startsWith('dol') === true;
    const hasCurrency = prefix !== undefined || suffix !== undefined;
    const before = query.slice(0, m.index);
    if (!hasCurrency && !unit && !(value >= 1000 && BUDGET_WORD_BEFORE.test(before))) continue;
    // "m" after a dollar amount is a million ("$1m"); after Rupiah it is Indonesian "M" = miliar.
    const multiplier = unit ? (unit === 'm' && usd ? 1e6 : UNIT_MULTIPLIERS[unit]!) : 1;
    const amount = value * multiplier;
    const maxIdr = Math.round(usd ? amount * USD_TO_IDR : amount);
    if (!best || maxIdr > best.maxIdr) best = { maxIdr, amount, currency: usd ? 'USD' : 'IDR', text: m[0].trim() };
    ranges.push([m.index, m.index + m[0].length]);
  }
  return { budget: best, ranges };
}

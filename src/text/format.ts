/**
 * How pages say things (docs/interface.md): Indonesian, money as Rupiah
 * ("Rp 350.000"), dates in Asia/Jakarta, provenance in words.
 */
import { isRated, type ProviderDetail, type ProviderSummary } from '../schemas/provider.ts';

const rupiah = new Intl.NumberFormat('id-ID', { maximumFractionDigits: 0 });
const longDate = new Intl.DateTimeFormat('id-ID', { timeZone: 'Asia/Jakarta', day: 'numeric', month: 'long', year: 'numeric' });
const count = new Intl.NumberFormat('id-ID');

export const formatRupiah = (amount: number): string => `Rp ${rupiah.format(Math.round(amount))}`;
export const formatCount = (n: number): string => count.format(n);

/** "5 Maret 2026" (Asia/Jakarta), or null for a missing or unparseable date. */
export function formatDate(iso: string | null | undefined): string | null {
  if (!iso) return null;
  const t = Date.parse(iso);
  return Number.isNaN(t) ? null : longDate.format(new Date(t));
}

/** ISO date part in Asia/Jakarta for a <time datetime>, e.g. "2026-03-05". */
export function isoDateJakarta(iso: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Jakarta', year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(iso),
  );
}

/** "4,60" for "4.60": Indonesian decimal comma. */
export const formatDecimal = (decimal: string): string => decimal.replace('.', ',');

/** "4,60 / 5 (12 ulasan)", or "Belum ada ulasan": a provider without reviews has no rating to show (isRated). */
export const formatProviderRating = (p: Pick<ProviderSummary, 'overallRating' | 'totalReviews'>): string =>
  isRated(p.totalReviews) ? `${formatDecimal(p.overallRating)} / 5 (${formatCount(p.totalReviews)} ulasan)` : 'Belum ada ulasan';

export const TRUST_LABELS: Record<number, string> = {
  0: 'Belum terverifikasi',
  1: 'Dasar',
  2: 'Terverifikasi sebagian',
  3: 'Terverifikasi',
  4: 'Sangat terpercaya',
  5: 'Terpercaya penuh',
};
export const trustLabel = (level: number): string => TRUST_LABELS[level] ?? `Level ${level}`;

const PROVENANCE_WORDS: Record<string, string> = {
  provider_submitted: 'diajukan oleh penyedia',
  public_source: 'dari sumber publik',
  none: 'tidak tersedia',
  unknown: 'sumber tidak diketahui',
};
/** A commercial signal's provenance code in words. */
export const provenanceWords = (code: string): string => PROVENANCE_WORDS[code] ?? code.replace(/_/g, ' ');

export interface ProfileProvenance {
  /** The sentence, without the link. */
  text: string;
  sourceUrl: string | null;
}

/** "Profil ini diajukan oleh penyedia." / "Profil ini dari sumber publik, diakses pada 5 Maret 2026." */
export function profileProvenance(meta: ProviderDetail['publicDataMeta']): ProfileProvenance {
  if (meta.profileProvenance === 'provider_submitted') {
    return { text: 'Profil ini diajukan oleh penyedia.', sourceUrl: null };
  }
  const accessed = formatDate(meta.sourceAccessedAt);
  const text = accessed ? `Profil ini dari sumber publik, diakses pada ${accessed}.` : 'Profil ini dari sumber publik.';
  return { text, sourceUrl: safeHttpUrl(meta.sourcePrimaryUrl) };
}

/** Only http(s) URLs become links: a `javascript:` source URL must never be clickable. */
export function safeHttpUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}

/** Plain-text excerpt for meta descriptions: whitespace collapsed, cut at a word. */
export function excerpt(text: string, max = 155): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

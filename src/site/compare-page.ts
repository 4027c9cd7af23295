/**
 * The server-rendered compare page (/compare?a=&b=): the same rules as
 * GET /api/v1/discovery/compare (published providers only, two different slugs,
 * comparable when they share a top-level category), shown side by side.
 */
import { comparisonContext } from '../query/compare.ts';
import { publishedRowBySlug } from '../query/providers.ts';
import { providerCardData } from '../query/site-providers.ts';
import type { Snapshot } from '../query/snapshot.ts';
import type { ProviderDetail } from '../schemas/provider.ts';
import type { PublicProof } from '../web/vic.ts';

export interface ComparedProvider {
  detail: ProviderDetail;
  proofs: PublicProof[];
}

export type ComparePageState =
  | { kind: 'form'; status: 200; a: string; b: string }
  | { kind: 'invalid'; status: 400 | 404; a: string; b: string; message: string }
  | { kind: 'compared'; status: 200; a: string; b: string; left: ComparedProvider; right: ComparedProvider; context: ReturnType<typeof comparisonContext> };

export function comparePage(snapshot: Snapshot, url: URL): ComparePageState {
  const a = (url.searchParams.get('a') ?? '').trim();
  const b = (url.searchParams.get('b') ?? '').trim();
  if (!a && !b) return { kind: 'form', status: 200, a, b };
  if (!a || !b) return { kind: 'invalid', status: 400, a, b, message: 'Isi dua penyedia untuk dibandingkan.' };
  if (a === b) return { kind: 'invalid', status: 400, a, b, message: 'Pilih dua penyedia yang berbeda.' };
  const rowA = publishedRowBySlug(snapshot, a);
  const rowB = publishedRowBySlug(snapshot, b);
  const left = rowA && providerCardData(snapshot, a);
  const right = rowB && providerCardData(snapshot, b);
  if (!rowA || !rowB || !left || !right) {
    const missing = [!rowA && a, !rowB && b].filter(Boolean).join(' dan ');
    return { kind: 'invalid', status: 404, a, b, message: `Penyedia tidak ditemukan: ${missing}.` };
  }
  return { kind: 'compared', status: 200, a, b, left, right, context: comparisonContext(snapshot, rowA, rowB) };
}

/**
 * The server-rendered /search page: the same parameters, checks and hybrid search
 * as GET /api/v1/search (parseSearchParams + searchProviders), answered as HTML.
 * A missing q shows the form (200); a too-short q is a 400 page with the reason.
 */
import { queryRecord } from '../schemas/api/params.ts';
import { searchProviders, type SearchHit } from '../search/search.ts';
import type { Snapshot } from '../query/snapshot.ts';
import { ApiError } from '../server/errors.ts';
import { parseSearchParams } from '../server/rest/search.ts';
import { searchPath } from '../web/urls.ts';

export const SEARCH_PAGE_LIMIT = 20;

export type SearchPageState =
  | { kind: 'empty'; status: 200; values: Record<string, string> }
  | { kind: 'invalid'; status: 400; values: Record<string, string>; message: string }
  | {
      kind: 'results';
      status: 200;
      values: Record<string, string>;
      q: string;
      hits: SearchHit[];
      total: number;
      page: number;
      totalPages: number;
      prevPath: string | null;
      nextPath: string | null;
    };

const MESSAGES: Record<string, string> = {
  QUERY_REQUIRED: 'Tulis kata kunci pencarian.',
  QUERY_TOO_SHORT: 'Kata kunci minimal 2 karakter.',
};

export async function searchPage(snapshot: Snapshot, url: URL): Promise<SearchPageState> {
  const values = queryRecord(url.searchParams);
  if (!values.q?.trim()) return { kind: 'empty', status: 200, values };
  let parsed: ReturnType<typeof parseSearchParams>;
  try {
    parsed = parseSearchParams({ ...values, limit: String(SEARCH_PAGE_LIMIT) });
  } catch (err) {
    if (err instanceof ApiError) return { kind: 'invalid', status: 400, values, message: MESSAGES[err.code] ?? err.message };
    throw err;
  }
  const { q, page, limit, sort, ...filters } = parsed;
  const result = await searchProviders(snapshot, { query: q, filters, sort, page, limit });
  const at = (p: number) => searchPath({ ...values, page: p > 1 ? String(p) : undefined });
  return {
    kind: 'results',
    status: 200,
    values,
    q,
    hits: result.items,
    total: result.meta.total,
    page,
    totalPages: result.meta.totalPages,
    prevPath: page > 1 ? at(page - 1) : null,
    nextPath: page < result.meta.totalPages ? at(page + 1) : null,
  };
}

/**
 * Parameters of GET /api/ai/recommend. Unlike the public endpoints, the AI
 * endpoint rejects what it cannot use (docs/interface.md): `limit` 0, 11 or
 * `abc` is 400 INVALID_PARAM; `q` outside 2-200 code points (after trimming) is
 * QUERY_TOO_SHORT or QUERY_TOO_LONG. Parameters it does not know are ignored.
 */
import * as z from 'zod';
import { ApiError } from './errors.ts';

export const RECOMMEND_DEFAULT_LIMIT = 5;
export const RECOMMEND_MAX_LIMIT = 10;
const MAX_CITY_CODE_POINTS = 100;

export const RecommendParamsSchema = z.object({
  q: z.string().describe('required: what the client needs, in Indonesian or English; 2-200 characters after trimming'),
  city: z.string().nullable().describe('optional: exact city (case-insensitive); overrides a city named in q'),
  limit: z.number().int().min(1).max(RECOMMEND_MAX_LIMIT).describe('optional: 1-10, default 5'),
});
export type RecommendParams = z.output<typeof RecommendParamsSchema>;

const codePoints = (s: string) => [...s].length;

export function parseRecommendParams(query: URLSearchParams): RecommendParams {
  const q = query.get('q')?.trim() ?? '';
  if (q === '') throw new ApiError('QUERY_REQUIRED', 'The query parameter q is required.');
  if (codePoints(q) < 2) throw new ApiError('QUERY_TOO_SHORT', 'The query q must be at least 2 characters long.');
  if (codePoints(q) > 200) throw new ApiError('QUERY_TOO_LONG', 'The query q must be at most 200 characters long.');

  const rawLimit = query.get('limit')?.trim() ?? '';
  let limit = RECOMMEND_DEFAULT_LIMIT;
  if (rawLimit !== '') {
    if (!/^\d{1,3}$/.test(rawLimit) || Number(rawLimit) < 1 || Number(rawLimit) > RECOMMEND_MAX_LIMIT) {
      throw new ApiError('INVALID_PARAM', `limit must be an integer from 1 to ${RECOMMEND_MAX_LIMIT}.`);
    }
    limit = Number(rawLimit);
  }

  const rawCity = query.get('city')?.trim() ?? '';
  if (codePoints(rawCity) > MAX_CITY_CODE_POINTS) {
    throw new ApiError('INVALID_PARAM', `city must be at most ${MAX_CITY_CODE_POINTS} characters long.`);
  }
  return { q, city: rawCity === '' ? null : rawCity, limit };
}

/**
 * The gate of every key-protected route, in the order docs/interface.md fixes: the key
 * (401), then the rate limit (429), then the route itself (its 400s included).
 * Every request with a valid key counts, whatever the route answers. The rate
 * headers go on every response after the key check: on success by setting them,
 * on an ApiError by re-throwing it with the headers attached, so the one response
 * layer still builds the envelope.
 */
import { ApiError } from '../errors.ts';
import { TIER_LIMITS, type KeyInfo } from '../../keys/key-store.ts';
import { rateLimitHeaders } from '../rate-limit/limiter.ts';
import { presentedApiKey } from './api-key.ts';
import type { AppContext } from '../context.ts';

export type KeyProtectedHandler = (request: Request, key: KeyInfo) => Promise<Response> | Response;

/**
 * `cost` says how many requests of the budget this one takes (one, or one per
 * message of an MCP batch); it is asked only after the key is known to be valid.
 */
export async function withApiKey(
  request: Request,
  app: AppContext,
  handler: KeyProtectedHandler,
  cost: () => Promise<number> = async () => 1,
): Promise<Response> {
  const presented = presentedApiKey(request);
  if (presented === null) {
    throw new ApiError('API_KEY_REQUIRED', 'An API key is required: send it in the X-API-Key header.');
  }
  const services = app.keyServices();
  let check;
  try {
    check = await services.keys.verify(presented, services.now());
  } catch (err) {
    app.logger.error({ reason: (err as Error).message }, 'key store unavailable');
    throw new ApiError('SERVICE_UNAVAILABLE', 'The key store is unavailable; try again shortly.', { 'Retry-After': '5' });
  }
  if (!check.ok) throw new ApiError('API_KEY_INVALID', 'The API key is invalid or expired.');

  const calls = await cost();
  let decision;
  try {
    decision = await services.limiter.consume(String(check.key.id), TIER_LIMITS[check.key.tier], calls);
  } catch (err) {
    app.logger.error({ reason: (err as Error).message }, 'rate-limit store unavailable');
    throw new ApiError('SERVICE_UNAVAILABLE', 'The rate limiter is unavailable; try again shortly.', { 'Retry-After': '5' });
  }
  const headers = rateLimitHeaders(decision);
  if (!decision.allowed) {
    const batch = calls > 1 ? ` This batch of ${calls} calls counts as ${calls} requests; send fewer calls at once.` : '';
    throw new ApiError(
      'RATE_LIMIT_EXCEEDED',
      `Rate limit of ${decision.limit} requests per minute exceeded; retry in ${decision.resetSeconds} s.${batch}`,
      headers,
    );
  }

  let response: Response;
  try {
    response = await handler(request, check.key);
  } catch (err) {
    if (err instanceof ApiError) throw new ApiError(err.code, err.message, { ...err.headers, ...headers });
    throw err;
  }
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

/**
 * The route table of the lean path. Placeholder until the REST API lands: it
 * answers /healthz and 404s everything else under /api in the spec's envelope.
 */
import { ApiError } from './errors.ts';

export async function routeRequest(request: Request): Promise<Response | null> {
  const { pathname } = new URL(request.url);
  if (pathname === '/healthz') return Response.json({ status: 'ok' });
  return Response.json(new ApiError('NOT_FOUND', `no route for ${pathname}`).toBody(), { status: 404 });
}

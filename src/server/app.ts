/**
 * The lean dynamic path: web-standard handlers for /api/*, /mcp and /healthz.
 * scripts/serve.ts sends those paths here before Astro's handler; the Astro
 * endpoint files under src/pages/api call the same function (for `astro dev`).
 *
 * Returns null when the path is not ours.
 */
import type { AppContext } from './context.ts';
import { routeRequest } from './routes.ts';

export async function handleRequest(request: Request, app: AppContext): Promise<Response | null> {
  return routeRequest(request, app);
}

export function isDynamicPath(pathname: string): boolean {
  return pathname.startsWith('/api/') || pathname === '/api' || pathname === '/mcp' || pathname === '/healthz';
}

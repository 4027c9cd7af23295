/**
 * A public REST route, written once: its path, the zod schemas of its query
 * parameters and response body, its error codes and its handler. The dispatcher
 * (src/server/routes.ts) and the OpenAPI document (src/server/openapi.ts) both read
 * these objects, so a route cannot exist without being documented.
 */
import type * as z from 'zod';
import type { Snapshot } from '../../query/snapshot.ts';
import type { AppContext } from '../context.ts';
import type { ErrorCode } from '../errors.ts';
import type { CachePolicy, RestResult } from '../respond.ts';

/** What a handler reads: the URL and the snapshot, never the request (its answer is cached by URL). */
export interface RestContext {
  url: URL;
  /** raw query parameters: first value of each name */
  query: Record<string, string>;
  /** path parameters, percent-decoded */
  pathParams: Record<string, string>;
  snapshot: Snapshot;
  /** the process's settings and services (src/server/context.ts) */
  app: AppContext;
}

export interface RestRoute {
  /** OpenAPI-style path, e.g. /api/v1/providers/{slug} */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  query?: z.ZodObject;
  /** query parameters the handler requires (their absence is the route's 400) */
  requiredQuery?: string[];
  pathParams?: Record<string, string>;
  response: z.ZodType;
  errors: ErrorCode[];
  cache: CachePolicy;
  handle(ctx: RestContext): RestResult | Promise<RestResult>;
}

export const defineRoute = (route: RestRoute): RestRoute => route;

/** A route of the server's table (src/server/routes.ts): a public REST route, or a keyed one (auth/key-routes.ts). */
export interface Route {
  /** OpenAPI-style path: `{name}` matches one path segment */
  path: string;
  /** methods served; HEAD is added wherever GET is, OPTIONS everywhere */
  methods: readonly string[];
  handle(request: Request, pathParams: Record<string, string>, app: AppContext): Promise<Response> | Response;
  /** set on the public REST routes: the node server answers their GETs as Replies (src/server/rest-node.ts) */
  rest?: RestRoute;
}

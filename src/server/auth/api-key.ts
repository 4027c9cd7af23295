/**
 * Reading the key a client presents. `X-API-Key` is the spec's header;
 * `Authorization: Bearer <key>` is accepted as an alias because many MCP clients
 * can send nothing else (docs/interface.md).
 */
const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/** The presented key, or null when the request carries none. */
export function presentedApiKey(request: Request): string | null {
  const header = request.headers.get('x-api-key')?.trim();
  if (header) return header;
  const authorization = request.headers.get('authorization');
  const bearer = authorization ? BEARER.exec(authorization) : null;
  return bearer?.[1] ?? null;
}

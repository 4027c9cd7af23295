/**
 * POST /mcp and GET /mcp: JSON-RPC 2.0 for tools, in one small module.
 *
 * Two kinds of client (docs/interface.md): a plain JSON-RPC client gets the
 * spec's shapes (`tools/list` -> {tools: ["search_providers", ...]}); an MCP
 * client, recognised by an `initialize` request or an MCP-Protocol-Version
 * header, gets MCP's shapes (revision 2025-11-25, stateless: no session id).
 * The official SDK's server transport is not used because it answers 406 to
 * `Accept: application/json` alone and has no plain mode; its protocol
 * constants are. Every answer is JSON (never an event stream), whatever the
 * Accept header says.
 */
import * as z from 'zod';
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import type { Snapshot } from '../query/snapshot.ts';
import type { AppContext } from './context.ts';
import { ApiError } from './errors.ts';
import { corsHeaders, NO_STORE } from './http.ts';
import { MCP_TOOL_NAMES, MCP_TOOLS, mcpToolObjects } from './mcp-tools.ts';

export const MCP_SERVER_INFO = { name: 'provider-directory', title: 'Provider Directory', version: '0.1.0' } as const;

type Id = string | number;
type Mode = 'plain' | 'mcp';

class RpcError extends Error {
  readonly code: number;
  constructor(
    code: number,
    message: string,
  ) {
    super(message);
    this.code = code;
  }
}
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const METHOD_NOT_FOUND = -32601;
const INVALID_PARAMS = -32602;
const INTERNAL_ERROR = -32603;

const MessageSchema = z.object({
  jsonrpc: z.literal('2.0'),
  id: z.union([z.string(), z.number()]).optional(),
  method: z.string(),
  params: z.unknown().optional(),
});

const ParamsObject = z.record(z.string(), z.unknown()).optional();
const InitializeParams = z.object({ protocolVersion: z.string().optional() }).loose().optional();
const CallParams = z.object({ name: z.string(), arguments: z.record(z.string(), z.unknown()).optional() }).loose();

const JSON_HEADERS = { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': NO_STORE };

const json = (body: unknown, status = 200, extra: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { ...JSON_HEADERS, ...corsHeaders(), ...extra } });

const errorBody = (id: Id | null, code: number, message: string) => ({ jsonrpc: '2.0', id, error: { code, message } });

function zodMessage(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join('.') || 'params'}: ${i.message}`).join('; ');
}

/** A tool's domain failure as MCP's isError result, with the REST envelope (and its code) in the text. */
function toolError(err: ApiError) {
  const envelope = { error: { code: err.code, message: err.message } };
  return { content: [{ type: 'text', text: JSON.stringify(envelope) }], isError: true };
}

async function callTool(params: unknown, snapshot: () => Snapshot, app: AppContext) {
  const parsed = CallParams.safeParse(params);
  if (!parsed.success) throw new RpcError(INVALID_PARAMS, `Invalid tools/call params: ${zodMessage(parsed.error)}`);
  const tool = MCP_TOOLS.find((t) => t.name === parsed.data.name);
  if (!tool) throw new RpcError(INVALID_PARAMS, `Unknown tool: ${parsed.data.name.slice(0, 80)}. Tools: ${MCP_TOOL_NAMES.join(', ')}`);
  const args = tool.input.safeParse(parsed.data.arguments ?? {});
  if (!args.success) throw new RpcError(INVALID_PARAMS, `Invalid arguments for ${tool.name}: ${zodMessage(args.error)}`);
  try {
    const structured = await tool.run(args.data, snapshot(), app);
    return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
  } catch (err) {
    // 4xx ApiErrors are the tool's input failing; a snapshot outage or a fault stays a protocol error.
    if (err instanceof ApiError && err.status < 500) return toolError(err);
    throw err;
  }
}

async function dispatch(method: string, params: unknown, mode: Mode, snapshot: () => Snapshot, app: AppContext): Promise<unknown> {
  switch (method) {
    case 'initialize': {
      const p = InitializeParams.safeParse(params);
      if (!p.success) throw new RpcError(INVALID_PARAMS, `Invalid initialize params: ${zodMessage(p.error)}`);
      const asked = p.data?.protocolVersion;
      // Version negotiation: echo a version we speak, otherwise offer our latest.
      const protocolVersion = asked && SUPPORTED_PROTOCOL_VERSIONS.includes(asked) ? asked : LATEST_PROTOCOL_VERSION;
      return {
        protocolVersion,
        capabilities: { tools: { listChanged: false } },
        serverInfo: MCP_SERVER_INFO,
        instructions:
          'Read-only tools over a directory of service providers (mostly Indonesian digital agencies). ' +
          'Use search_providers to find candidates, get_provider_card for one provider in depth, compare_providers for two.',
      };
    }
    case 'ping':
      return {};
    case 'tools/list': {
      if (!ParamsObject.safeParse(params).success) throw new RpcError(INVALID_PARAMS, 'tools/list params must be an object');
      return mode === 'mcp' ? { tools: mcpToolObjects() } : { tools: [...MCP_TOOL_NAMES] };
    }
    case 'tools/call':
      return callTool(params, snapshot, app);
    default:
      throw new RpcError(METHOD_NOT_FOUND, `Method not found: ${method.slice(0, 80)}`);
  }
}

/** One message -> its response body, or null for a notification (which gets no answer). */
async function answer(message: unknown, modeFromHeader: boolean, snapshot: () => Snapshot, app: AppContext): Promise<unknown | null> {
  const parsed = MessageSchema.safeParse(message);
  if (!parsed.success) {
    const rawId = (message as { id?: unknown } | null)?.id;
    const id = typeof rawId === 'string' || typeof rawId === 'number' ? rawId : null;
    return errorBody(id, INVALID_REQUEST, 'Invalid Request: expected {"jsonrpc": "2.0", "id": string or number, "method": string}');
  }
  const { id, method, params } = parsed.data;
  const mode: Mode = modeFromHeader || method === 'initialize' ? 'mcp' : 'plain';
  if (id === undefined) return null; // notifications (notifications/initialized, ...) are acknowledged with 202
  try {
    return { jsonrpc: '2.0', id, result: await dispatch(method, params, mode, snapshot, app) };
  } catch (err) {
    if (err instanceof RpcError) return errorBody(id, err.code, err.message);
    // A snapshot outage or a full search gate: the server's state, said in the message, not a fault to log.
    if (err instanceof ApiError) return errorBody(id, INTERNAL_ERROR, err.message);
    app.logger.error({ err }, 'mcp internal error');
    return errorBody(id, INTERNAL_ERROR, 'Internal error');
  }
}

/** The largest JSON-RPC batch POST /mcp runs; a larger one is refused whole (-32600) before anything runs. */
export const MCP_MAX_BATCH = 20;
/** How many messages of one batch run at the same time. */
export const MCP_BATCH_CONCURRENCY = 4;

/** A POST /mcp body, parsed once: read before the rate limit, because a batch costs one request per message. */
export type McpBody = { kind: 'invalid-json' } | { kind: 'message'; message: unknown } | { kind: 'batch'; messages: unknown[] };

export function parseMcpBody(text: string): McpBody {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { kind: 'invalid-json' };
  }
  return Array.isArray(body) ? { kind: 'batch', messages: body } : { kind: 'message', message: body };
}

/** What a body costs from the key's budget: one per message of a batch that will run, else one. */
export function mcpCost(body: McpBody): number {
  return body.kind === 'batch' && body.messages.length > 0 && body.messages.length <= MCP_MAX_BATCH ? body.messages.length : 1;
}

/** Runs fn over items with at most `limit` at a time; results in input order. */
async function mapBounded<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) results[i] = await fn(items[i]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** POST /mcp, after the key check and the rate limit (which charged mcpCost(body)). */
export async function handleMcpPost(request: Request, body: McpBody, snapshot: () => Snapshot, app: AppContext): Promise<Response> {
  const header = request.headers.get('mcp-protocol-version');
  if (header !== null && !SUPPORTED_PROTOCOL_VERSIONS.includes(header.trim())) {
    return json(errorBody(null, INVALID_REQUEST, `Unsupported MCP-Protocol-Version: ${header.slice(0, 40)}. Supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}`), 400);
  }
  if (body.kind === 'invalid-json') return json(errorBody(null, PARSE_ERROR, 'Parse error: the body is not valid JSON'));
  const fromHeader = header !== null;
  if (body.kind === 'batch') {
    // JSON-RPC 2.0 batch (MCP itself no longer sends them; plain clients may).
    const { messages } = body;
    if (messages.length === 0) return json(errorBody(null, INVALID_REQUEST, 'Invalid Request: empty batch'));
    if (messages.length > MCP_MAX_BATCH) {
      return json(
        errorBody(null, INVALID_REQUEST, `Invalid Request: a batch may hold at most ${MCP_MAX_BATCH} messages (this one has ${messages.length}); send it in several requests`),
      );
    }
    const answers = (await mapBounded(messages, MCP_BATCH_CONCURRENCY, (m) => answer(m, fromHeader, snapshot, app))).filter((a) => a !== null);
    return answers.length ? json(answers) : new Response(null, { status: 202, headers: corsHeaders() });
  }
  const reply = await answer(body.message, fromHeader, snapshot, app);
  return reply === null ? new Response(null, { status: 202, headers: corsHeaders() }) : json(reply);
}

/**
 * GET /mcp: a small service document for people and health checks. An MCP client
 * asking for a server-initiated event stream gets 405: a 200 would make it
 * reconnect forever, a 405 makes it stop asking.
 */
export function handleMcpGet(request: Request): Response {
  const accept = request.headers.get('accept') ?? '';
  if (accept.toLowerCase().includes('text/event-stream')) {
    throw new ApiError('METHOD_NOT_ALLOWED', 'This server offers no event stream; send JSON-RPC requests with POST.', { Allow: 'GET, POST' });
  }
  return json({ name: MCP_SERVER_INFO.name, version: MCP_SERVER_INFO.version, jsonrpc: '2.0', tools: [...MCP_TOOL_NAMES], status: 'ok' });
}

// /mcp under `astro dev` goes through the same handler as the lean path of scripts/serve.ts.
import type { APIRoute } from 'astro';
import { handleRequest } from '../server/app.ts';
import { appContext } from '../server/context.ts';

export const prerender = false;
export const ALL: APIRoute = async ({ request }) => (await handleRequest(request, appContext())) ?? new Response(null, { status: 404 });

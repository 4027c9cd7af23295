import type { APIRoute } from 'astro';
import { staticSnapshot } from '../site/snapshot.ts';
import { llmsTxtResponse } from '../site/text-endpoints.ts';

export const GET: APIRoute = () => llmsTxtResponse(staticSnapshot());

import type { APIRoute } from 'astro';
import { robotsTxtResponse } from '../site/text-endpoints.ts';

export const GET: APIRoute = () => robotsTxtResponse();

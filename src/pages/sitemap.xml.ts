import type { APIRoute } from 'astro';
import { staticSnapshot } from '../site/snapshot.ts';
import { sitemapIndexResponse } from '../site/text-endpoints.ts';

export const GET: APIRoute = () => sitemapIndexResponse(staticSnapshot());

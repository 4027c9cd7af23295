import type { APIRoute, GetStaticPaths } from 'astro';
import { staticSnapshot } from '../site/snapshot.ts';
import { sitemapPartParams, sitemapPartResponse } from '../site/text-endpoints.ts';

// sitemap-providers.xml, sitemap-providers-2.xml, ..., sitemap-vic.xml, sitemap-taxonomy.xml
export const getStaticPaths = (() => sitemapPartParams(staticSnapshot())) satisfies GetStaticPaths;

export const GET: APIRoute = ({ params }) => sitemapPartResponse(staticSnapshot(), params.part!);

import type { APIRoute, GetStaticPaths } from 'astro';
import { staticSnapshot } from '../site/snapshot.ts';
import { sitemapPartParams, sitemapPartResponse } from '../site/text-endpoints.ts';
import { scopeStaticPaths } from '../site/render-scope.ts';
import { pageRenderScope } from '../site/settings.ts';

// sitemap-providers.xml, sitemap-providers-2.xml, ..., sitemap-vic.xml, sitemap-taxonomy.xml
export const getStaticPaths = (() => scopeStaticPaths(pageRenderScope(), 'sitemap-[part].xml', sitemapPartParams(staticSnapshot()), (e) => `/sitemap-${e.params.part}.xml`)) satisfies GetStaticPaths;

export const GET: APIRoute = ({ params }) => sitemapPartResponse(staticSnapshot(), params.part!);

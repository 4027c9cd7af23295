import type { APIRoute, GetStaticPaths } from 'astro';
import { publishedSlugs } from '../../../query/site-providers.ts';
import { staticSnapshot } from '../../../site/snapshot.ts';
import { vicResponse } from '../../../site/vic-endpoint.ts';
import { scopeStaticPaths } from '../../../site/render-scope.ts';
import { vicPath } from '../../../site/urls.ts';

export const getStaticPaths = (() => scopeStaticPaths('provider/[slug]/vic.json', publishedSlugs(staticSnapshot()).map((slug) => ({ params: { slug } })), (e) => vicPath(e.params.slug))) satisfies GetStaticPaths;

export const GET: APIRoute = ({ params }) => vicResponse(staticSnapshot(), params.slug!);

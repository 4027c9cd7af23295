import type { APIRoute, GetStaticPaths } from 'astro';
import { publishedSlugs } from '../../../query/site-providers.ts';
import { staticSnapshot } from '../../../site/snapshot.ts';
import { vicResponse } from '../../../site/vic-endpoint.ts';

export const getStaticPaths = (() => publishedSlugs(staticSnapshot()).map((slug) => ({ params: { slug } }))) satisfies GetStaticPaths;

export const GET: APIRoute = ({ params }) => vicResponse(staticSnapshot(), params.slug!);

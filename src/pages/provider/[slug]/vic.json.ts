import type { APIRoute, GetStaticPaths } from 'astro';
import { publishedSlugs } from '../../../query/site-providers.ts';
import { staticSnapshot } from '../../../site/snapshot.ts';
import { vicResponse } from '../../../site/vic-endpoint.ts';

// `astro build` writes the cards from the site integration (src/site/vic-files.ts),
// far cheaper than 100k endpoint renders; this route serves them under `astro dev`.
export const getStaticPaths = (() => (import.meta.env.DEV ? publishedSlugs(staticSnapshot()).map((slug) => ({ params: { slug } })) : [])) satisfies GetStaticPaths;

export const GET: APIRoute = ({ params }) => vicResponse(staticSnapshot(), params.slug!);

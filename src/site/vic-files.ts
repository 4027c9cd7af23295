/**
 * The VIC cards of a build, written by the site integration (astro-integration.ts)
 * straight to client/provider/{slug}/vic.json: one card per published provider,
 * from the same builder as the endpoint (providerCardData, buildVicCard,
 * serializeVicCard), so the bytes are those the endpoint renders. Routing 100,000
 * endpoints through Astro's page pipeline (a Request, a Response, an async mkdir
 * and write, two log lines each) cost more than building the cards; this loop
 * holds one card at a time. The route file (src/pages/provider/[slug]/vic.json.ts)
 * still serves the cards under `astro dev`.
 *
 * Incremental renders (src/site/render-scope.ts): the card list is recorded under
 * the route's id and only cards in the render scope are written.
 */
import fs from 'node:fs';
import path from 'node:path';
import { SlugSchema } from '../schemas/dataset.ts';
import { providerCardData, publishedSlugs } from '../query/site-providers.ts';
import type { Snapshot } from '../query/snapshot.ts';
import { scopeStaticPaths, type RenderScope } from './render-scope.ts';
import { vicPath } from '../web/urls.ts';
import { buildVicCard, serializeVicCard, type VicOptions } from '../web/vic.ts';

export const VIC_ROUTE_ID = 'provider/[slug]/vic.json';

export function writeVicCards(snapshot: Snapshot, clientDir: string, options: VicOptions, scope: RenderScope): number {
  const slugs = scopeStaticPaths(scope, VIC_ROUTE_ID, publishedSlugs(snapshot), vicPath);
  for (const slug of slugs) {
    // Dataset slugs are lowercase [a-z0-9-]; anything else must not become a path.
    if (!SlugSchema.safeParse(slug).success) throw new Error(`refusing to write a VIC card for the slug ${JSON.stringify(slug)}`);
    const data = providerCardData(snapshot, slug)!;
    const dir = path.join(clientDir, 'provider', slug);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'vic.json'), serializeVicCard(buildVicCard(data.detail, data.proofs, options)));
  }
  return slugs.length;
}

/**
 * The VIC file of one provider as an endpoint response (pre-rendered to provider/{slug}/vic.json).
 * The headers matter when served by `astro dev`; built files get them from the rules.
 */
import { providerCardData } from '../query/site-providers.ts';
import type { Snapshot } from '../query/snapshot.ts';
import { siteHeaders, siteSettings } from './settings.ts';
import { buildVicCard, serializeVicCard } from '../web/vic.ts';
import { vicPath } from '../web/urls.ts';

export function vicResponse(snapshot: Snapshot, slug: string): Response {
  const data = providerCardData(snapshot, slug);
  if (!data) return new Response('Not Found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  const { webUrl, apiUrl } = siteSettings();
  const card = buildVicCard(data.detail, data.proofs, { webUrl, apiUrl });
  return new Response(serializeVicCard(card), { headers: siteHeaders().forPath(vicPath(slug)) });
}

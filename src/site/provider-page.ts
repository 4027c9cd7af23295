/** Title, description, breadcrumbs and JSON-LD of a provider page. */
import type { ProviderPageData } from '../query/site-providers.ts';
import { excerpt } from '../text/format.ts';
import { breadcrumbJsonLd, providerJsonLd, type Crumb, type JsonLd } from './jsonld.ts';
import { categoryPath, providerPath, type PublicUrls } from '../web/urls.ts';

export interface PageMeta {
  title: string;
  description: string;
  path: string;
  crumbs: Crumb[];
  jsonLd: JsonLd[];
}

export function providerPageMeta(data: ProviderPageData, urls: PublicUrls): PageMeta {
  const { detail } = data;
  const { webUrl } = urls;
  const place = detail.city ? ` di ${detail.city}` : '';
  const primary = detail.categories[0];
  const crumbs: Crumb[] = [
    { name: 'Beranda', path: '/' },
    ...(primary ? [{ name: primary.name, path: categoryPath(primary.slug) }] : []),
    { name: detail.companyName, path: providerPath(detail.slug) },
  ];
  return {
    title: `${detail.companyName}${place}`,
    description: excerpt(`${detail.companyName}${place}: ${detail.tagline || detail.description}`),
    path: providerPath(detail.slug),
    crumbs,
    jsonLd: [
      providerJsonLd({ detail, webUrl, minProjectBudgetIdr: data.minProjectBudgetIdr }),
      breadcrumbJsonLd(crumbs, webUrl),
    ],
  };
}

/** Category pages: one per usable category and subcategory, with or without providers. */
import { programmaticParams } from '../query/discovery.ts';
import type { Snapshot } from '../query/snapshot.ts';
import { categoryProviders, usableCategories, type UsableCategory } from '../query/site-taxonomy.ts';
import type { ProviderSummary } from '../schemas/provider.ts';
import { breadcrumbJsonLd, itemListJsonLd, type Crumb, type JsonLd } from './jsonld.ts';
import { siteSettings } from './settings.ts';
import { categoryPath } from './urls.ts';

export const CATEGORY_LIMIT = 30;

export const categoryParams = (snapshot: Snapshot) => usableCategories(snapshot).map((c) => ({ params: { slug: c.node.slug } }));

export interface CategoryPage {
  category: UsableCategory;
  providers: ProviderSummary[];
  total: number;
  /** landing pages of this (top-level) category, most providers first */
  cities: { path: string; city: string; providerCount: number }[];
  description: string;
  crumbs: Crumb[];
  jsonLd: JsonLd[];
}

export function categoryPage(snapshot: Snapshot, slug: string): CategoryPage | undefined {
  const category = usableCategories(snapshot).find((c) => c.node.slug === slug);
  if (!category) return undefined;
  const { node, parent } = category;
  const { data, total } = categoryProviders(snapshot, node, CATEGORY_LIMIT);
  const cities =
    parent === null
      ? programmaticParams(snapshot)
          .filter((p) => p.categorySlug === node.slug)
          .map((p) => ({ path: p.path, city: p.city, providerCount: p.providerCount }))
      : [];
  const { webUrl } = siteSettings();
  const crumbs: Crumb[] = [
    { name: 'Beranda', path: '/' },
    ...(parent ? [{ name: parent.name, path: categoryPath(parent.slug) }] : []),
    { name: node.name, path: categoryPath(node.slug) },
  ];
  return {
    category,
    providers: data,
    total,
    cities,
    description:
      total > 0
        ? `${total} penyedia ${node.name} di direktori, diurutkan menurut tingkat kepercayaan lalu rating.`
        : `Kategori ${node.name}: belum ada penyedia yang dipublikasikan.`,
    crumbs,
    jsonLd: [itemListJsonLd(`Penyedia ${node.name}`, data, webUrl), breadcrumbJsonLd(crumbs, webUrl)],
  };
}

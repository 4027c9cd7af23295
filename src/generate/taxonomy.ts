/**
 * The service categories of the generated directory: ten active top-level services
 * with their children, one inactive top-level category (with a child) and one
 * inactive child of an active parent, so that CATEGORY_NOT_FOUND and the "inactive
 * parent" rules have data to act on.
 */
import type { CategoryRecord } from '../schemas/dataset.ts';

interface CategorySeed {
  slug: string;
  name: string;
  description: string;
  active?: boolean;
  children: ReadonlyArray<{ slug: string; name: string; active?: boolean }>;
}

const TREE: readonly CategorySeed[] = [
  {
    slug: 'web-development',
    name: 'Web Development',
    description: 'Pembuatan website dan aplikasi web: toko online, WordPress, aplikasi web kustom, company profile.',
    children: [
      { slug: 'e-commerce', name: 'E-Commerce' },
      { slug: 'wordpress', name: 'WordPress' },
      { slug: 'custom-web-apps', name: 'Custom Web Apps' },
      { slug: 'company-profile-websites', name: 'Website Company Profile' },
    ],
  },
  {
    slug: 'mobile-app-development',
    name: 'Mobile App Development',
    description: 'Pembuatan aplikasi Android, iOS dan lintas platform (Flutter, React Native).',
    children: [
      { slug: 'android', name: 'Aplikasi Android' },
      { slug: 'ios', name: 'Aplikasi iOS' },
      { slug: 'flutter-cross-platform', name: 'Flutter & Cross-Platform' },
    ],
  },
  {
    slug: 'digital-marketing',
    name: 'Digital Marketing',
    description: 'SEO, iklan media sosial dan content marketing untuk bisnis Indonesia.',
    children: [
      { slug: 'seo', name: 'SEO' },
      { slug: 'social-media-ads', name: 'Social Media Ads' },
      { slug: 'content-marketing', name: 'Content Marketing' },
      { slug: 'sms-blast', name: 'SMS Blast', active: false },
    ],
  },
  {
    slug: 'ui-ux-design',
    name: 'UI/UX Design',
    description: 'Riset pengguna, desain antarmuka dan prototipe produk digital.',
    children: [
      { slug: 'ux-research', name: 'UX Research' },
      { slug: 'ui-design', name: 'UI Design' },
    ],
  },
  {
    slug: 'it-consulting',
    name: 'IT Consulting',
    description: 'Konsultan IT: transformasi digital, strategi teknologi dan implementasi ERP.',
    children: [
      { slug: 'digital-transformation', name: 'Transformasi Digital' },
      { slug: 'erp-implementation', name: 'Implementasi ERP' },
    ],
  },
  {
    slug: 'cloud-devops',
    name: 'Cloud & DevOps',
    description: 'Migrasi cloud, infrastruktur, CI/CD dan Kubernetes.',
    children: [
      { slug: 'cloud-migration', name: 'Cloud Migration' },
      { slug: 'devops', name: 'DevOps & CI/CD' },
    ],
  },
  {
    slug: 'cybersecurity',
    name: 'Cybersecurity',
    description: 'Keamanan siber: penetration testing, audit keamanan dan kepatuhan ISO 27001.',
    children: [
      { slug: 'penetration-testing', name: 'Penetration Testing' },
      { slug: 'security-compliance', name: 'Security Audit & Compliance' },
    ],
  },
  {
    slug: 'data-ai',
    name: 'Data & AI',
    description: 'Business intelligence, analisis data, machine learning dan solusi AI.',
    children: [
      { slug: 'business-intelligence', name: 'Business Intelligence' },
      { slug: 'machine-learning', name: 'Machine Learning & AI' },
    ],
  },
  {
    slug: 'software-development',
    name: 'Software Development',
    description: 'Software house: aplikasi kustom, integrasi sistem dan API.',
    children: [
      { slug: 'custom-software', name: 'Custom Software' },
      { slug: 'api-integration', name: 'Integrasi Sistem & API' },
    ],
  },
  {
    slug: 'branding-creative',
    name: 'Branding & Creative',
    description: 'Identitas merek, desain logo dan produksi video.',
    children: [
      { slug: 'brand-identity', name: 'Brand Identity' },
      { slug: 'video-production', name: 'Produksi Video' },
    ],
  },
  {
    slug: 'blockchain-web3',
    name: 'Blockchain & Web3',
    description: 'Layanan blockchain (tidak lagi ditampilkan).',
    active: false,
    children: [{ slug: 'nft-development', name: 'NFT Development' }],
  },
];

const categoryId = (slug: string) => `cat-${slug}`;

/** The categories.json records, parents before their children. */
export const CATEGORIES: readonly CategoryRecord[] = TREE.flatMap((top) => [
  { id: categoryId(top.slug), slug: top.slug, name: top.name, parentId: null, active: top.active ?? true, description: top.description },
  ...top.children.map((child) => ({
    id: categoryId(child.slug),
    slug: child.slug,
    name: child.name,
    parentId: categoryId(top.slug),
    active: child.active ?? true,
  })),
]);

const BY_ID = new Map(CATEGORIES.map((c) => [c.id, c]));

export function categoryById(id: string): CategoryRecord {
  const category = BY_ID.get(id);
  if (!category) throw new Error(`unknown category ${id}`);
  return category;
}

/** Active leaf categories a provider can have as its primary service. */
export const PRIMARY_LEAF_IDS: readonly string[] = CATEGORIES.filter(
  (c) => c.parentId !== null && c.active && categoryById(c.parentId).active,
).map((c) => c.id);

/** How often each top-level service is a provider's primary one: web and mobile dominate the market. */
export const TOP_LEVEL_WEIGHT: Readonly<Record<string, number>> = {
  'cat-web-development': 30,
  'cat-mobile-app-development': 16,
  'cat-digital-marketing': 16,
  'cat-ui-ux-design': 7,
  'cat-it-consulting': 6,
  'cat-cloud-devops': 5,
  'cat-cybersecurity': 4,
  'cat-data-ai': 5,
  'cat-software-development': 8,
  'cat-branding-creative': 6,
};

/** Services that agencies commonly offer together, for secondary categories. */
export const RELATED_TOP_LEVEL: Readonly<Record<string, readonly string[]>> = {
  'cat-web-development': ['cat-mobile-app-development', 'cat-ui-ux-design', 'cat-digital-marketing', 'cat-software-development'],
  'cat-mobile-app-development': ['cat-web-development', 'cat-ui-ux-design', 'cat-software-development'],
  'cat-digital-marketing': ['cat-web-development', 'cat-branding-creative', 'cat-ui-ux-design'],
  'cat-ui-ux-design': ['cat-web-development', 'cat-mobile-app-development', 'cat-branding-creative'],
  'cat-it-consulting': ['cat-software-development', 'cat-cloud-devops', 'cat-cybersecurity', 'cat-data-ai'],
  'cat-cloud-devops': ['cat-it-consulting', 'cat-cybersecurity', 'cat-software-development'],
  'cat-cybersecurity': ['cat-cloud-devops', 'cat-it-consulting'],
  'cat-data-ai': ['cat-software-development', 'cat-it-consulting', 'cat-cloud-devops'],
  'cat-software-development': ['cat-web-development', 'cat-mobile-app-development', 'cat-it-consulting', 'cat-data-ai'],
  'cat-branding-creative': ['cat-digital-marketing', 'cat-ui-ux-design'],
};

const ACTIVE_CHILDREN = new Map<string, readonly string[]>(
  CATEGORIES.filter((c) => c.parentId === null).map((top) => [top.id, CATEGORIES.filter((c) => c.parentId === top.id && c.active).map((c) => c.id)]),
);

export function activeChildrenOf(parentId: string): readonly string[] {
  return ACTIVE_CHILDREN.get(parentId) ?? [];
}

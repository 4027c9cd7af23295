/**
 * The embedder's concepts: service synonyms in Indonesian and English. A phrase
 * found in a text adds a concept unit ("toko online", "online store" and
 * "e-commerce" all add `ecommerce`), so paraphrases and cross-language queries
 * share a feature with the profiles they mean even when they share no word.
 * The words themselves stay in the text: the lexicon only adds.
 *
 * These are keyed by concept, not by category slug (services.ts): the built-in
 * embedder's features must not move when a dataset names its categories
 * otherwise, so the two tables stay two; both are looked up the one way, through
 * PhraseTable (longest phrase first, no overlaps).
 *
 * Phrases are written as people write them; they are normalized with the same
 * tokenizer as the text ("ui/ux" -> "ui ux", "e-commerce" -> "e commerce").
 * Changing this table changes the embedder: bump BUILTIN_EMBEDDER_NAME.
 */
import { PhraseTable } from '../phrase-table.ts';
import { normalizeTokens } from '../tokens.ts';

const CONCEPT_PHRASES: Record<string, string> = {
  ecommerce:
    'toko online|toko daring|toko digital|online store|online shop|olshop|e-commerce|ecommerce|e commerce|' +
    'marketplace|webstore|web store|jualan online|jual online|penjualan online|online selling|sell online|' +
    'keranjang belanja|shopping cart|checkout|katalog online|woocommerce|shopify|magento',
  website:
    'website|situs|situs web|web|laman|landing page|halaman web|web development|pengembangan web|webdev|' +
    'web developer|company profile|profil perusahaan|web app|aplikasi web|web application|frontend|' +
    'front end|backend|back end|fullstack|full stack|wordpress|cms|websites',
  wordpress: 'wordpress|wp|elementor|woocommerce|tema wordpress|plugin wordpress',
  mobile:
    'aplikasi android|android|ios|iphone|aplikasi mobile|mobile app|mobile apps|mobile application|' +
    'aplikasi seluler|aplikasi ponsel|aplikasi hp|aplikasi smartphone|flutter|react native|kotlin|swift|' +
    'play store|app store|mobile development|pengembangan aplikasi mobile|aplikasi ios',
  build:
    'bikin|buat|membuat|pembuatan|dibuat|membangun|pembangunan|bangun|build|building|builds|develop|' +
    'developing|development|pengembangan|mengembangkan|create|creating|rancang bangun|implementasi|implementation',
  service: 'jasa|layanan|service|services|vendor|agency|agensi|agency digital|penyedia jasa|provider',
  developer: 'developer|developers|pengembang|programmer|software house|tim developer|engineer|engineers',
  software:
    'software|perangkat lunak|custom software|software custom|aplikasi custom|aplikasi kustom|sistem informasi|' +
    'information system|saas|erp|crm',
  security:
    'keamanan siber|cyber security|cybersecurity|keamanan informasi|information security|infosec|' +
    'penetration testing|pentest|pen test|uji penetrasi|keamanan jaringan|network security|soc|' +
    'security operations|vulnerability|kerentanan|iso 27001|audit keamanan|security audit|firewall|' +
    'ethical hacking|keamanan|security|siber|cyber',
  design:
    'desain|design|designer|desainer|ui|ux|ui ux|ui/ux|user interface|user experience|antarmuka|' +
    'antarmuka pengguna|pengalaman pengguna|figma|prototipe|prototype|wireframe|usability|branding|' +
    'desain grafis|graphic design|logo',
  uiux:
    'ui ux|ui/ux|user interface|user experience|antarmuka pengguna|pengalaman pengguna|usability|' +
    'figma|wireframe|prototipe|prototype|ux research|riset pengguna|user research|design system',
  marketing:
    'pemasaran digital|digital marketing|marketing digital|pemasaran online|online marketing|' +
    'internet marketing|pemasaran|marketing|promosi|promotion|growth|brand awareness',
  seo:
    'seo|search engine optimization|search engine optimisation|optimasi mesin pencari|optimasi seo|' +
    'peringkat google|ranking google|google ranking|halaman pertama google|first page google|' +
    'kata kunci|keyword research|backlink|serp',
  ads:
    'iklan|ads|advertising|periklanan|pasang iklan|google ads|facebook ads|meta ads|instagram ads|' +
    'tiktok ads|ppc|pay per click|sem|adwords|iklan berbayar|paid ads|kampanye iklan|ad campaign|' +
    'performance marketing|iklan digital',
  social:
    'media sosial|social media|sosmed|sosial media|instagram|tiktok|facebook|linkedin|konten|content|' +
    'influencer|social media management|admin sosmed|content creator|copywriting',
  cloud:
    'awan|cloud|komputasi awan|cloud computing|aws|amazon web services|gcp|google cloud|azure|' +
    'server|hosting|migrasi cloud|cloud migration|infrastruktur|infrastructure|data center|pusat data',
  devops:
    'devops|ci cd|ci/cd|cicd|kubernetes|k8s|docker|container|kontainer|terraform|infrastructure as code|' +
    'deployment|sre|site reliability|otomasi|automation|monitoring|pemantauan',
  data:
    'data|analitik|analytics|analisis data|data analytics|big data|business intelligence|dashboard|' +
    'data science|ilmu data|data engineering|rekayasa data|data warehouse|gudang data|visualisasi data|' +
    'data visualization|etl',
  ai:
    'kecerdasan buatan|artificial intelligence|ai|machine learning|pembelajaran mesin|ml|deep learning|' +
    'chatbot|llm|nlp|computer vision|visi komputer|gen ai|generative ai|ai generatif|model prediktif|' +
    'predictive model',
  consulting:
    'konsultan it|it consulting|konsultasi it|it consultant|konsultan teknologi|technology consulting|' +
    'transformasi digital|digital transformation|strategi it|it strategy|konsultan|konsultasi|consulting|' +
    'consultant|advisory|pendampingan',
  smallbusiness: 'umkm|ukm|usaha kecil|usaha mikro|small business|small businesses|sme|smes|startup|startups|rintisan|bisnis kecil',
  affordable: 'murah|terjangkau|affordable|cheap|low cost|hemat|budget friendly|ramah kantong|harga bersaing|competitive price',
  maintenance:
    'maintenance|pemeliharaan|perawatan|support|dukungan|dukungan teknis|technical support|helpdesk|' +
    'after sales|purna jual',
  payment: 'payment gateway|gerbang pembayaran|pembayaran|payment|payments|midtrans|xendit|qris|e wallet|dompet digital',
  health: 'kesehatan|healthcare|health|klinik|clinic|rumah sakit|hospital|medis|medical|farmasi|pharmacy|healthtech',
  education: 'pendidikan|education|sekolah|school|edtech|kampus|universitas|university|kursus|course|e learning|elearning|lms',
  finance: 'keuangan|finance|financial|fintech|perbankan|banking|bank|asuransi|insurance|akuntansi|accounting',
  retail: 'ritel|retail|toko|store|shop|fashion|fmcg',
  manufacturing: 'manufaktur|manufacturing|pabrik|factory|industri|industrial',
  tourism: 'pariwisata|tourism|travel|hotel|perhotelan|hospitality|wisata|tour',
  logistics: 'logistik|logistics|ekspedisi|pengiriman|shipping|delivery|supply chain|rantai pasok|gudang|warehouse',
  government: 'pemerintah|pemerintahan|government|pemda|instansi|public sector|sektor publik|bumn|state owned',
  property: 'properti|property|real estate|perumahan|housing|konstruksi|construction',
  food: 'makanan|kuliner|food|f b|f&b|restoran|restaurant|kafe|cafe|food and beverage|makanan dan minuman',
  agriculture: 'pertanian|agriculture|agritech|perkebunan|plantation|perikanan|fisheries',
  yogyakarta: 'yogyakarta|jogja|jogjakarta|yogya|diy',
  jakarta: 'jakarta|jkt|dki jakarta|jabodetabek',
  surakarta: 'surakarta|solo',
};

/** Every phrase -> the concepts it names (a phrase listed under two concepts adds both), built once at load. */
function conceptTable(): PhraseTable<string[]> {
  // Keyed by the normalized phrase: "ui/ux" and "ui ux" are one phrase, naming the concepts of both.
  const byPhrase = new Map<string, string[]>();
  for (const [concept, phrases] of Object.entries(CONCEPT_PHRASES)) {
    for (const phrase of phrases.split('|')) {
      const key = normalizeTokens(phrase).join(' ');
      if (key === '') continue;
      const concepts = byPhrase.get(key) ?? [];
      if (!concepts.includes(concept)) concepts.push(concept);
      byPhrase.set(key, concepts);
    }
  }
  const table = new PhraseTable<string[]>();
  for (const [phrase, concepts] of byPhrase) table.add(phrase, concepts);
  return table;
}

const CONCEPTS = conceptTable();

/** Every word of the lexicon's phrases (normalized): words the search treats as known, never as typos. */
export const LEXICON_WORDS: ReadonlySet<string> = new Set(CONCEPTS.phrases().flatMap((tokens) => tokens));

/** Concepts named by the (normalized) tokens, longest match first, without overlaps. */
export function findConcepts(tokens: readonly string[]): string[] {
  return CONCEPTS.find(tokens).flatMap((hit) => hit.target);
}

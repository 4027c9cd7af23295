/**
 * A small domain lexicon of service synonyms in Indonesian and English. A phrase
 * found in a text adds a concept unit ("toko online", "online store" and
 * "e-commerce" all add `ecommerce`), so paraphrases and cross-language queries
 * share a feature with the profiles they mean even when they share no word.
 * The words themselves stay in the text: the lexicon only adds.
 *
 * Phrases are written as people write them; they are normalized with the same
 * tokenizer as the text ("ui/ux" -> "ui ux", "e-commerce" -> "e commerce").
 * Changing this table changes the embedder: bump BUILTIN_EMBEDDER_NAME.
 */
import { normalizeTokens } from '../text/tokens.ts';

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

interface PhraseEntry {
  tokens: string[];
  concepts: string[];
}

let byFirstToken: Map<string, PhraseEntry[]> | null = null;

// Built on first use (not at import) so this module and the tokenizer can import each other.
function phraseIndex(): Map<string, PhraseEntry[]> {
  if (byFirstToken) return byFirstToken;
  const byKey = new Map<string, PhraseEntry>();
  for (const [concept, phrases] of Object.entries(CONCEPT_PHRASES)) {
    for (const phrase of phrases.split('|')) {
      const tokens = normalizeTokens(phrase);
      if (tokens.length === 0) continue;
      const key = tokens.join(' ');
      const entry = byKey.get(key) ?? { tokens, concepts: [] };
      if (!entry.concepts.includes(concept)) entry.concepts.push(concept);
      byKey.set(key, entry);
    }
  }
  const index = new Map<string, PhraseEntry[]>();
  for (const entry of byKey.values()) {
    const first = entry.tokens[0]!;
    const list = index.get(first) ?? [];
    list.push(entry);
    index.set(first, list);
  }
  // Longest phrase first, so "aplikasi android" wins over "android".
  for (const list of index.values()) list.sort((a, b) => b.tokens.length - a.tokens.length);
  byFirstToken = index;
  return index;
}

let words: Set<string> | null = null;

/** Every word of the lexicon's phrases (normalized): words the search treats as known, never as typos. */
export function lexiconWords(): ReadonlySet<string> {
  words ??= new Set([...phraseIndex().values()].flatMap((entries) => entries.flatMap((e) => e.tokens)));
  return words;
}

/** Concepts named by the (normalized) tokens, longest match first, without overlaps. */
export function findConcepts(tokens: string[]): string[] {
  const index = phraseIndex();
  const found: string[] = [];
  let i = 0;
  while (i < tokens.length) {
    const candidates = index.get(tokens[i]!);
    let matched = 0;
    if (candidates) {
      for (const entry of candidates) {
        if (entry.tokens.every((t, j) => tokens[i + j] === t)) {
          found.push(...entry.concepts);
          matched = entry.tokens.length;
          break;
        }
      }
    }
    i += matched > 0 ? matched : 1;
  }
  return found;
}

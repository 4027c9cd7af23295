/**
 * The services people name, in Indonesian and English, keyed by the generator's
 * category slugs: the natural-language parser (src/query/nl-query.ts) and the
 * search's synonym groups (src/search/synonyms.ts) read them; a snapshot whose
 * categories are named otherwise is mapped by src/query/nl-query-lexicon-map.ts.
 * The parser keeps only slugs the snapshot has (active), and also matches every
 * snapshot category by its own name and slug, so a dataset with other categories
 * still works, with fewer synonyms. Phrases are looked up through PhraseTable
 * (src/text/phrase-table.ts), as every phrase list of src/text/lexicon is.
 */

/** Service phrases by category slug. Longest phrase wins, so specific beats general. */
export const SERVICE_PHRASES: Readonly<Record<string, string>> = {
  'e-commerce':
    'toko online|toko daring|toko digital|olshop|online shop|online store|ecommerce|e-commerce|e commerce|' +
    'marketplace|webstore|web store|jualan online|jual online|website toko|toko online shopify|shopify|woocommerce|magento|' +
    'keranjang belanja|shopping cart|website jualan',
  wordpress: 'wordpress|wp|elementor|website wordpress|tema wordpress|plugin wordpress',
  'custom-web-apps': 'aplikasi web|web app|web apps|web application|aplikasi berbasis web|sistem berbasis web|portal web',
  'company-profile-websites':
    'company profile|profil perusahaan|compro|website perusahaan|website company profile|situs perusahaan|landing page',
  'web-development':
    'website|websites|situs|situs web|web|webdev|web development|web developer|pengembangan web|pembuatan website|' +
    'bikin website|buat website|jasa website|jasa pembuatan website|frontend|front end|backend|back end|fullstack|full stack',
  'mobile-app-development':
    'aplikasi mobile|mobile app|mobile apps|mobile application|aplikasi hp|aplikasi ponsel|aplikasi smartphone|' +
    'aplikasi seluler|mobile development|app developer|aplikasi handphone|apps',
  android: 'android|aplikasi android|android app|android apps|play store|kotlin',
  ios: 'ios|iphone|ipad|aplikasi ios|ios app|ios apps|app store|swift|aplikasi iphone',
  'flutter-cross-platform': 'flutter|react native|cross platform|cross-platform|lintas platform|multiplatform|hybrid app',
  'digital-marketing':
    'digital marketing|pemasaran digital|marketing digital|pemasaran online|online marketing|internet marketing|' +
    'marketing|pemasaran|promosi online|digital agency|agensi digital|marketing agency',
  seo:
    'seo|jasa seo|search engine optimization|search engine optimisation|optimasi mesin pencari|optimasi seo|' +
    'ranking google|peringkat google|halaman pertama google|first page google|page one google|backlink|backlinks',
  'social-media-ads':
    'iklan|ads|facebook ads|instagram ads|meta ads|tiktok ads|google ads|iklan media sosial|iklan sosmed|social media ads|' +
    'ppc|pay per click|pasang iklan|social media|media sosial|sosmed|sosial media|iklan berbayar|paid ads',
  'content-marketing':
    'content marketing|konten|content|copywriting|copywriter|artikel|blog|content writer|penulisan konten|pemasaran konten',
  'ui-ux-design': 'desain ui ux|desain ux ui|ui ux design|ui ux|ui/ux|uiux|ux ui|desain aplikasi|user experience|user interface|ux|ui|ux designer|ui ux designer|desain produk digital|product design',
  'ux-research': 'ux research|riset pengguna|user research|usability testing|uji usability|riset ux',
  'ui-design': 'ui design|desain ui|desain antarmuka|figma|mockup|desain tampilan|ui designer',
  'it-consulting':
    'konsultan it|it consulting|konsultasi it|it consultant|konsultan teknologi|technology consulting|it advisory|' +
    'konsultan sistem informasi|strategi it|it strategy',
  'digital-transformation': 'transformasi digital|digital transformation|digitalisasi|digitalization|digitisation',
  'erp-implementation': 'erp|implementasi erp|erp implementation|sap|odoo|oracle erp|sistem erp',
  'cloud-devops': 'cloud|aws|amazon web services|gcp|google cloud|azure|komputasi awan|cloud computing|infrastruktur cloud|cloud infrastructure',
  'cloud-migration': 'migrasi cloud|cloud migration|pindah ke cloud|migrate to cloud|migration to cloud|migrasi server',
  devops: 'devops|ci cd|ci/cd|cicd|kubernetes|k8s|docker|terraform|sre|site reliability',
  cybersecurity:
    'keamanan siber|cyber security|cybersecurity|keamanan informasi|information security|infosec|keamanan|security|siber|cyber|keamanan jaringan|network security',
  'penetration-testing': 'pentest|pen test|penetration testing|penetration test|uji penetrasi|ethical hacking|vapt|vulnerability assessment',
  'security-compliance': 'iso 27001|audit keamanan|security audit|kepatuhan keamanan|security compliance|compliance|kepatuhan|audit it|it audit',
  'data-ai': 'data|analitik|analytics|ai|kecerdasan buatan|artificial intelligence|data science|ilmu data|big data',
  'business-intelligence':
    'business intelligence|bi|dashboard|power bi|tableau|looker|analisis data|data analytics|visualisasi data|data visualization|data warehouse|laporan bisnis',
  'machine-learning':
    'machine learning|ml|deep learning|chatbot|chat bot|computer vision|llm|nlp|pembelajaran mesin|model ai|ai model|generative ai|ai generatif|gen ai',
  'software-development':
    'software house|software|perangkat lunak|pengembangan software|software development|pengembangan perangkat lunak|software developer|pembuatan software',
  'custom-software': 'custom software|software custom|aplikasi custom|aplikasi kustom|sistem informasi|aplikasi desktop|desktop app|information system|bespoke software',
  'api-integration': 'integrasi api|api integration|rest api|integrasi sistem|system integration|integrasi payment gateway|payment gateway|integration|integrasi',
  'branding-creative': 'branding|kreatif|creative agency|agensi kreatif|desain grafis|graphic design|creative',
  'brand-identity': 'logo|desain logo|logo design|brand identity|identitas merek|identitas brand|rebranding|brand guideline|brand guidelines',
  'video-production': 'video|produksi video|produksi video company profile|pembuatan video company profile|video production|video company profile|animasi|animation|motion graphic|motion graphics|video iklan|videografi',
};

/**
 * People name a service by who does it: "graphic designer", "desainer grafis",
 * "photographer". Each activity word's agent nouns, so every service phrase that
 * ends or starts with the activity also matches its agent form.
 */
export const AGENT_NOUNS: Readonly<Record<string, readonly string[]>> = {
  design: ['designer', 'designers'],
  desain: ['desainer'],
  development: ['developer', 'developers'],
  pengembangan: ['pengembang'],
  marketing: ['marketer', 'marketers'],
  pemasaran: ['pemasar'],
  photography: ['photographer', 'photographers'],
  fotografi: ['fotografer'],
  videography: ['videographer', 'videographers'],
  videografi: ['videografer'],
  copywriting: ['copywriter', 'copywriters'],
  consulting: ['consultant', 'consultants'],
  konsultasi: ['konsultan'],
  testing: ['tester', 'testers'],
  animation: ['animator', 'animators'],
  animasi: ['animator'],
  programming: ['programmer', 'programmers'],
  management: ['manager', 'managers'],
};

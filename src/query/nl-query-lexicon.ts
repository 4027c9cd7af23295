/**
 * The words the natural-language parser knows, in Indonesian and English. Service
 * phrases point at category slugs; the parser keeps only slugs the snapshot has
 * (active), and also matches every snapshot category by its own name and slug,
 * so a dataset with other categories still works, with fewer synonyms.
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
    'ppc|pay per click|pasang iklan|social media|media sosial|sosmed|sosial media|kelola sosmed|social media management|iklan berbayar|paid ads',
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
 * Informal city names, keyed by alias. A value is a city or a province as the
 * snapshot spells it (matched through citySlug, so case and accents do not matter).
 */
export const CITY_ALIASES: Readonly<Record<string, string>> = {
  jaksel: 'Jakarta Selatan',
  jakbar: 'Jakarta Barat',
  jakpus: 'Jakarta Pusat',
  jakut: 'Jakarta Utara',
  jaktim: 'Jakarta Timur',
  'south jakarta': 'Jakarta Selatan',
  'west jakarta': 'Jakarta Barat',
  'central jakarta': 'Jakarta Pusat',
  'north jakarta': 'Jakarta Utara',
  'east jakarta': 'Jakarta Timur',
  tangsel: 'Tangerang Selatan',
  'south tangerang': 'Tangerang Selatan',
  // "Jogja" is what people call the whole special region (Sleman and Bantul too), "Kota Yogyakarta" the city.
  jogja: 'DI Yogyakarta',
  jogjakarta: 'DI Yogyakarta',
  yogya: 'DI Yogyakarta',
  djogja: 'DI Yogyakarta',
  jogya: 'DI Yogyakarta',
  'kota yogyakarta': 'Yogyakarta',
  'kota jogja': 'Yogyakarta',
  solo: 'Surakarta',
  sby: 'Surabaya',
  bdg: 'Bandung',
  smg: 'Semarang',
  dps: 'Denpasar',
  mks: 'Makassar',
  kl: 'Kuala Lumpur',
  singapura: 'Singapore',
  // "Jakarta" alone is a province of five cities: matched as the province.
  jakarta: 'DKI Jakarta',
  jkt: 'DKI Jakarta',
  'dki jakarta': 'DKI Jakarta',
  'dki': 'DKI Jakarta',
  'di yogyakarta': 'DI Yogyakarta',
  diy: 'DI Yogyakarta',
  jabar: 'Jawa Barat',
  'west java': 'Jawa Barat',
  jatim: 'Jawa Timur',
  'east java': 'Jawa Timur',
  jateng: 'Jawa Tengah',
  'central java': 'Jawa Tengah',
};

/**
 * Regions that span several cities of different provinces, keyed by the names
 * people use; each value lists the cities (as the snapshot spells them, matched
 * through citySlug). A request naming one filters to those cities.
 */
const GREATER_JAKARTA = [
  'Jakarta Selatan', 'Jakarta Barat', 'Jakarta Pusat', 'Jakarta Utara', 'Jakarta Timur', 'Kepulauan Seribu',
  'Bogor', 'Kabupaten Bogor', 'Depok', 'Tangerang', 'Tangerang Selatan', 'Kabupaten Tangerang', 'Bekasi', 'Kabupaten Bekasi',
];
export const REGIONS: Readonly<Record<string, readonly string[]>> = {
  jabodetabek: GREATER_JAKARTA,
  jabotabek: GREATER_JAKARTA,
  jadetabek: GREATER_JAKARTA,
  'greater jakarta': GREATER_JAKARTA,
  'jakarta raya': GREATER_JAKARTA,
  'jakarta metropolitan area': GREATER_JAKARTA,
  bodetabek: ['Bogor', 'Kabupaten Bogor', 'Depok', 'Tangerang', 'Tangerang Selatan', 'Kabupaten Tangerang', 'Bekasi', 'Kabupaten Bekasi'],
  'solo raya': ['Surakarta', 'Sukoharjo', 'Karanganyar', 'Boyolali', 'Klaten', 'Sragen', 'Wonogiri'],
  'greater solo': ['Surakarta', 'Sukoharjo', 'Karanganyar', 'Boyolali', 'Klaten', 'Sragen', 'Wonogiri'],
  gerbangkertosusila: ['Surabaya', 'Gresik', 'Bangkalan', 'Mojokerto', 'Sidoarjo', 'Lamongan'],
  'greater surabaya': ['Surabaya', 'Gresik', 'Sidoarjo'],
  'bandung raya': ['Bandung', 'Kabupaten Bandung', 'Cimahi', 'Bandung Barat', 'Kabupaten Bandung Barat'],
  'greater bandung': ['Bandung', 'Kabupaten Bandung', 'Cimahi', 'Bandung Barat', 'Kabupaten Bandung Barat'],
  sarbagita: ['Denpasar', 'Badung', 'Gianyar', 'Tabanan'],
  mebidangro: ['Medan', 'Binjai', 'Deli Serdang', 'Karo'],
};

/**
 * Words after which a named service only qualifies the one before it: in
 * "graphic designer for social media posts" the service is graphic design.
 */
export const PURPOSE_WORDS: ReadonlySet<string> = new Set(['for', 'untuk', 'buat', 'bagi', 'guna']);

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

/**
 * City names that are also everyday words ("solo developer", "nasi padang",
 * "medan magnet", "malang" = unlucky): they count as a place only after a place
 * word such as "di" or "in".
 */
export const AMBIGUOUS_PLACES: ReadonlySet<string> = new Set(['solo', 'padang', 'malang', 'medan', 'batu', 'dki', 'diy', 'kl']);
export const PLACE_WORDS: ReadonlySet<string> = new Set([
  'di', 'daerah', 'wilayah', 'kota', 'area', 'sekitar', 'dari', 'domisili', 'berbasis', 'lokasi',
  'in', 'near', 'around', 'from', 'based', 'at', 'within',
]);

/** Words that carry no topic in a request ("saya butuh jasa ... yang murah"). */
export const FILLER_WORDS: ReadonlySet<string> = new Set(
  (
    'a an the and or of to in on for with by at from as is are be i we our us you your it its this that me my need needs ' +
    'looking look find finding search want wants please recommend recommendation recommendations best top good great ' +
    'company companies agency agencies vendor vendors provider providers service services who can help ' +
    'under below less than max maximum up budget around about near based within some any build make create develop developer developers ' +
    'yang dan di ke dari untuk dengan pada dalam saya aku kami kita anda ini itu atau juga serta oleh buat bikin membuat ' +
    'pembuatan cari mencari carikan butuh membutuhkan perlu ingin mau minta tolong rekomendasi rekomendasikan terbaik bagus ' +
    'jasa layanan perusahaan penyedia vendor agensi agency tim murah terjangkau budget anggaran dana biaya harga bawah ' +
    'kurang maksimal maks max sampai hingga paling area daerah kota sekitar wilayah berbasis lokasi domisili ada yg dgn utk ' +
    'sebuah satu beberapa bisa dapat tolong dong ya kak gan'
  ).split(' '),
);

/** Words that mark a request as Indonesian (reasons are written in the request's language). */
export const INDONESIAN_MARKERS: ReadonlySet<string> = new Set(
  (
    'yang dan di ke dari untuk dengan saya aku kami butuh cari carikan mencari perlu ingin mau jasa layanan bikin buat ' +
    'membuat pembuatan aplikasi murah terjangkau juta jt ribu rb miliar bawah kurang maksimal sampai hingga kota ' +
    'perusahaan toko daring terbaik rekomendasi tolong anggaran harga biaya desain keamanan pemasaran konsultan iklan ' +
    'situs sosmed yg utk dgn'
  ).split(' '),
);
export const ENGLISH_MARKERS: ReadonlySet<string> = new Set(
  (
    'the and in for with need looking find want build make best top company agency agencies under below less than ' +
    'cheap affordable near based within around please who can i my we our'
  ).split(' '),
);

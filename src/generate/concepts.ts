/**
 * The service concepts the generator writes about: one per leaf category. Each has
 * synonym groups in Indonesian and English, so that one provider says "toko online"
 * and another "e-commerce platform" for the same service; the search evaluation uses
 * these groups (exported, and recorded per provider in ground-truth.ndjson) to grade
 * paraphrase queries.
 */

export interface Concept {
  /** the leaf category this concept belongs to */
  categoryId: string;
  /** ways Indonesian agencies name the service */
  termsId: readonly string[];
  /** ways English-writing agencies name the service */
  termsEn: readonly string[];
  /** what is delivered, Indonesian */
  featuresId: readonly string[];
  /** what is delivered, English */
  featuresEn: readonly string[];
  /** capability tags a provider of this service lists */
  tags: readonly string[];
}

export const CONCEPTS: readonly Concept[] = [
  {
    categoryId: 'cat-e-commerce',
    termsId: ['toko online', 'website toko online', 'pembuatan toko online', 'platform e-commerce', 'integrasi marketplace', 'toko daring'],
    termsEn: ['online store', 'e-commerce platform development', 'marketplace integration', 'ecommerce website', 'webshop', 'online shop'],
    featuresId: ['katalog produk', 'keranjang belanja', 'payment gateway Midtrans dan Xendit', 'sinkronisasi stok dengan Tokopedia dan Shopee', 'ongkos kirim otomatis', 'voucher dan program loyalitas'],
    featuresEn: ['product catalogues', 'shopping carts', 'Midtrans and Xendit payment gateways', 'stock sync with Tokopedia and Shopee', 'automatic shipping rates', 'vouchers and loyalty programmes'],
    tags: ['Shopify', 'WooCommerce', 'Magento', 'Laravel', 'Next.js', 'Midtrans', 'Xendit', 'PrestaShop'],
  },
  {
    categoryId: 'cat-wordpress',
    termsId: ['website WordPress', 'pembuatan website WordPress', 'tema WordPress kustom', 'plugin WordPress', 'maintenance WordPress'],
    termsEn: ['WordPress website', 'custom WordPress theme', 'WordPress plugin development', 'WordPress maintenance', 'WordPress site'],
    featuresId: ['tema kustom', 'page builder Elementor', 'optimasi kecepatan', 'migrasi hosting', 'keamanan dan backup rutin', 'website multibahasa'],
    featuresEn: ['custom themes', 'Elementor page builds', 'speed optimisation', 'hosting migrations', 'security hardening and backups', 'multilingual sites'],
    tags: ['WordPress', 'Elementor', 'WooCommerce', 'PHP', 'ACF', 'WPML'],
  },
  {
    categoryId: 'cat-custom-web-apps',
    termsId: ['aplikasi web kustom', 'pengembangan aplikasi berbasis web', 'sistem informasi berbasis web', 'web app', 'dashboard internal'],
    termsEn: ['custom web application', 'web app development', 'bespoke web platform', 'SaaS product', 'internal web dashboard'],
    featuresId: ['portal pelanggan', 'sistem informasi manajemen', 'dashboard admin', 'API backend', 'aplikasi multi-tenant', 'modul pelaporan'],
    featuresEn: ['customer portals', 'management information systems', 'admin dashboards', 'backend APIs', 'multi-tenant platforms', 'reporting modules'],
    tags: ['Laravel', 'React', 'Vue.js', 'Node.js', 'Django', 'PostgreSQL', 'Next.js', 'Go'],
  },
  {
    categoryId: 'cat-company-profile-websites',
    termsId: ['website company profile', 'website profil perusahaan', 'landing page', 'website korporat', 'pembuatan website'],
    termsEn: ['company profile website', 'corporate website', 'landing page', 'business website', 'website design'],
    featuresId: ['desain responsif', 'SEO dasar', 'formulir kontak', 'integrasi WhatsApp', 'domain dan hosting', 'halaman karier'],
    featuresEn: ['responsive design', 'on-page SEO basics', 'contact forms', 'WhatsApp integration', 'domain and hosting', 'careers pages'],
    tags: ['WordPress', 'Webflow', 'HTML/CSS', 'Tailwind CSS', 'Astro', 'Figma'],
  },
  {
    categoryId: 'cat-android',
    termsId: ['aplikasi android', 'pembuatan aplikasi android', 'aplikasi mobile android', 'apk android', 'aplikasi Play Store'],
    termsEn: ['android app', 'android app development', 'native android application', 'Google Play app', 'android mobile app'],
    featuresId: ['aplikasi kasir', 'aplikasi absensi', 'notifikasi push', 'mode offline', 'integrasi peta dan GPS', 'publikasi ke Play Store'],
    featuresEn: ['point-of-sale apps', 'attendance apps', 'push notifications', 'offline mode', 'maps and GPS integration', 'Play Store publishing'],
    tags: ['Kotlin', 'Java', 'Jetpack Compose', 'Firebase', 'Android SDK'],
  },
  {
    categoryId: 'cat-ios',
    termsId: ['aplikasi iOS', 'aplikasi iPhone', 'pengembangan aplikasi iOS', 'aplikasi App Store'],
    termsEn: ['iOS app', 'iPhone app development', 'native iOS application', 'App Store app', 'iPad app'],
    featuresId: ['antarmuka SwiftUI', 'Apple Pay', 'sinkronisasi iCloud', 'publikasi ke App Store', 'widget iOS'],
    featuresEn: ['SwiftUI interfaces', 'Apple Pay', 'iCloud sync', 'App Store submission', 'iOS widgets'],
    tags: ['Swift', 'SwiftUI', 'Objective-C', 'Firebase', 'TestFlight'],
  },
  {
    categoryId: 'cat-flutter-cross-platform',
    termsId: ['aplikasi Flutter', 'aplikasi lintas platform', 'aplikasi mobile cross-platform', 'aplikasi Android dan iOS sekaligus', 'aplikasi hybrid'],
    termsEn: ['Flutter app', 'cross-platform mobile app', 'React Native app', 'one codebase for Android and iOS', 'hybrid mobile app'],
    featuresId: ['satu kode untuk Android dan iOS', 'aplikasi super app', 'dompet digital', 'aplikasi pemesanan', 'integrasi API'],
    featuresEn: ['one codebase for Android and iOS', 'super apps', 'digital wallets', 'booking apps', 'API integrations'],
    tags: ['Flutter', 'Dart', 'React Native', 'Firebase', 'Expo'],
  },
  {
    categoryId: 'cat-seo',
    termsId: ['SEO profesional', 'optimasi mesin pencari', 'SEO lokal', 'peringkat Google', 'audit SEO'],
    termsEn: ['SEO services', 'search engine optimisation', 'local SEO', 'Google ranking', 'SEO audit'],
    featuresId: ['riset kata kunci', 'optimasi on-page', 'link building', 'SEO teknis', 'Google Business Profile', 'laporan peringkat bulanan'],
    featuresEn: ['keyword research', 'on-page optimisation', 'link building', 'technical SEO', 'Google Business Profile', 'monthly ranking reports'],
    tags: ['SEO audit', 'Ahrefs', 'SEMrush', 'Google Search Console', 'Google Analytics 4', 'Screaming Frog'],
  },
  {
    categoryId: 'cat-social-media-ads',
    termsId: ['iklan media sosial', 'iklan Instagram', 'iklan TikTok', 'Facebook Ads', 'kampanye iklan digital', 'pengelolaan media sosial'],
    termsEn: ['social media ads', 'paid social campaigns', 'Instagram advertising', 'TikTok ads', 'performance marketing', 'social media management'],
    featuresId: ['targeting audiens', 'konten iklan', 'A/B testing kreatif', 'retargeting', 'laporan ROAS', 'kolaborasi influencer'],
    featuresEn: ['audience targeting', 'ad creatives', 'creative A/B testing', 'retargeting', 'ROAS reporting', 'influencer collaborations'],
    tags: ['Meta Ads', 'TikTok Ads', 'Google Ads', 'Instagram', 'LinkedIn Ads', 'Meta Pixel'],
  },
  {
    categoryId: 'cat-content-marketing',
    termsId: ['content marketing', 'penulisan artikel', 'copywriting', 'strategi konten', 'konten blog'],
    termsEn: ['content marketing', 'copywriting', 'blog content', 'content strategy', 'brand storytelling'],
    featuresId: ['artikel SEO', 'kalender konten', 'newsletter email', 'video pendek', 'whitepaper'],
    featuresEn: ['SEO articles', 'content calendars', 'email newsletters', 'short-form video', 'whitepapers'],
    tags: ['Copywriting', 'Mailchimp', 'HubSpot', 'Canva', 'Google Analytics 4'],
  },
  {
    categoryId: 'cat-ux-research',
    termsId: ['riset UX', 'riset pengguna', 'uji usabilitas', 'user research', 'audit UX'],
    termsEn: ['UX research', 'user research', 'usability testing', 'UX audit', 'customer journey mapping'],
    featuresId: ['wawancara pengguna', 'persona', 'customer journey', 'uji usabilitas', 'heuristic review'],
    featuresEn: ['user interviews', 'personas', 'journey maps', 'usability tests', 'heuristic reviews'],
    tags: ['Figma', 'Maze', 'Hotjar', 'Miro', 'Design Thinking'],
  },
  {
    categoryId: 'cat-ui-design',
    termsId: ['desain UI', 'desain antarmuka', 'desain aplikasi', 'UI/UX design', 'desain website'],
    termsEn: ['UI design', 'interface design', 'app design', 'product design', 'design system'],
    featuresId: ['wireframe', 'prototipe interaktif', 'design system', 'desain aplikasi mobile', 'redesign website'],
    featuresEn: ['wireframes', 'interactive prototypes', 'design systems', 'mobile app screens', 'website redesigns'],
    tags: ['Figma', 'Adobe XD', 'Sketch', 'Framer', 'Prototyping'],
  },
  {
    categoryId: 'cat-digital-transformation',
    termsId: ['transformasi digital', 'konsultan IT', 'strategi teknologi', 'digitalisasi proses bisnis', 'IT roadmap'],
    termsEn: ['digital transformation', 'IT consulting', 'technology strategy', 'business process digitisation', 'IT roadmap'],
    featuresId: ['audit sistem IT', 'penyusunan roadmap', 'pemilihan vendor', 'manajemen proyek IT', 'IT outsourcing'],
    featuresEn: ['IT systems audits', 'roadmap planning', 'vendor selection', 'IT project management', 'IT outsourcing'],
    tags: ['TOGAF', 'ITIL', 'Scrum', 'Microsoft 365', 'Google Workspace'],
  },
  {
    categoryId: 'cat-erp-implementation',
    termsId: ['implementasi ERP', 'sistem ERP', 'software akuntansi', 'implementasi Odoo', 'sistem manajemen inventaris'],
    termsEn: ['ERP implementation', 'ERP system', 'accounting software rollout', 'Odoo implementation', 'inventory management system'],
    featuresId: ['modul akuntansi', 'manajemen gudang', 'modul HR dan payroll', 'migrasi data', 'pelatihan pengguna'],
    featuresEn: ['accounting modules', 'warehouse management', 'HR and payroll modules', 'data migration', 'user training'],
    tags: ['Odoo', 'SAP Business One', 'Microsoft Dynamics', 'Accurate', 'ERPNext'],
  },
  {
    categoryId: 'cat-cloud-migration',
    termsId: ['migrasi cloud', 'layanan cloud', 'cloud hosting', 'pindah ke cloud', 'arsitektur cloud'],
    termsEn: ['cloud migration', 'cloud services', 'cloud hosting', 'move to the cloud', 'cloud architecture'],
    featuresId: ['migrasi server', 'optimasi biaya cloud', 'disaster recovery', 'arsitektur multi-region', 'managed services'],
    featuresEn: ['server migrations', 'cloud cost optimisation', 'disaster recovery', 'multi-region architectures', 'managed services'],
    tags: ['AWS', 'Google Cloud', 'Microsoft Azure', 'Alibaba Cloud', 'Terraform'],
  },
  {
    categoryId: 'cat-devops',
    termsId: ['DevOps', 'otomasi deployment', 'CI/CD', 'container dan Kubernetes', 'infrastruktur sebagai kode'],
    termsEn: ['DevOps', 'CI/CD pipelines', 'deployment automation', 'Kubernetes', 'infrastructure as code', 'site reliability engineering'],
    featuresId: ['pipeline CI/CD', 'monitoring 24/7', 'containerisasi', 'autoscaling', 'observability'],
    featuresEn: ['CI/CD pipelines', '24/7 monitoring', 'containerisation', 'autoscaling', 'observability'],
    tags: ['Kubernetes', 'Docker', 'Terraform', 'GitLab CI', 'GitHub Actions', 'Prometheus', 'Grafana'],
  },
  {
    categoryId: 'cat-penetration-testing',
    termsId: ['penetration testing', 'uji penetrasi', 'pentest', 'uji keamanan aplikasi', 'ethical hacking'],
    termsEn: ['penetration testing', 'pentest', 'ethical hacking', 'vulnerability assessment', 'red teaming'],
    featuresId: ['VAPT aplikasi web', 'uji keamanan aplikasi mobile', 'uji jaringan internal', 'laporan kerentanan', 'retest setelah perbaikan'],
    featuresEn: ['web application VAPT', 'mobile app security testing', 'internal network tests', 'vulnerability reports', 'retests after fixes'],
    tags: ['penetration testing', 'OWASP', 'Burp Suite', 'Kali Linux', 'Nessus'],
  },
  {
    categoryId: 'cat-security-compliance',
    termsId: ['keamanan siber', 'audit keamanan', 'sertifikasi ISO 27001', 'kepatuhan UU PDP', 'keamanan informasi'],
    termsEn: ['cybersecurity', 'security audit', 'ISO 27001 certification', 'data protection compliance', 'information security'],
    featuresId: ['gap analysis ISO 27001', 'kebijakan keamanan', 'pelatihan kesadaran keamanan', 'SOC dan monitoring', 'respons insiden'],
    featuresEn: ['ISO 27001 gap analyses', 'security policies', 'security awareness training', 'SOC monitoring', 'incident response'],
    tags: ['ISO 27001', 'SIEM', 'SOC', 'UU PDP', 'Wazuh'],
  },
  {
    categoryId: 'cat-business-intelligence',
    termsId: ['business intelligence', 'analisis data', 'dashboard data', 'visualisasi data', 'data warehouse'],
    termsEn: ['business intelligence', 'data analytics', 'data dashboards', 'data visualisation', 'data warehouse'],
    featuresId: ['dashboard penjualan', 'pipeline ETL', 'data warehouse', 'laporan otomatis', 'analisis pelanggan'],
    featuresEn: ['sales dashboards', 'ETL pipelines', 'data warehouses', 'automated reports', 'customer analytics'],
    tags: ['Power BI', 'Tableau', 'Looker Studio', 'BigQuery', 'Python', 'dbt'],
  },
  {
    categoryId: 'cat-machine-learning',
    termsId: ['kecerdasan buatan', 'machine learning', 'chatbot AI', 'solusi AI', 'computer vision'],
    termsEn: ['artificial intelligence', 'machine learning', 'AI chatbot', 'AI solutions', 'computer vision', 'generative AI'],
    featuresId: ['chatbot WhatsApp', 'prediksi permintaan', 'OCR dokumen', 'rekomendasi produk', 'deteksi penipuan'],
    featuresEn: ['WhatsApp chatbots', 'demand forecasting', 'document OCR', 'product recommendations', 'fraud detection'],
    tags: ['TensorFlow', 'PyTorch', 'Python', 'OpenAI API', 'LangChain', 'scikit-learn'],
  },
  {
    categoryId: 'cat-custom-software',
    termsId: ['software house', 'pengembangan software', 'pembuatan aplikasi kustom', 'software custom', 'outsourcing developer'],
    termsEn: ['software house', 'custom software development', 'bespoke software', 'software outsourcing', 'dedicated development team'],
    featuresId: ['aplikasi desktop', 'sistem POS', 'aplikasi manajemen sekolah', 'tim developer dedicated', 'maintenance aplikasi'],
    featuresEn: ['desktop applications', 'POS systems', 'school management systems', 'dedicated developer teams', 'application maintenance'],
    tags: ['Java', '.NET', 'Go', 'Python', 'PostgreSQL', 'Scrum'],
  },
  {
    categoryId: 'cat-api-integration',
    termsId: ['integrasi sistem', 'integrasi API', 'middleware', 'integrasi payment gateway', 'sinkronisasi data antar sistem'],
    termsEn: ['system integration', 'API integration', 'middleware', 'payment gateway integration', 'data synchronisation'],
    featuresId: ['integrasi e-Faktur', 'integrasi BPJS', 'API perbankan', 'webhook', 'integrasi ERP'],
    featuresEn: ['e-Faktur integration', 'BPJS integration', 'banking APIs', 'webhooks', 'ERP integration'],
    tags: ['REST API', 'GraphQL', 'Node.js', 'Kafka', 'RabbitMQ'],
  },
  {
    categoryId: 'cat-brand-identity',
    termsId: ['desain logo', 'identitas merek', 'branding', 'brand guideline', 'desain kemasan'],
    termsEn: ['logo design', 'brand identity', 'branding', 'brand guidelines', 'packaging design'],
    featuresId: ['logo', 'panduan merek', 'desain kemasan', 'materi promosi', 'rebranding'],
    featuresEn: ['logos', 'brand books', 'packaging', 'marketing collateral', 'rebrands'],
    tags: ['Adobe Illustrator', 'Photoshop', 'Brand strategy', 'Canva', 'Figma'],
  },
  {
    categoryId: 'cat-video-production',
    termsId: ['produksi video', 'video company profile', 'motion graphic', 'video iklan', 'animasi 2D'],
    termsEn: ['video production', 'corporate video', 'motion graphics', 'commercial video', '2D animation'],
    featuresId: ['video profil perusahaan', 'video produk', 'animasi explainer', 'konten reels', 'fotografi produk'],
    featuresEn: ['company profile videos', 'product videos', 'explainer animations', 'reels content', 'product photography'],
    tags: ['Adobe Premiere', 'After Effects', 'DaVinci Resolve', 'Blender'],
  },
  {
    categoryId: 'cat-nft-development',
    termsId: ['pengembangan NFT', 'smart contract', 'aplikasi blockchain'],
    termsEn: ['NFT development', 'smart contracts', 'blockchain apps'],
    featuresId: ['marketplace NFT', 'smart contract Solidity', 'integrasi dompet kripto'],
    featuresEn: ['NFT marketplaces', 'Solidity smart contracts', 'crypto wallet integration'],
    tags: ['Solidity', 'Ethereum', 'Web3.js'],
  },
];

export const CONCEPT_BY_CATEGORY: ReadonlyMap<string, Concept> = new Map(CONCEPTS.map((c) => [c.categoryId, c]));

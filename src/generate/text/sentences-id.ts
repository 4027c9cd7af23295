/**
 * Indonesian sentence pools for provider descriptions and taglines. Each slot has
 * many templates with alternatives; `describe.ts` picks slots, order and length.
 */
export const ID_POOLS = {
  intro: [
    '$name adalah {agensi digital|software house|studio digital|konsultan teknologi|tim developer} asal $city yang {fokus pada|berspesialisasi dalam|dikenal lewat} $term.',
    '{Berdiri|Didirikan} di $city pada $since, $name {membantu|mendampingi} {UMKM|perusahaan|brand lokal|startup} {membangun|mengembangkan|meluncurkan} $term.',
    '$name {menyediakan|menawarkan} {jasa|layanan} $term {untuk bisnis di|bagi klien di|dari kantor kami di} $city {dan seluruh Indonesia|dan kota-kota lain|}.',
    'Butuh $term? $name {siap membantu|hadir untuk Anda|punya tim yang berpengalaman} {dari|dengan basis di} $city.',
    'Kami di $name {percaya|yakin} bahwa $term yang {baik|tepat|dikerjakan serius} {bisa|dapat} {mendongkrak penjualan|mempercepat pertumbuhan bisnis|memudahkan pelanggan}.',
    '$name {merupakan|adalah} {penyedia|vendor} $term {yang berkantor di|dengan tim di} $city, {aktif sejak|beroperasi sejak} $since.',
    '{Sejak|Mulai} $since, $name {mengerjakan|menangani} {proyek|pekerjaan} $term untuk {klien|pelanggan} {di $city|di berbagai kota|lokal dan mancanegara}.',
    '{Spesialis|Ahli} $term dari $city: {itulah|begitulah} $name {dikenal oleh kliennya|dikenal sejak $since|menggambarkan dirinya}.',
  ],
  services: [
    '{Layanan|Cakupan layanan|Paket} kami {meliputi|mencakup|termasuk} $features.',
    '{Kami|Tim kami} {mengerjakan|menangani|membangun} $features {dari awal hingga go-live|sesuai kebutuhan Anda|dengan standar yang jelas}.',
    'Untuk $term, kami {menyiapkan|mengerjakan} $features {sekaligus|dalam satu paket|secara terpadu}.',
    '{Mulai dari|Dari} $feature {hingga|sampai} $feature, {semuanya|seluruhnya} {kami tangani|dikerjakan oleh tim internal}.',
    'Klien {biasanya|umumnya|paling sering} {datang kepada kami|menghubungi kami} untuk $term {dan|serta} $feature.',
    '{Fokus kami|Keahlian utama kami} adalah $term, {termasuk|khususnya} $features.',
  ],
  secondary: [
    'Selain itu, {kami juga|tim kami juga} {menangani|melayani|mengerjakan} $term2.',
    '{Kami juga menawarkan|Tersedia juga layanan} $term2 {bagi klien yang membutuhkan|sebagai layanan tambahan|untuk melengkapi proyek utama}.',
    '{Banyak|Sebagian} klien {juga|sekaligus} {mempercayakan|menyerahkan} $term2 kepada {tim yang sama|kami}.',
    'Di luar $term, {kami punya|ada} tim {khusus|terpisah} untuk $term2.',
  ],
  tech: [
    '{Kami bekerja dengan|Tools yang kami gunakan antara lain|Andalan kami:} $tags.',
    '{Tim kami|Para spesialis kami} {menguasai|terbiasa dengan|bersertifikat} $tags.',
    '{Kami memilih|Pilihan teknologi kami} $tags {karena|agar} {mudah dirawat|stabil dan teruji|cepat dikembangkan}.',
    'Proyek kami {dibangun|dikembangkan} {dengan|menggunakan} $tags {dan didokumentasikan dengan rapi|serta diuji sebelum rilis|}.',
  ],
  clients: [
    '{Klien kami|Pelanggan kami} {berasal dari|datang dari|tersebar di} {sektor|industri|bidang} $industries.',
    '{Kami|Tim kami} {berpengalaman|punya pengalaman} {melayani|menangani} {bisnis|perusahaan} $industries.',
    '{Lebih dari|Sudah} $clients {klien|brand|perusahaan} {mempercayakan proyeknya kepada kami|bekerja sama dengan kami}, {terutama|banyak di antaranya} di {sektor|bidang} $industry.',
    'Kami {memahami|mengerti} kebutuhan {industri|sektor} $industries {karena sudah lama bekerja di sana|dari pengalaman langsung}.',
  ],
  experience: [
    '{Sejak|Mulai} $since, kami {telah|sudah} {menyelesaikan|mengerjakan} {lebih dari|sekitar|hampir} $projects proyek.',
    '{Tim kami|Kami} {terdiri dari|beranggotakan} $team {orang|profesional|developer dan desainer} {yang berpengalaman|dengan latar belakang beragam|}.',
    '{Dengan|Berbekal} pengalaman {lebih dari|hampir} $yearsCount tahun, kami {tahu|paham} {apa yang membuat proyek berhasil|risiko yang sering muncul}.',
    '{Portofolio kami|Rekam jejak kami} mencakup $projects proyek {untuk|bersama} $clients klien.',
  ],
  process: [
    '{Setiap|Tiap} proyek {dimulai dengan|diawali} {sesi discovery|workshop kebutuhan|analisis kebutuhan} {bersama klien|gratis|selama $days hari}.',
    'Kami {bekerja|menjalankan proyek} {dengan metode|secara} {Agile|Scrum|sprint dua mingguan} {dan demo rutin|agar klien bisa memantau progres|dengan laporan mingguan}.',
    '{Komunikasi|Koordinasi} {dilakukan|berjalan} lewat {WhatsApp|Slack|Google Meet} {dengan project manager khusus|setiap pekan|tanpa ribet}.',
    '{Anda|Klien} {mendapat|menerima} {timeline|jadwal} dan {penawaran|estimasi biaya} {yang jelas|tertulis} {dalam $days hari kerja|sebelum proyek dimulai}.',
    'MVP {bisa|dapat} {diluncurkan|siap} dalam $weeks minggu, {lalu dikembangkan bertahap|kemudian disempurnakan bersama pengguna}.',
  ],
  guarantee: [
    '{Kami memberikan|Tersedia|Setiap proyek mendapat} garansi {bug|perbaikan} $months bulan {setelah serah terima|tanpa biaya tambahan}.',
    '{Source code|Seluruh kode} {menjadi milik|diserahkan sepenuhnya kepada} klien {setelah pelunasan|di akhir proyek}.',
    '{Dukungan|Support} {teknis|purna jual} {tersedia|kami sediakan} $months bulan {setelah peluncuran|tanpa tambahan biaya}.',
    'Pembayaran {bisa|dapat} {dicicil|dibagi} per {milestone|tahap} {agar lebih ringan|sesuai progres}.',
  ],
  location: [
    '{Kantor kami|Studio kami|Tim inti kami} {berada|berlokasi} di $city, {tetapi|namun} kami {melayani|bekerja dengan} klien {di seluruh Indonesia|secara remote|dari berbagai kota}.',
    '{Bagi|Untuk} klien di $city, kami {siap|bisa} {bertemu langsung|datang ke kantor Anda} {untuk kick-off|kapan saja dibutuhkan}.',
  ],
  example: [
    '{Contoh proyek|Salah satu proyek} {terbaru|kami}: $feature untuk {klien|perusahaan} $industry {di $city|di kota lain|di luar negeri}, {selesai dalam|rampung dalam} $weeks minggu.',
    '{Misalnya|Sebagai contoh}, kami {membangun|mengerjakan|meluncurkan} $feature untuk {brand|klien} $industry {yang ingin|yang perlu} {jualan online|operasional lebih cepat|laporan yang lebih rapi}.',
    '{Permintaan|Kebutuhan} yang {sering|paling sering} datang dari klien $industry: $features.',
  ],
  values: [
    '{Tim kami|Kami} {sengaja|memang} {dibuat ramping|dijaga kecil} agar {orang senior|tim yang Anda temui} {yang benar-benar mengerjakan proyek|tetap memegang proyek Anda}.',
    '{Transparansi|Estimasi yang jujur} {nomor satu|kami utamakan}: {tanpa biaya tersembunyi|harga tetap per tahap|progres bisa dipantau} {sejak hari pertama|selama proyek berjalan}.',
    '{Ukuran keberhasilan kami|Kami mengukur keberhasilan dari} {hasil bisnis Anda|konversi|uptime dan kepuasan pengguna}, bukan {jumlah jam kerja|tebalnya presentasi}.',
  ],
  closing: [
    '{Hubungi|Kontak} kami {untuk konsultasi gratis|untuk diskusi awal|lewat WhatsApp} {dan dapatkan penawaran|hari ini|}.',
    '{Mari|Yuk} {diskusikan|bicarakan} {proyek|kebutuhan} $term Anda {bersama kami|dengan tim $name}.',
    '{Jadwalkan|Atur} {sesi konsultasi|meeting} {gratis|30 menit} {dengan tim kami|sekarang}.',
  ],
  tagline: [
    '{Jasa|Layanan} $term {terpercaya|profesional|berkualitas} di $city',
    '$term {untuk|bagi} {UMKM dan korporasi|bisnis yang ingin tumbuh|brand Indonesia}',
    '{Partner|Mitra} $term {Anda|terpercaya} {sejak $since|di $city}',
    '{Solusi|Spesialis} $term {yang terukur|tanpa ribet|dari $city}',
    '{Wujudkan|Bangun} $term {impian Anda|yang menjual|bersama kami}',
  ],
} as const;

/** Word lists of requests: purpose words, filler words, and the words that tell the language. */

/**
 * Words after which a named service only qualifies the one before it: in
 * "graphic designer for social media posts" the service is graphic design.
 */
export const PURPOSE_WORDS: ReadonlySet<string> = new Set(['for', 'untuk', 'buat', 'bagi', 'guna']);

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

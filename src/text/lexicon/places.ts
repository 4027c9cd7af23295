/** Place names of requests: informal city names, regions, and the words that mark a place. */

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
 * City names that are also everyday words ("solo developer", "nasi padang",
 * "medan magnet", "malang" = unlucky): they count as a place only after a place
 * word such as "di" or "in".
 */
export const AMBIGUOUS_PLACES: ReadonlySet<string> = new Set(['solo', 'padang', 'malang', 'medan', 'batu', 'dki', 'diy', 'kl']);
export const PLACE_WORDS: ReadonlySet<string> = new Set([
  'di', 'daerah', 'wilayah', 'kota', 'area', 'sekitar', 'dekat', 'dari', 'domisili', 'berbasis', 'lokasi',
  'in', 'near', 'around', 'from', 'based', 'at', 'within', 'nearby',
]);

/**
 * Where generated providers are based: Indonesian cities weighted roughly by how many
 * digital agencies they hold, a few neighbours (SG, MY), and the spellings people
 * actually type ("Denpasar" mostly, sometimes "denpasar" or "DENPASAR"), which must
 * normalize to one citySlug.
 */

export interface Place {
  city: string;
  province: string | null;
  country: string;
  weight: number;
  /** other spellings of this city seen in submissions, with their share of its providers */
  variants?: ReadonlyArray<readonly [string, number]>;
}

export const PLACES: readonly Place[] = [
  { city: 'Jakarta Selatan', province: 'DKI Jakarta', country: 'ID', weight: 120 },
  { city: 'Jakarta Barat', province: 'DKI Jakarta', country: 'ID', weight: 45 },
  { city: 'Jakarta Pusat', province: 'DKI Jakarta', country: 'ID', weight: 40 },
  { city: 'Jakarta Utara', province: 'DKI Jakarta', country: 'ID', weight: 22 },
  { city: 'Jakarta Timur', province: 'DKI Jakarta', country: 'ID', weight: 20 },
  { city: 'Tangerang Selatan', province: 'Banten', country: 'ID', weight: 24 },
  { city: 'Tangerang', province: 'Banten', country: 'ID', weight: 20 },
  { city: 'Bekasi', province: 'Jawa Barat', country: 'ID', weight: 18 },
  { city: 'Depok', province: 'Jawa Barat', country: 'ID', weight: 14 },
  { city: 'Bogor', province: 'Jawa Barat', country: 'ID', weight: 14 },
  { city: 'Bandung', province: 'Jawa Barat', country: 'ID', weight: 60, variants: [['bandung', 0.04]] },
  { city: 'Surabaya', province: 'Jawa Timur', country: 'ID', weight: 55 },
  { city: 'Malang', province: 'Jawa Timur', country: 'ID', weight: 22 },
  { city: 'Sidoarjo', province: 'Jawa Timur', country: 'ID', weight: 8 },
  { city: 'Yogyakarta', province: 'DI Yogyakarta', country: 'ID', weight: 45 },
  { city: 'Sleman', province: 'DI Yogyakarta', country: 'ID', weight: 12 },
  { city: 'Semarang', province: 'Jawa Tengah', country: 'ID', weight: 26 },
  { city: 'Surakarta', province: 'Jawa Tengah', country: 'ID', weight: 12 },
  { city: 'Denpasar', province: 'Bali', country: 'ID', weight: 24, variants: [['denpasar', 0.12], ['DENPASAR', 0.06]] },
  { city: 'Badung', province: 'Bali', country: 'ID', weight: 8 },
  { city: 'Medan', province: 'Sumatera Utara', country: 'ID', weight: 22 },
  { city: 'Palembang', province: 'Sumatera Selatan', country: 'ID', weight: 11 },
  { city: 'Pekanbaru', province: 'Riau', country: 'ID', weight: 9 },
  { city: 'Batam', province: 'Kepulauan Riau', country: 'ID', weight: 11 },
  { city: 'Padang', province: 'Sumatera Barat', country: 'ID', weight: 7 },
  { city: 'Bandar Lampung', province: 'Lampung', country: 'ID', weight: 6 },
  { city: 'Makassar', province: 'Sulawesi Selatan', country: 'ID', weight: 16 },
  { city: 'Manado', province: 'Sulawesi Utara', country: 'ID', weight: 6 },
  { city: 'Balikpapan', province: 'Kalimantan Timur', country: 'ID', weight: 8 },
  { city: 'Samarinda', province: 'Kalimantan Timur', country: 'ID', weight: 5 },
  { city: 'Pontianak', province: 'Kalimantan Barat', country: 'ID', weight: 6 },
  { city: 'Banjarmasin', province: 'Kalimantan Selatan', country: 'ID', weight: 5 },
  { city: 'Mataram', province: 'Nusa Tenggara Barat', country: 'ID', weight: 4 },
  { city: 'Kupang', province: 'Nusa Tenggara Timur', country: 'ID', weight: 2 },
  { city: 'Jayapura', province: 'Papua', country: 'ID', weight: 2 },
  { city: 'Singapore', province: null, country: 'SG', weight: 6 },
  { city: 'Kuala Lumpur', province: 'Wilayah Persekutuan Kuala Lumpur', country: 'MY', weight: 4 },
  { city: 'Johor Bahru', province: 'Johor', country: 'MY', weight: 2 },
];

export const PLACE_WEIGHTS: ReadonlyArray<readonly [Place, number]> = PLACES.map((p) => [p, p.weight]);

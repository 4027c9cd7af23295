/**
 * Company names as Indonesian agencies choose them: a legal prefix now and then
 * (PT, CV), an Indonesian or Sanskrit-rooted word, an English trade word, or both.
 * Names never end in a digit, so a "-2" slug suffix can only come from de-duplication.
 */
import type { Random } from './random.ts';

const ROOTS = [
  'Nusantara', 'Kreasi', 'Karya', 'Cipta', 'Sinergi', 'Inovasi', 'Solusi', 'Mitra', 'Bumi', 'Cahaya',
  'Arunika', 'Baskara', 'Laksana', 'Aksara', 'Cakra', 'Dharma', 'Garuda', 'Rajawali', 'Samudra', 'Semesta',
  'Prima', 'Sentosa', 'Kencana', 'Mandala', 'Pelangi', 'Bintang', 'Awan', 'Langit', 'Tirta', 'Rimba',
  'Senja', 'Pijar', 'Lentera', 'Kilau', 'Nalar', 'Ruang', 'Titik', 'Jembatan', 'Akar', 'Tunas',
  'Wijaya', 'Mahakam', 'Merapi', 'Bromo', 'Rinjani', 'Toba', 'Kawi', 'Lawu', 'Sagara', 'Bahari',
  'Angkasa', 'Gemilang', 'Sejahtera', 'Utama', 'Mulia', 'Sakti', 'Wira', 'Bijak', 'Cerdas', 'Lincah',
  'Kirana', 'Anindya', 'Nawasena', 'Swastika', 'Dirgantara', 'Pusaka', 'Adhi', 'Satya', 'Bhakti', 'Gita',
  'Kopi', 'Rempah', 'Batik', 'Wayang', 'Bambu', 'Jati', 'Cendana', 'Melati', 'Anggrek', 'Kenari',
  'Tiga Dimensi', 'Lima Benua', 'Sembilan', 'Satu Data', 'Dua Sisi', 'Ide', 'Gagas', 'Rupa', 'Warna', 'Kanvas',
];

const TRADE_WORDS = [
  'Digital', 'Tech', 'Teknologi', 'Media', 'Studio', 'Labs', 'Works', 'Solutions', 'Interactive', 'Creative',
  'Systems', 'Hub', 'Forge', 'Logic', 'Pixel', 'Byte', 'Cloud', 'Code', 'Kode', 'Data',
  'Informatika', 'Sistem', 'Kreatif', 'Agency', 'Dev', 'Apps', 'Soft', 'Web', 'Consulting', 'Security',
];

const TAILS = ['Indonesia', 'Nusantara', 'Asia', 'Group', 'Global', 'Mandiri', 'Perkasa', 'Abadi', 'Jaya', 'Raya'];

export function companyName(rng: Random): string {
  const root = rng.pick(ROOTS);
  const shape = rng.weighted([
    ['root trade', 40],
    ['trade root', 12],
    ['root root', 10],
    ['root trade tail', 14],
    ['root', 4],
    ['rootword', 8],
    ['root trade root', 6],
    ['initials trade', 6],
  ] as const);
  let core: string;
  switch (shape) {
    case 'root trade':
      core = `${root} ${rng.pick(TRADE_WORDS)}`;
      break;
    case 'trade root':
      core = `${rng.pick(TRADE_WORDS)} ${root}`;
      break;
    case 'root root':
      core = `${root} ${otherRoot(rng, root)}`;
      break;
    case 'root trade tail':
      core = `${root} ${rng.pick(TRADE_WORDS)} ${rng.pick(TAILS)}`;
      break;
    case 'root':
      core = root;
      break;
    case 'rootword':
      // one-word brand names such as "Kodekopi" or "Pixelnusa"
      core = `${rng.pick(TRADE_WORDS)}${rng.pick(ROOTS).toLowerCase().replace(/\s+/g, '').slice(0, rng.int(3, 6))}`;
      break;
    case 'root trade root':
      core = `${root} ${rng.pick(TRADE_WORDS)} ${otherRoot(rng, root)}`;
      break;
    case 'initials trade':
      core = `${String.fromCharCode(65 + rng.int(0, 25))}${String.fromCharCode(65 + rng.int(0, 25))} ${rng.pick(TRADE_WORDS)}`;
      break;
  }
  const legal = rng.weighted([
    ['', 62],
    ['PT ', 30],
    ['CV ', 8],
  ] as const);
  return `${legal}${core}`;
}

function otherRoot(rng: Random, root: string): string {
  let other = rng.pick(ROOTS);
  while (other === root) other = rng.pick(ROOTS);
  return other;
}

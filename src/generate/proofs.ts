/**
 * Proofs of work (0-5 per provider) of every kind and status, some public, some not:
 * the snapshot must only ever show approved, public ones of published providers.
 */
import type { ProofRecord, SubmissionStatus } from '../schemas/dataset.ts';
import type { Concept } from './concepts.ts';
import { daysBetween, isoAfter, WINDOW_END, WINDOW_START } from './dates.ts';
import type { Random } from './random.ts';

const KINDS = [['case_study', 30], ['portfolio', 30], ['client_testimonial', 20], ['certification', 12], ['award', 8]] as const;

const CLIENTS = ['Toko Batik Sekar', 'Koperasi Maju Bersama', 'RS Harapan Sehat', 'Kopi Kenangan Senja', 'Bank Daerah Nusantara', 'Universitas Cendekia', 'Dinas Pariwisata', 'PT Logistik Cepat', 'Hotel Pantai Indah', 'Klinik Pratama Sehat', 'Sekolah Bina Bangsa', 'Rumah Makan Padang Sederhana'];
const CERTS = ['ISO 27001', 'Google Partner', 'Meta Business Partner', 'AWS Select Tier Partner', 'Shopify Partner', 'Odoo Ready Partner', 'ISO 9001'];
const AWARDS = ['Top Agency Award 2025', 'Indonesia Digital Award 2025', 'Best UX Jakarta 2024', 'Startup Partner of the Year 2025'];

const PROOF_STATUS = [['approved', 78], ['pending', 9], ['draft', 4], ['rejected', 5], ['suspended', 4]] as const;

export function proofsFor(rng: Random, providerId: string, providerNumber: number, slug: string, concept: Concept, website: string | null): ProofRecord[] {
  const count = rng.weighted([[0, 22], [1, 24], [2, 22], [3, 16], [4, 10], [5, 6]] as const);
  const proofs: ProofRecord[] = [];
  for (let k = 1; k <= count; k++) {
    const kind = rng.weighted(KINDS);
    const status: SubmissionStatus = rng.weighted(PROOF_STATUS);
    proofs.push({
      id: `prf-${String(providerNumber).padStart(6, '0')}-${k}`,
      providerId,
      title: proofTitle(rng, kind, concept),
      kind,
      url: rng.chance(0.75) ? `${website ?? `https://portfolio.example.id/${slug}`}/${kind.replace(/_/g, '-')}-${k}` : null,
      submissionStatus: status,
      isPublic: rng.chance(0.82),
      createdAt: isoAfter(WINDOW_START, rng.int(0, daysBetween(WINDOW_START, WINDOW_END)), rng.int(60, 660)),
    });
  }
  return proofs;
}

function proofTitle(rng: Random, kind: string, concept: Concept): string {
  const client = rng.pick(CLIENTS);
  const term = rng.pick(rng.chance(0.5) ? concept.termsId : concept.termsEn);
  switch (kind) {
    case 'case_study':
      return rng.chance(0.5) ? `Studi kasus: ${term} untuk ${client}` : `Case study: ${term} for ${client}`;
    case 'portfolio':
      return `${client}: ${term}`;
    case 'client_testimonial':
      return rng.chance(0.5) ? `Testimoni dari ${client}` : `Testimonial from ${client}`;
    case 'certification':
      return rng.pick(CERTS);
    default:
      return rng.pick(AWARDS);
  }
}

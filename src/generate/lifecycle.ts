/**
 * Where a generated profile stands in moderation and where its data came from:
 * submission status (about 85% approved), publication and update dates, dashboard
 * notes that must never reach a public reader (prefixed "MODNOTE:" and "INTERNAL:" so
 * a leak is easy to spot), and the provenance of public-source profiles.
 */
import type { ProviderRecord, SubmissionStatus } from '../schemas/dataset.ts';
import { daysBetween, isoAfter, WINDOW_END, WINDOW_START } from './dates.ts';
import type { Random } from './random.ts';

type Lifecycle = Pick<
  ProviderRecord,
  'submissionStatus' | 'publishedAt' | 'updatedAt' | 'moderationNotes' | 'internalStatus'
>;

const STATUS_WEIGHTS = [['approved', 85], ['pending', 5], ['draft', 4], ['rejected', 3], ['suspended', 3]] as const;

const MODNOTES: Readonly<Record<SubmissionStatus, readonly string[]>> = {
  approved: ['MODNOTE: portfolio links checked by hand', 'MODNOTE: phone verified, address not yet confirmed', 'MODNOTE: rating disputed by competitor, kept'],
  pending: ['MODNOTE: waiting for NIB document', 'MODNOTE: website unreachable during review', 'MODNOTE: duplicate of another listing?'],
  draft: ['MODNOTE: provider has not finished the form'],
  rejected: ['MODNOTE: rejected, company registration could not be verified', 'MODNOTE: rejected, copied description from a competitor', 'MODNOTE: rejected, spam links in portfolio'],
  suspended: ['MODNOTE: suspended after client fraud complaint', 'MODNOTE: suspended, unpaid invoices reported by three clients', 'MODNOTE: suspended pending legal review'],
};

const INTERNAL = [
  'INTERNAL: kyc_pending', 'INTERNAL: sales_lead_hot', 'INTERNAL: churn_risk', 'INTERNAL: billing_overdue',
  'INTERNAL: manual_review_queue', 'INTERNAL: partner_tier_gold', 'INTERNAL: do_not_contact',
];

export function lifecycle(rng: Random): Lifecycle {
  const status = rng.weighted(STATUS_WEIGHTS);
  const span = daysBetween(WINDOW_START, WINDOW_END);
  const publishedDay = rng.int(0, span - 20);
  const minute = rng.int(60, 660); // 08:00-18:00 in Jakarta is 01:00-11:00 UTC
  const publishedAt = isoAfter(WINDOW_START, publishedDay, minute);
  const updatedAt = rng.chance(0.9) ? isoAfter(WINDOW_START, rng.int(publishedDay, span), rng.int(60, 660)) : null;
  const wasPublished =
    (status === 'approved' && !rng.chance(0.04)) || // a few approved profiles still wait for their publication date
    (status === 'suspended' && rng.chance(0.7)); // suspended ones were usually live before
  const noteChance = status === 'approved' ? 0.05 : 0.7;
  return {
    submissionStatus: status,
    publishedAt: wasPublished ? publishedAt : null,
    updatedAt: status === 'draft' && rng.chance(0.5) ? null : (updatedAt ?? publishedAt),
    moderationNotes: rng.chance(noteChance) ? rng.pick(MODNOTES[status]) : null,
    internalStatus: rng.chance(0.1) ? rng.pick(INTERNAL) : null,
  };
}

type Provenance = Pick<ProviderRecord, 'profileProvenance' | 'sourceType' | 'sourcePrimaryUrl' | 'sourceAccessedAt'>;

export function provenance(rng: Random, slug: string, website: string | null): Provenance {
  if (rng.chance(0.25)) {
    const url =
      website && rng.chance(0.6)
        ? website
        : rng.pick([`https://www.linkedin.com/company/${slug}`, `https://www.instagram.com/${slug.replace(/-/g, '')}`, `https://clutch.co/profile/${slug}`]);
    return {
      profileProvenance: 'public_source',
      sourceType: 'manual_public_enrichment',
      sourcePrimaryUrl: url,
      sourceAccessedAt: isoAfter(WINDOW_START, rng.int(0, daysBetween(WINDOW_START, WINDOW_END)), rng.int(60, 660)),
    };
  }
  const viaForm = rng.chance(0.1);
  return {
    profileProvenance: 'provider_submitted',
    sourceType: viaForm ? 'provider_form' : null,
    sourcePrimaryUrl: null,
    sourceAccessedAt: null,
  };
}

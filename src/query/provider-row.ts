/**
 * A row of the published_providers view, as the query modules select it (`SELECT p.*`):
 * the columns the builder writes (src/snapshot/provider-columns.ts), plus the rowid,
 * with the published rule's guarantee that published_at is set.
 */
import type { ProviderColumns } from '../snapshot/provider-columns.ts';

export interface ProviderRow extends Omit<ProviderColumns, 'published_at' | 'profile_provenance'> {
  rowid: number;
  published_at: string;
  profile_provenance: 'provider_submitted' | 'public_source';
}

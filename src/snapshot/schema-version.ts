/**
 * What a complete snapshot of this schema version holds. Kept apart from the
 * builder so readers (the server's snapshot check) import it without the builder.
 */

/**
 * Bumped whenever a reader would misread an older file. Stored as snapshot_meta.schema_version.
 * 2: search_postings in rowid order (was impact order); search_postings and vector_partitions required.
 * 3: published_places (published providers per city and province) required.
 * 4: search_postings holds each list's block bounds (block_last, block_max).
 * 5: vector_partitions holds each vector's int8 codes; vector_code_scales their scales.
 * 6: search_columns (the sort columns and primary categories search loads at start) required.
 * 7: vector_partitions holds fine lists, each with its coarse list; vector_coarse_lists required.
 * 8: vector_partitions holds each vector as int16 steps (was float32).
 * 9: vector_partitions holds each list's second copies (spill_rowids).
 * 10: published_summaries (the summary columns of the published providers) required.
 * 11: providers.city_name and province_name (the names shown; published_summaries holds them
 *     instead of city and province, published_places beside them); overall_rating 0 without reviews.
 * 12: dataset_records (a hash per dataset record), published_facts (what the rebuild's diff compares),
 *     bm25_frozen_df (the idf's document frequencies): what an incremental build starts from.
 * 13: dataset_lines (each .ndjson file's line table) and proof_lines replace dataset_records;
 *     dataset_hash over the files' own sha256s.
 * 14: published_by_city_rank (a landing list's walk); published_summaries holds the figure columns
 *     (city_slug, the money columns, the dates) that category figures read.
 */
export const SCHEMA_VERSION = '14';

/** Tables and views every complete snapshot has (verifySnapshotFile checks them). */
export const REQUIRED_TABLES = [
  'snapshot_meta',
  'categories',
  'providers',
  'provider_dashboard',
  'provider_commercial_raw',
  'provider_categories',
  'provider_tags',
  'proofs',
  'reports',
  'fts_providers',
  'vec_providers',
  // what search reads (version 2: postings in rowid order)
  'search_postings',
  'vector_partitions',
  // version 3: what the request parser reads when a snapshot opens
  'published_places',
  // version 5: the vectors' int8 codes' scales
  'vector_code_scales',
  // version 6: what search loads for every provider at start
  'search_columns',
  // version 7: the coarse lists the fine lists of vector_partitions belong to
  'vector_coarse_lists',
  // version 10: what a page of search hits reads
  'published_summaries',
  // version 12: what an incremental build and the rebuild's diff read (13: dataset_lines, proof_lines)
  'dataset_lines',
  'proof_lines',
  'published_facts',
  'bm25_frozen_df',
] as const;
export const REQUIRED_VIEWS = ['published_providers', 'public_proofs'] as const;


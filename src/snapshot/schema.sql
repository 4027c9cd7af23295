-- The snapshot: one SQLite file, written once by src/snapshot/build.ts, then opened
-- read-only by every reader. docs/schema.md explains each table for analysts.
-- Public readers go through the views (published_providers); the dashboard table
-- and the raw commercial table are for editors and analysts only.

CREATE TABLE snapshot_meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;
-- keys: schema_version, snapshot_id, built_at, dataset_source, dataset_hash,
-- embedder_name, embedder_dims, count_providers, count_published, count_categories,
-- count_proofs, count_reports; what an incremental build starts from (src/snapshot/frozen-stats.ts,
-- build-incremental.ts): build_mode (full | incremental), full_build_id, categories_hash,
-- reports_hash, facts_categories_hash, facts_reports_hash, bm25_documents, bm25_length (the
-- frozen bm25 statistics), bm25_current_documents, bm25_current_length, vector_spill_from,
-- drift_changed (providers changed since the full build), drift_share, drift_df, drift_length

CREATE TABLE categories (
  id          TEXT PRIMARY KEY,
  slug        TEXT NOT NULL UNIQUE,
  name        TEXT NOT NULL,
  parent_id   TEXT REFERENCES categories(id),
  active      INTEGER NOT NULL CHECK (active IN (0, 1)),
  description TEXT,
  position    INTEGER NOT NULL          -- order in categories.json; lists keep it
);
CREATE INDEX categories_parent ON categories(parent_id);

-- One row per provider record, published or not. rowid is the key shared with
-- fts_providers and vec_providers. Money columns hold displayable IDR values only
-- (NULL otherwise); raw amounts live in provider_commercial_raw.
CREATE TABLE providers (
  rowid                   INTEGER PRIMARY KEY,
  id                      TEXT NOT NULL UNIQUE,
  slug                    TEXT NOT NULL UNIQUE,
  company_name            TEXT NOT NULL,
  tagline                 TEXT NOT NULL,
  description             TEXT NOT NULL,
  website                 TEXT,
  city                    TEXT,
  city_slug               TEXT,                  -- citySlug(city), see src/text/city-slug.ts
  city_name               TEXT,                  -- the name shown for city_slug (src/snapshot/place-names.ts)
  province                TEXT,
  province_name           TEXT,                  -- the name shown for the province
  country                 TEXT NOT NULL,
  primary_category_id     TEXT,
  trust_level             INTEGER NOT NULL,
  confidence_score        REAL NOT NULL,
  overall_rating          REAL NOT NULL,         -- 0 when total_reviews is 0: no rating
  total_reviews           INTEGER NOT NULL,
  capability_tags         TEXT NOT NULL,         -- JSON array of strings
  industry_focus          TEXT NOT NULL,         -- JSON array of strings
  languages_supported     TEXT NOT NULL,         -- JSON array of strings
  employee_available      INTEGER NOT NULL,
  employee_provenance     TEXT,
  employee_min            INTEGER,
  employee_max            INTEGER,               -- NULL for open ranges such as 201+
  business_size           TEXT,                  -- micro | small | medium | large
  budget_available        INTEGER NOT NULL,
  budget_provenance       TEXT,
  budget_currency_class   TEXT,                  -- IDR | NON_IDR | UNKNOWN (NULL when not available)
  min_project_budget_idr  REAL,                  -- displayable amount only
  rate_available          INTEGER NOT NULL,
  rate_provenance         TEXT,
  rate_currency_class     TEXT,
  hourly_rate_idr         REAL,                  -- displayable amount only
  profile_provenance      TEXT NOT NULL,
  source_type             TEXT,
  source_primary_url      TEXT,
  source_accessed_at      TEXT,
  submission_status       TEXT NOT NULL,
  published_at            TEXT,
  updated_at              TEXT
);

-- The published rule lives here and nowhere else.
CREATE VIEW published_providers AS
  SELECT * FROM providers
  WHERE submission_status = 'approved' AND published_at IS NOT NULL;

-- Dashboard data: stored for editors, never selected by a public reader.
CREATE TABLE provider_dashboard (
  provider_rowid   INTEGER PRIMARY KEY REFERENCES providers(rowid),
  moderation_notes TEXT,
  internal_status  TEXT
);

-- Commercial values as submitted, displayable or not. Analysts only.
CREATE TABLE provider_commercial_raw (
  provider_rowid        INTEGER PRIMARY KEY REFERENCES providers(rowid),
  employee_count        TEXT,
  min_budget_amount     REAL,
  min_budget_currency   TEXT,
  hourly_rate_amount    REAL,
  hourly_rate_currency  TEXT
);

CREATE TABLE provider_categories (
  provider_rowid INTEGER NOT NULL REFERENCES providers(rowid),
  category_id    TEXT NOT NULL REFERENCES categories(id),
  position       INTEGER NOT NULL,                -- 0 = primary
  PRIMARY KEY (provider_rowid, category_id)
) WITHOUT ROWID;
CREATE INDEX provider_categories_by_category ON provider_categories(category_id, provider_rowid);

-- Multi-valued filter columns, one row per value (values lower-cased for matching).
CREATE TABLE provider_tags (
  provider_rowid INTEGER NOT NULL REFERENCES providers(rowid),
  kind           TEXT NOT NULL CHECK (kind IN ('capability', 'industry', 'language')),
  value          TEXT NOT NULL,                   -- as written
  value_key      TEXT NOT NULL,                   -- lower-cased, for filters
  PRIMARY KEY (kind, value_key, provider_rowid)
) WITHOUT ROWID;
CREATE INDEX provider_tags_by_provider ON provider_tags(provider_rowid);

CREATE TABLE proofs (
  id                TEXT PRIMARY KEY,
  provider_rowid    INTEGER NOT NULL REFERENCES providers(rowid),
  title             TEXT NOT NULL,
  kind              TEXT NOT NULL,
  url               TEXT,
  submission_status TEXT NOT NULL,
  is_public         INTEGER NOT NULL,
  created_at        TEXT NOT NULL
);
CREATE INDEX proofs_by_provider ON proofs(provider_rowid);

CREATE VIEW public_proofs AS
  SELECT * FROM proofs WHERE submission_status = 'approved' AND is_public = 1;

CREATE TABLE reports (
  slug          TEXT PRIMARY KEY,
  title         TEXT NOT NULL,
  category_slug TEXT NOT NULL,
  country       TEXT NOT NULL,
  year          INTEGER NOT NULL,
  summary       TEXT NOT NULL
);

-- The columns of a provider's summary (the API's BusinessSummary: src/query/provider-row.ts,
-- SUMMARY_COLUMNS) and its figure columns, published providers only, rowid = providers.rowid, copied by the builder
-- from published_providers. A page of search hits reads 20 rows at random: from providers each
-- is a page of its own (about four rows to a 4 KB page), here about 19 share a page and the whole
-- table (18 MB at 100,000 providers) stays in a server's page cache.
CREATE TABLE published_summaries (
  rowid                 INTEGER PRIMARY KEY,
  id                    TEXT NOT NULL,
  slug                  TEXT NOT NULL,
  company_name          TEXT NOT NULL,
  tagline               TEXT NOT NULL,
  city_name             TEXT,
  province_name         TEXT,
  country               TEXT NOT NULL,
  trust_level           INTEGER NOT NULL,
  confidence_score      REAL NOT NULL,
  overall_rating        REAL NOT NULL,
  total_reviews         INTEGER NOT NULL,
  profile_provenance    TEXT NOT NULL,
  employee_available    INTEGER NOT NULL,
  employee_provenance   TEXT,
  budget_available      INTEGER NOT NULL,
  budget_provenance     TEXT,
  budget_currency_class TEXT,
  rate_available        INTEGER NOT NULL,
  rate_provenance       TEXT,
  rate_currency_class   TEXT,
  -- not in the summary: what a category's figures and dates read of each of its providers
  -- (src/query/reports.ts, site-aggregates.ts), from these rows rather than the wide ones
  -- (1,000,000 providers: a category of 158,000 about 2x faster)
  city_slug             TEXT,
  min_project_budget_idr REAL,
  hourly_rate_idr       REAL,
  published_at          TEXT,
  updated_at            TEXT
);

-- Published providers per place, counted once by the builder: the request parser's
-- cities and provinces (src/query/nl-query-vocabulary.ts) read these few hundred rows
-- when a snapshot opens instead of grouping every published provider (1,000,000
-- providers: about 2 s before the first answer); the builder names the places from
-- these counts (src/snapshot/place-names.ts).
CREATE TABLE published_places (
  city          TEXT,
  city_slug     TEXT,
  city_name     TEXT,
  province      TEXT,
  province_name TEXT,
  providers     INTEGER NOT NULL
);

-- Filter and sort indexes (the API's filters and sorts; see src/query/filters.ts).
CREATE INDEX providers_city_slug   ON providers(city_slug);
CREATE INDEX providers_city        ON providers(city COLLATE NOCASE);
CREATE INDEX providers_province    ON providers(province COLLATE NOCASE);
CREATE INDEX providers_country     ON providers(country);
CREATE INDEX providers_rating      ON providers(overall_rating DESC, slug);
CREATE INDEX providers_trust       ON providers(trust_level DESC, slug);
CREATE INDEX providers_reviews     ON providers(total_reviews DESC, slug);
CREATE INDEX providers_size        ON providers(business_size);
CREATE INDEX providers_budget      ON providers(min_project_budget_idr);
CREATE INDEX providers_rate        ON providers(hourly_rate_idr);
-- The list's sort orders over published rows only. Partial indexes whose WHERE is the
-- view's own rule let `published_providers ORDER BY ... LIMIT` walk the index instead
-- of sorting every published row (100k providers: 318 ms -> 0.5 ms per page). There is
-- deliberately no index on submission_status: 80% of rows pass it, and with one the planner
-- (on ANALYZE's sampled statistics) chose it and sorted every published row again.
CREATE INDEX published_by_rating  ON providers(overall_rating DESC, slug) WHERE submission_status = 'approved' AND published_at IS NOT NULL;
CREATE INDEX published_by_trust   ON providers(trust_level DESC, slug)    WHERE submission_status = 'approved' AND published_at IS NOT NULL;
CREATE INDEX published_by_reviews ON providers(total_reviews DESC, slug)  WHERE submission_status = 'approved' AND published_at IS NOT NULL;
-- Slug order with the sitemap's date, covering: the site's every-slug reads (page paths,
-- VIC cards, sitemaps) walk it without a lookup per wide row (100k: 314 ms -> 12 ms; a
-- cold file read row by row took 13 s).
CREATE INDEX published_by_slug    ON providers(slug, coalesce(updated_at, published_at)) WHERE submission_status = 'approved' AND published_at IS NOT NULL;
-- The landing lists' rank with the city, covering: one pass over every list walks it in rank
-- order instead of sorting every link (100k: 563 ms -> 150-300 ms).
CREATE INDEX published_by_rank    ON providers(trust_level DESC, overall_rating DESC, slug, city_slug, city_name) WHERE submission_status = 'approved' AND published_at IS NOT NULL;
-- One city's published providers in rank order: a landing list (a top-level category in a city)
-- walks its city's entries, testing each for the category's links, and stops at the page's
-- last row; counting it reads the city's entries, not every row of the category (1,000,000
-- providers: 430 ms -> 3 ms for a page of 50, 100 ms for the count).
CREATE INDEX published_by_city_rank ON providers(city_slug, trust_level DESC, overall_rating DESC, slug) WHERE submission_status = 'approved' AND published_at IS NOT NULL;

-- Full-text index of published providers only; rowid = providers.rowid.
-- Created by the builder (snapshot-schema.ts, CREATE_FTS_SQL) as:
--   CREATE VIRTUAL TABLE fts_providers USING fts5(
--     company_name, tagline, description, capability_tags, industry_focus,
--     category_names, city, province,
--     content='', tokenize='unicode61 remove_diacritics 2');
-- Vector index of published providers only; rowid = providers.rowid.
--   CREATE VIRTUAL TABLE vec_providers USING vec0(embedding float[<dims>] distance_metric=cosine);

-- What lets the next build find what changed (src/snapshot/line-table.ts, line-match.ts)
-- and the rebuild diff two snapshots without reading every provider (published-facts.ts).
-- The line table of each .ndjson file the build read, as arrays of 32-bit words: per
-- line its hash, span and row (providers.rowid, or a proof's provider's rowid; 0: none),
-- per group of lines where it ends and the hash of its bytes.
CREATE TABLE dataset_lines (
  file         TEXT PRIMARY KEY,
  hashes       BLOB NOT NULL,
  spans        BLOB NOT NULL,
  records      BLOB NOT NULL,
  group_ends   BLOB NOT NULL,
  group_hashes BLOB NOT NULL
);

-- Each proof's line hash (its first 8 bytes): which stored line of proofs.ndjson it is.
CREATE TABLE proof_lines (
  id   TEXT PRIMARY KEY,
  hash BLOB NOT NULL
) WITHOUT ROWID;

-- What a reader sees of each published provider, as src/ops/diff.ts compares it: the
-- slug, name, category slugs (with their parents, JSON), city slug, and a hash of every
-- public column, category link, tag and public proof.
CREATE TABLE published_facts (
  slug           TEXT PRIMARY KEY,
  provider_rowid INTEGER NOT NULL,
  company_name   TEXT NOT NULL,
  category_slugs TEXT NOT NULL,
  city_slug      TEXT,
  hash           TEXT NOT NULL
) WITHOUT ROWID;

-- The document frequency of each term at the last full build: the idf every bm25
-- contribution of search_postings is computed with until the next full build.
CREATE TABLE bm25_frozen_df (
  term TEXT PRIMARY KEY,
  df   INTEGER NOT NULL
) WITHOUT ROWID;

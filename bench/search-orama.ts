/**
 * Worker: the peer engine. Orama (@orama/orama, what a TypeScript developer would
 * pick) loaded with the same published providers and the same vectors (plain
 * arrays: Orama is much slower with Float32Array), then the same queries in hybrid
 * mode with the same filters. Run as a child so its RSS is its own:
 *   node bench/search-orama.ts --db FILE --queries N --subset M
 * Prints one JSON object (OramaSearchResult) on stdout.
 */
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { create, insertMultiple, search } from '@orama/orama';
import { embedQuery } from '../src/search/query-embedder.ts';
import { Snapshot } from '../src/query/snapshot.ts';
import { buildQueryMix, stratifiedSubset } from './queries.ts';
import { summarize, summarizeBy, type LatencySummary } from './stats.ts';
import { selfRssMb } from './machine.ts';
import { requestWords } from '../src/query/nl-query.ts';

export interface OramaSearchResult {
  documents: number;
  queries: number;
  indexSeconds: number;
  /** from process start to the first answered query: what a server built on Orama waits */
  firstAnswerSeconds: number;
  rssMb: number;
  peakRssMb: number | null;
  latency: LatencySummary;
  byClass: Record<string, LatencySummary>;
}

interface DocRow {
  rowid: number;
  company_name: string;
  tagline: string;
  description: string;
  capability_tags: string;
  industry_focus: string;
  city: string | null;
  categories: string | null;
  embedding: Buffer;
}

// Every category a provider is linked to, plus its parent: a top-level filter
// includes its children, as in the API's filter builder.
const DOCS_SQL = `
  SELECT p.rowid, p.company_name, p.tagline, p.description, p.capability_tags, p.industry_focus, p.city,
    (SELECT json_group_array(DISTINCT s.slug) FROM provider_categories pc
       JOIN categories c ON c.id = pc.category_id
       JOIN categories s ON s.id = c.id OR s.id = c.parent_id
     WHERE pc.provider_rowid = p.rowid) AS categories,
    v.embedding
  FROM published_providers p JOIN vec_providers v ON v.rowid = p.rowid`;

async function main(): Promise<void> {
  const started = performance.now();
  const { values } = parseArgs({ options: { db: { type: 'string' }, queries: { type: 'string' }, subset: { type: 'string' } } });
  if (!values.db) throw new Error('--db FILE is required');
  const mix = stratifiedSubset(buildQueryMix(Number(values.queries ?? 1000)), Number(values.subset ?? 200));

  const db = new Database(values.db, { readonly: true, fileMustExist: true });
  sqliteVec.load(db);
  const rows = db.prepare(DOCS_SQL).all() as DocRow[];
  db.close();
  const dims = rows.length ? rows[0]!.embedding.byteLength / 4 : 0;

  const t0 = performance.now();
  const orama = create({
    schema: {
      companyName: 'string',
      tagline: 'string',
      description: 'string',
      capabilityTags: 'string[]',
      industryFocus: 'string[]',
      cityKey: 'enum',
      categories: 'enum[]',
      embedding: `vector[${dims}]`,
    } as const,
  });
  const docs = rows.map((r) => ({
    id: String(r.rowid),
    companyName: r.company_name,
    tagline: r.tagline,
    description: r.description,
    capabilityTags: JSON.parse(r.capability_tags) as string[],
    industryFocus: JSON.parse(r.industry_focus) as string[],
    cityKey: (r.city ?? '').toLowerCase(),
    categories: JSON.parse(r.categories ?? '[]') as string[],
    embedding: Array.from(new Float32Array(r.embedding.buffer, r.embedding.byteOffset, dims)),
  }));
  rows.length = 0;
  await insertMultiple(orama, docs, 1000);
  const indexSeconds = (performance.now() - t0) / 1000;

  // The same query vectors as our side: the snapshot's own query embedder.
  const snapshot = new Snapshot(values.db);
  const vectors = await Promise.all(mix.map(async (q) => (await embedQuery(snapshot, requestWords(q.q))).vector));
  snapshot.close();

  const samples: { label: string; ms: number }[] = [];
  let firstAnswerSeconds = 0;
  for (const [i, query] of mix.entries()) {
    const where: Record<string, unknown> = {};
    if (query.city) where.cityKey = { eq: query.city.toLowerCase() };
    if (query.categorySlug) where.categories = { containsAll: [query.categorySlug] };
    const vector = vectors[i];
    const t = performance.now();
    await search(orama, {
      mode: 'hybrid',
      term: query.q,
      ...(vector ? { vector: { value: Array.from(vector), property: 'embedding' } } : {}),
      properties: ['companyName', 'tagline', 'description', 'capabilityTags', 'industryFocus'],
      similarity: 0.1,
      limit: 20,
      ...(Object.keys(where).length ? { where } : {}),
    } as never);
    const ms = performance.now() - t;
    if (i === 0) firstAnswerSeconds = (performance.now() - started) / 1000;
    samples.push({ label: query.label, ms });
  }
  const mem = selfRssMb();
  const out: OramaSearchResult = {
    documents: docs.length,
    queries: mix.length,
    indexSeconds,
    firstAnswerSeconds,
    rssMb: mem.rssMb,
    peakRssMb: mem.peakRssMb,
    latency: summarize(samples.map((s) => s.ms)),
    byClass: summarizeBy(samples),
  };
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();

/**
 * Editor-style edits of a generated dataset for the ops tests: copy a dataset
 * folder, then update, remove or add providers the way an editor would.
 */
import fs from 'node:fs';
import path from 'node:path';

type Provider = Record<string, unknown> & { id: string; slug: string; submissionStatus: string; publishedAt: string | null };

export function readProviders(dir: string): Provider[] {
  return fs
    .readFileSync(path.join(dir, 'providers.ndjson'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Provider);
}

export function writeProviders(dir: string, providers: Provider[]): void {
  fs.writeFileSync(path.join(dir, 'providers.ndjson'), providers.map((p) => JSON.stringify(p)).join('\n') + '\n');
}

export function copyDataset(from: string, to: string): void {
  fs.rmSync(to, { recursive: true, force: true });
  fs.mkdirSync(to, { recursive: true });
  for (const name of fs.readdirSync(from)) fs.copyFileSync(path.join(from, name), path.join(to, name));
}

const isPublished = (p: Provider) => p.submissionStatus === 'approved' && p.publishedAt !== null;

export interface Edits {
  /** How many published providers get a new rating and tagline. */
  update: number;
  /** How many published providers are removed. */
  remove: number;
  /** How many new published providers are added (copies of existing ones under new slugs). */
  add: number;
  /** How many published providers are unpublished (kept in the dataset, no longer approved). */
  unpublish?: number;
  /** How many published providers move to another provider's city. */
  moveCity?: number;
}

/** Applies the edits to a copy of `from` in `to`; returns the slugs touched. */
export function editDataset(
  from: string,
  to: string,
  edits: Edits,
): { updated: string[]; removed: string[]; added: string[]; unpublished: string[]; moved: string[] } {
  copyDataset(from, to);
  const providers = readProviders(to);
  const published = providers.filter(isPublished);
  // Spread the edits over the list so they land in different categories and cities.
  const unpublish = edits.unpublish ?? 0;
  const moveCity = edits.moveCity ?? 0;
  const step = Math.max(1, Math.floor(published.length / (edits.update + edits.remove + edits.add + unpublish + moveCity + 1)));
  const pick = (i: number) => published[(i * step) % published.length]!;
  const updated: string[] = [];
  const removed: string[] = [];
  const added: string[] = [];
  let i = 1;
  for (let n = 0; n < edits.update; n++, i++) {
    const p = pick(i);
    p.overallRating = Math.round(((Number(p.overallRating) + 1.3) % 5) * 100) / 100;
    p.tagline = `${String(p.tagline)} (diperbarui)`;
    updated.push(p.slug);
  }
  const unpublished: string[] = [];
  for (let n = 0; n < unpublish; n++, i++) {
    const p = pick(i);
    p.submissionStatus = 'pending';
    unpublished.push(p.slug);
  }
  const moved: string[] = [];
  for (let n = 0; n < moveCity; n++, i++) {
    const p = pick(i);
    const other = published.find((q) => q.city !== p.city && q.country === p.country)!;
    p.city = other.city;
    p.province = other.province;
    moved.push(p.slug);
  }
  const removeIds = new Set<string>();
  for (let n = 0; n < edits.remove; n++, i++) {
    removeIds.add(pick(i).id);
    removed.push(pick(i).slug);
  }
  const next = providers.filter((p) => !removeIds.has(p.id));
  for (let n = 0; n < edits.add; n++, i++) {
    const base = pick(i);
    const copy = { ...base, id: `${base.id}-baru-${n}`, slug: `${base.slug}-baru-${n}`, companyName: `${String(base.companyName)} Baru ${n}` };
    next.push(copy);
    added.push(copy.slug);
  }
  writeProviders(to, next);
  if (removeIds.size) dropProofsOf(to, removeIds);
  return { updated, removed, added, unpublished, moved };
}

function dropProofsOf(dir: string, providerIds: Set<string>): void {
  const file = path.join(dir, 'proofs.ndjson');
  if (!fs.existsSync(file)) return;
  const kept = fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l && !providerIds.has((JSON.parse(l) as { providerId: string }).providerId));
  fs.writeFileSync(file, kept.map((l) => `${l}\n`).join(''));
}

/** A dataset with one invalid record: the rebuild must refuse it and change nothing. */
export function breakDataset(from: string, to: string): void {
  copyDataset(from, to);
  const providers = readProviders(to);
  providers[3]!.trustLevel = 9; // out of range 0-5
  writeProviders(to, providers);
}

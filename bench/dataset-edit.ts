/**
 * An editor's change to a benchmark dataset, written as a new dataset folder cheaply
 * enough for 1M providers: every file but providers.ndjson is a hard link of the
 * source's, and providers.ndjson is streamed line by line with the edited lines
 * replaced. N changed providers are N-2 text edits (taglines and descriptions, each
 * with a marker the rendered page must show), one unpublish and one new provider;
 * under 3, text edits only. The picks are spread over the published providers, and
 * `salt` moves them so successive edits touch other providers.
 */
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { once } from 'node:events';

const PROVIDERS = 'providers.ndjson';

type Provider = Record<string, unknown> & { id: string; slug: string; submissionStatus: string; publishedAt: string | null };

export interface TextEdit {
  slug: string;
  field: 'tagline' | 'description';
  /** a word the provider's page shows once the edit is live */
  marker: string;
}

export interface DatasetEdit {
  dir: string;
  edits: TextEdit[];
  unpublished: string | null;
  added: string | null;
  /** providers whose line changed or appeared */
  changed: number;
}

const isPublished = (p: Provider) => p.submissionStatus === 'approved' && p.publishedAt !== null;

function lines(file: string): readline.Interface {
  return readline.createInterface({ input: fs.createReadStream(file), crlfDelay: Infinity });
}

/** The line numbers of the published providers. */
async function publishedLines(file: string): Promise<number[]> {
  const out: number[] = [];
  let n = 0;
  for await (const line of lines(file)) {
    if (line && isPublished(JSON.parse(line) as Provider)) out.push(n);
    n++;
  }
  return out;
}

/** Writes `from` with `changed` providers changed into `to` (replaced if there); `label` names the markers. */
export async function writeEditedDataset(from: string, to: string, changed: number, label: string, salt = 0): Promise<DatasetEdit> {
  fs.rmSync(to, { recursive: true, force: true });
  fs.mkdirSync(to, { recursive: true });
  for (const name of fs.readdirSync(from)) if (name !== PROVIDERS) fs.linkSync(path.join(from, name), path.join(to, name));

  const published = await publishedLines(path.join(from, PROVIDERS));
  const withStructural = changed >= 3;
  const texts = withStructural ? changed - 2 : changed;
  const picks = changed - (withStructural ? 1 : 0); // the new provider is a copy of a picked one's line, not a pick
  if (picks > published.length) throw new Error(`${changed} changes asked of a dataset with ${published.length} published providers`);
  const step = Math.max(1, Math.floor(published.length / (picks + 1)));
  const role = new Map<number, number>(); // line -> index of the pick
  for (let j = 0; j < picks; j++) role.set(published[(salt + (j + 1) * step) % published.length]!, j);
  if (role.size !== picks) throw new Error(`picks collided: ${role.size} of ${picks}`);

  const edits: TextEdit[] = [];
  let unpublished: string | null = null;
  let added: string | null = null;
  const out = fs.createWriteStream(path.join(to, PROVIDERS));
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  let n = 0;
  for await (const line of lines(path.join(from, PROVIDERS))) {
    const j = role.get(n++);
    if (j === undefined) {
      if (line) await write(`${line}\n`);
      continue;
    }
    const p = JSON.parse(line) as Provider;
    if (j < texts) {
      const marker = `diperbarui${label}x${j}`;
      const field = j % 2 === 0 ? 'tagline' : 'description';
      p[field] = `${String(p[field])} (${marker})`;
      edits.push({ slug: p.slug, field, marker });
    } else {
      unpublished = p.slug;
      p.submissionStatus = 'suspended';
      p.publishedAt = null;
    }
    await write(`${JSON.stringify(p)}\n`);
    if (withStructural && j === 0) {
      const copy = { ...p, id: `${p.id}-baru-${label}`, slug: `${p.slug}-baru-${label}`, companyName: `${String(p.companyName)} Baru ${label}` };
      added = copy.slug;
      await write(`${JSON.stringify(copy)}\n`);
    }
  }
  out.end();
  await once(out, 'finish');
  return { dir: to, edits, unpublished, added, changed };
}

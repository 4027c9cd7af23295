/**
 * Reading the release origin over HTTP(S) (a node following RELEASE_ORIGIN):
 * the manifest with If-None-Match, small files whole, and the snapshot streamed
 * to disk and resumed after a cut connection (`Range: bytes=N-` from what the
 * `.part` file holds, across polls and restarts too), its SHA-256 computed as the
 * bytes arrive. Every file is checked against the size and hash the origin
 * announced before anything uses it.
 *
 * Two kinds of failure: `OriginRefusal` when the origin serves something other
 * than it announced (a wrong hash, a file longer or shorter than announced, a
 * 4xx): the node refuses that release and keeps its own; any other error (no
 * answer, a 5xx, a connection cut without progress) is passing, and the next
 * poll tries again from where this one stopped.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';

/** The origin served something other than its manifest announced: this release is refused. */
export class OriginRefusal extends Error {}

/** Each request gives up after this long without an answer (a body streams for as long as bytes arrive). */
const REQUEST_TIMEOUT_MS = 15_000;
/** A snapshot download stops (until the next poll) after this many attempts in a row that brought no byte. */
const ATTEMPTS_WITHOUT_PROGRESS = 3;

export interface Expected {
  size: number;
  sha256: string;
}

/** A GET; a 4xx (but 408, 429 and those in `pass`) refuses what the manifest announced. */
async function get(url: string, headers: Record<string, string> = {}, pass: number[] = []): Promise<Response> {
  const response = await fetch(url, { headers, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  if (response.status >= 400 && response.status < 500 && response.status !== 408 && response.status !== 429 && !pass.includes(response.status)) {
    await response.body?.cancel();
    throw new OriginRefusal(`${url} answered ${response.status}`);
  }
  return response;
}

/** The manifest: its text and ETag, or 'unchanged' when the origin answered 304 to `etag`. */
export async function fetchManifest(url: string, etag: string | undefined): Promise<'unchanged' | { text: string; etag: string | undefined }> {
  const response = await get(url, etag ? { 'if-none-match': etag } : {});
  if (response.status === 304) return 'unchanged';
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  return { text: await response.text(), etag: response.headers.get('etag') ?? undefined };
}

/** A small file whole, checked against its announced size and hash. */
export async function fetchChecked(url: string, expected: Expected): Promise<Buffer> {
  const response = await get(url);
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  const body = Buffer.from(await response.arrayBuffer());
  checkWhole(url, body.length, crypto.createHash('sha256').update(body).digest('hex'), expected);
  return body;
}

function checkWhole(url: string, size: number, sha256: string, expected: Expected): void {
  if (size !== expected.size) throw new OriginRefusal(`${url} holds ${size} bytes, ${expected.size} announced`);
  if (sha256 !== expected.sha256) throw new OriginRefusal(`${url} has SHA-256 ${sha256}, ${expected.sha256} announced`);
}

/** Hashes what a `.part` file already holds (a download resumed where the last one stopped). */
async function hashOf(file: string): Promise<{ hash: crypto.Hash; size: number }> {
  const hash = crypto.createHash('sha256');
  let size = 0;
  if (fs.existsSync(file)) {
    for await (const chunk of fs.createReadStream(file, { highWaterMark: 1 << 20 })) {
      hash.update(chunk as Buffer);
      size += (chunk as Buffer).length;
    }
  }
  return { hash, size };
}

/**
 * Streams `url` into `file` (through `file.part`), resuming after a cut connection,
 * and renames it into place once its size and SHA-256 are the announced ones.
 * Returns the bytes this call fetched.
 */
export async function download(url: string, file: string, expected: Expected): Promise<number> {
  const part = `${file}.part`;
  let { hash, size: have } = await hashOf(part);
  let fetched = 0;
  if (have > expected.size) throw new OriginRefusal(`${part} holds more than the ${expected.size} bytes announced`);
  for (let fruitless = 0; have < expected.size; ) {
    const before = have;
    const response = await get(url, have > 0 ? { range: `bytes=${have}-` } : {}, [416]);
    if (response.status === 416) {
      await response.body?.cancel();
      throw new OriginRefusal(`${url} ends at ${have} bytes, ${expected.size} announced`);
    }
    if (response.status !== 200 && response.status !== 206) {
      await response.body?.cancel();
      throw new Error(`${url} answered ${response.status}`);
    }
    if (response.status === 200 && have > 0) {
      // The origin does not do ranges: start over.
      hash = crypto.createHash('sha256');
      have = 0;
      fs.rmSync(part, { force: true });
    }
    let refusal: OriginRefusal | undefined;
    const out = fs.openSync(part, 'a');
    try {
      for await (const chunk of response.body ?? []) {
        const bytes = chunk as Uint8Array;
        if (have + bytes.length > expected.size) {
          refusal = new OriginRefusal(`${url} holds more than the ${expected.size} bytes announced`);
          break;
        }
        fs.writeSync(out, bytes);
        hash.update(bytes);
        have += bytes.length;
        fetched += bytes.length;
      }
    } catch {
      // a cut connection: the next request resumes from what arrived
    } finally {
      fs.closeSync(out);
    }
    if (refusal) {
      fs.rmSync(part, { force: true });
      throw refusal;
    }
    fruitless = have > before ? 0 : fruitless + 1;
    if (fruitless >= ATTEMPTS_WITHOUT_PROGRESS) throw new Error(`${url}: no progress in ${fruitless} attempts at ${have} of ${expected.size} bytes`);
  }
  const sha256 = hash.digest('hex');
  if (sha256 !== expected.sha256) {
    fs.rmSync(part, { force: true });
    throw new OriginRefusal(`${url} has SHA-256 ${sha256}, ${expected.sha256} announced`);
  }
  fs.renameSync(part, file);
  return fetched;
}

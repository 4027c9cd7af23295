/**
 * Serves the pre-rendered client output (dist/client, or STATIC_ROOT: a release's
 * layered site, read as site-folder.ts says) the way a
 * CDN would: clean URLs without trailing slash (/provider/x -> provider/x.html),
 * the header rules of src/site/static-headers.ts, weak ETags and 304s, and a small
 * cache of compressed bodies. The root is resolved per request, so swapping a
 * symlinked root takes effect on the next request.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { chooseEncoding, compress } from './compression.ts';
import { keptCopy } from './kept-buffer.ts';
import { fileInSite, siteLayers, type SiteLayers } from './site-folder.ts';

export type HeaderRules = (pathname: string) => Record<string, string>;

const COMPRESSIBLE_EXT = new Set(['.html', '.xml', '.json', '.txt', '.css', '.js', '.svg', '.webmanifest']);
const CACHE_LIMIT_BYTES = 64 * 1024 * 1024;

export class StaticFiles {
  private readonly compressed = new Map<string, Buffer>();
  private cachedBytes = 0;
  /** the layers of the last root seen (the root changes when the symlink is swapped) */
  private layersOf: { root: string; site: SiteLayers } | undefined;

  private readonly root: () => string;
  private readonly headersFor: HeaderRules;
  constructor(root: () => string, headersFor: HeaderRules) {
    this.root = root;
    this.headersFor = headersFor;
  }

  /** Resolves a URL path to a file under the root, or null. */
  resolve(pathname: string): { file: string; stat: fs.Stats } | null {
    let decoded: string;
    try {
      decoded = decodeURIComponent(pathname);
    } catch {
      return null;
    }
    if (decoded.includes('\0')) return null;
    const root = this.root();
    if (this.layersOf?.root !== root) this.layersOf = { root, site: siteLayers(root) };
    const candidates =
      decoded === '/' ? ['index.html'] : decoded.endsWith('/') ? [] : [decoded.slice(1), `${decoded.slice(1)}.html`];
    for (const rel of candidates) {
      const found = fileInSite(this.layersOf.site, rel);
      if (found) return found;
    }
    return null;
  }

  /** Serves the file when one exists; returns false when the path is not a static file. */
  serve(req: IncomingMessage, res: ServerResponse, pathname: string, extraHeaders: Record<string, string>): boolean {
    const found = this.resolve(pathname);
    if (!found) return false;
    const { file, stat } = found;
    const etag = `W/"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`;
    const headers: Record<string, string> = { ...this.headersFor(pathname === '/' ? '/index.html' : pathname), ...extraHeaders, etag };
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304, headers);
      res.end();
      return true;
    }
    const ext = path.extname(file);
    const encoding = COMPRESSIBLE_EXT.has(ext) && stat.size >= 1024 ? chooseEncoding(req.headers['accept-encoding']) : null;
    let body: Buffer;
    if (encoding) {
      const key = `${file}|${stat.mtimeMs}|${stat.size}|${encoding}`;
      body = this.compressed.get(key) ?? this.remember(key, compress(fs.readFileSync(file), encoding));
      headers['content-encoding'] = encoding;
      headers['vary'] = 'Accept-Encoding';
    } else {
      body = fs.readFileSync(file);
      if (COMPRESSIBLE_EXT.has(ext)) headers['vary'] = 'Accept-Encoding';
    }
    headers['content-length'] = String(body.length);
    res.writeHead(200, headers);
    res.end(req.method === 'HEAD' ? undefined : body);
    return true;
  }

  private remember(key: string, body: Buffer): Buffer {
    if (body.length > CACHE_LIMIT_BYTES / 8) return body;
    while (this.cachedBytes + body.length > CACHE_LIMIT_BYTES && this.compressed.size) {
      const oldest = this.compressed.keys().next().value!;
      this.cachedBytes -= this.compressed.get(oldest)!.length;
      this.compressed.delete(oldest);
    }
    const kept = keptCopy(body);
    this.compressed.set(key, kept);
    this.cachedBytes += kept.length;
    return kept;
  }
}

/** The two content encodings the server speaks, shared by the API path, the answer cache and static files. */
import zlib from 'node:zlib';

/** Picks br or gzip from Accept-Encoding (br preferred), or null. */
export function chooseEncoding(acceptEncoding: string | undefined): 'br' | 'gzip' | null {
  if (!acceptEncoding) return null;
  const ae = acceptEncoding.toLowerCase();
  if (/\bbr\b(?!;q=0(?:\.0*)?\b)/.test(ae)) return 'br';
  if (/\bgzip\b(?!;q=0(?:\.0*)?\b)/.test(ae)) return 'gzip';
  return null;
}

export function compress(body: Buffer, encoding: 'br' | 'gzip'): Buffer {
  return encoding === 'br'
    ? zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } })
    : zlib.gzipSync(body, { level: 6 });
}

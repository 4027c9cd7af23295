/**
 * Run inside a test's network namespace (tests/security/support/netns.ts):
 * `node netns-fetch.ts '{"urls": [...], "waitMs": N}'` GETs each URL without
 * following redirects and prints [{url, status, headers}] as JSON. With waitMs, a
 * URL that cannot be reached yet (or answers 5xx) is asked again until then.
 * HTTPS trusts NODE_EXTRA_CA_CERTS (the test's certificate authority).
 */
import process from 'node:process';

const { urls, waitMs } = JSON.parse(process.argv[2]!) as { urls: string[]; waitMs: number };
const deadline = Date.now() + waitMs;
const results: { url: string; status: number; headers: Record<string, string> }[] = [];
for (const url of urls) {
  for (;;) {
    try {
      const res = await fetch(url, { redirect: 'manual' });
      await res.arrayBuffer();
      if (res.status >= 500 && Date.now() < deadline) throw new Error(`HTTP ${res.status}`);
      results.push({ url, status: res.status, headers: Object.fromEntries(res.headers) });
      break;
    } catch (err) {
      if (Date.now() >= deadline) {
        process.stderr.write(`${url}: ${(err as Error).message} ${String((err as { cause?: unknown }).cause ?? '')}\n`);
        process.exit(1);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}
process.stdout.write(JSON.stringify(results));

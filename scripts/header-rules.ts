/**
 * `node scripts/header-rules.ts nginx|headers`: prints the nginx snippet or the
 * `_headers` file for the current settings (CSP_CONNECT_SRC, HSTS_MAX_AGE). The
 * build writes `_headers` itself; docs/nginx-static.conf is this output with the
 * default settings, and an nginx front with other settings includes its own copy
 * (docs/security.md).
 */
import { loadEnv } from '../src/env.ts';
import { renderHeadersFile, renderNginxSnippet } from '../src/site/header-files.ts';
import { staticHeaders } from '../src/site/static-headers.ts';

const form = process.argv[2];
if (form !== 'nginx' && form !== 'headers') {
  process.stderr.write('usage: node scripts/header-rules.ts nginx|headers\n');
  process.exit(2);
}
try {
  const rules = staticHeaders(loadEnv().securityHeaders);
  process.stdout.write(form === 'nginx' ? renderNginxSnippet(rules) : renderHeadersFile(rules));
} catch (err) {
  process.stderr.write(`header-rules: ${(err as Error).message}\n`);
  process.exit(1);
}

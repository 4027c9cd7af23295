/**
 * The MDN HTTP Observatory scanner (the public service's code) against the
 * documented TLS front: docs/nginx-tls.conf as shipped (only the certificate, root
 * and include paths swapped) with docs/nginx-static.conf, in front of a real node
 * (scripts/serve.ts) serving the fixture build, with a certificate authority and a
 * certificate made by openssl for this run. The scanner reads http://HOST and
 * https://HOST on the default ports, so nginx and the node run in a network
 * namespace of the test's own (ports 80 and 443 there, nothing on the machine's).
 * The grade is A+; the other pages carry the root's headers; and the node alone
 * (port 80, no TLS) gets full marks on every test that does not need TLS.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtSite, ROOT, siteEnv, siteFolder, type BuiltSite } from '../site/fixture/built-site.ts';
import { HOSTILE_SLUG } from '../site/fixture/hostile.ts';
import { startNginx, type RunningNginx } from '../support/nginx.ts';
import { makeCertificates, type TestCertificates } from './support/certificates.ts';
import { NetworkNamespace } from './support/netns.ts';
import { observatoryScanner, type ObservatoryScan } from './support/observatory.ts';

const HOST = '127.0.0.1';

let site: BuiltSite;
let scanner: string;
let certs: TestCertificates;
const namespaces: NetworkNamespace[] = [];
const nodes: { child: ChildProcess; log: () => string }[] = [];
let nginx: RunningNginx | undefined;
let front: NetworkNamespace;
let bare: NetworkNamespace;

/** scripts/serve.ts inside a namespace, on a port of it, answering /healthz. */
function startNode(ns: NetworkNamespace, port: number): void {
  const env = { ...siteEnv(site), PORT: String(port), HOST, STATIC_ROOT: site.clientDir, ASTRO_SERVER_ENTRY: site.serverEntry, LOG_LEVEL: 'warn' };
  const child = ns.spawn(process.execPath, [path.join(ROOT, 'scripts/serve.ts')], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout!.on('data', (d) => (log += d));
  child.stderr!.on('data', (d) => (log += d));
  nodes.push({ child, log: () => log });
  try {
    ns.fetchHeaders([`http://${HOST}:${port}/healthz`], certs.caFile, 60_000);
  } catch (err) {
    throw new Error(`${(err as Error).message}\nnode log:\n${log}`);
  }
}

/** docs/nginx-tls.conf with this run's certificate, client folder and snippet. */
function tlsFront(): string {
  const shipped = fs.readFileSync(path.join(ROOT, 'docs/nginx-tls.conf'), 'utf8');
  const conf = shipped
    .replace('/etc/ssl/directory/fullchain.pem', certs.certFile)
    .replace('/etc/ssl/directory/privkey.pem', certs.keyFile)
    .replace('root /srv/directory/releases/current;', `root ${siteFolder(site)};`)
    .replace('include /srv/directory/docs/nginx-static.conf;', `include ${path.join(ROOT, 'docs/nginx-static.conf')};`);
  for (const replaced of [certs.certFile, certs.keyFile, siteFolder(site), 'docs/nginx-static.conf;']) {
    if (!conf.includes(replaced)) throw new Error(`docs/nginx-tls.conf changed shape: ${replaced} was not put in`);
  }
  return conf;
}

function scan(ns: NetworkNamespace): ObservatoryScan {
  const out = ns.run(process.execPath, [scanner, HOST], { ...process.env, NODE_EXTRA_CA_CERTS: certs.caFile }, 120_000);
  const parsed = JSON.parse(out) as ObservatoryScan | { error: string };
  if ('error' in parsed) throw new Error(`the scanner failed: ${parsed.error}`);
  return parsed;
}

beforeAll(async () => {
  site = await builtSite();
  scanner = observatoryScanner();
  const dir = fs.mkdtempSync(path.join(site.dir, 'observatory-'));
  certs = makeCertificates(path.join(dir, 'tls'));
  front = NetworkNamespace.create('pd-front');
  namespaces.push(front);
  bare = NetworkNamespace.create('pd-node');
  namespaces.push(bare);
  startNode(front, 4321); // the upstream address docs/nginx-tls.conf names
  startNode(bare, 80);
  nginx = await startNginx(path.join(dir, 'nginx'), tlsFront(), {
    prefix: front.prefix,
    ready: async () => front.fetchHeaders([`https://${HOST}/robots.txt`], certs.caFile).length === 1,
  });
});

afterAll(async () => {
  await nginx?.stop();
  await Promise.all(
    nodes.map(
      ({ child }) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        }),
    ),
  );
  for (const ns of namespaces) ns.remove();
});

describe('the documented TLS front (docs/nginx-tls.conf)', () => {
  it('grades A+ in the MDN HTTP Observatory, every test passed', () => {
    const result = scan(front);
    console.log(`Observatory through docs/nginx-tls.conf: ${result.scan.grade}, score ${result.scan.score}, ${result.scan.testsPassed}/${result.scan.testsQuantity} tests passed`);
    const failed = Object.entries(result.tests).filter(([, t]) => !t.pass).map(([name, t]) => `${name}: ${t.result}`);
    expect(failed).toEqual([]);
    expect(result.scan.grade).toBe('A+');
    expect(result.scan.score).toBeGreaterThanOrEqual(100);
    expect(result.tests['strict-transport-security']!.result).toBe('hsts-implemented-max-age-at-least-six-months');
    expect(result.tests['redirection']!.result).toBe('redirection-to-https');
    expect(result.tests['content-security-policy']!.result).toBe('csp-implemented-with-no-unsafe-default-src-none');
    expect(result.scan.responseHeaders['strict-transport-security']).toBe('max-age=63072000; includeSubDomains');
  });

  it('redirects plain HTTP to the same host and path on HTTPS, for pages and the API alike', () => {
    const [page, api] = front.fetchHeaders([`http://${HOST}/metode-peringkat`, `http://${HOST}/api/v1/providers?page=2`], certs.caFile);
    expect([page!.status, page!.headers.location]).toEqual([301, `https://${HOST}/metode-peringkat`]);
    expect([api!.status, api!.headers.location]).toEqual([301, `https://${HOST}/api/v1/providers?page=2`]);
  });

  it('sends the provider page, the report page, /search and /compare with the same security headers as the root', () => {
    const slugs = fs
      .readdirSync(path.join(site.clientDir, 'provider'))
      .filter((f) => f.endsWith('.html') && !f.startsWith(HOSTILE_SLUG))
      .map((f) => f.slice(0, -5));
    const pages = ['/', `/provider/${slugs[0]}`, '/laporan/web-development-indonesia-2026', '/search?q=website', `/compare?a=${slugs[0]}&b=${slugs[1]}`];
    const answers = front.fetchHeaders(pages.map((p) => `https://${HOST}${p}`), certs.caFile);
    const SECURITY = ['content-security-policy', 'strict-transport-security', 'x-content-type-options', 'x-frame-options', 'referrer-policy',
      'cross-origin-opener-policy', 'cross-origin-resource-policy', 'permissions-policy'];
    const of = (headers: Record<string, string>) => Object.fromEntries(SECURITY.map((name) => [name, headers[name]]));
    const root = of(answers[0]!.headers);
    expect(Object.values(root).every((v) => typeof v === 'string' && v.length > 0)).toBe(true);
    for (const answer of answers) {
      expect(answer.status, answer.url).toBe(200);
      expect(of(answer.headers), answer.url).toEqual(root);
    }
  });
});

describe('the node alone, over plain HTTP', () => {
  it('gets full marks on every Observatory test it controls (all but HSTS and redirection, which need TLS)', () => {
    const result = scan(bare);
    console.log(`Observatory, the node alone over HTTP: ${result.scan.grade}, score ${result.scan.score}, ${result.scan.testsPassed}/${result.scan.testsQuantity} tests passed`);
    const { 'strict-transport-security': hsts, redirection, ...controlled } = result.tests;
    expect([hsts!.result, redirection!.result]).toEqual(['hsts-not-implemented-no-https', 'redirection-missing']);
    // The best result each test can give a site without cookies or scripts.
    expect(Object.fromEntries(Object.entries(controlled).map(([name, t]) => [name, [t.pass, t.result, t.scoreModifier]]))).toEqual({
      'content-security-policy': [true, 'csp-implemented-with-no-unsafe-default-src-none', 10],
      cookies: [true, 'cookies-not-found', 0],
      'cross-origin-resource-sharing': [true, expect.stringMatching(/^cross-origin-resource-sharing-(?:not-implemented|implemented-with-public-access)$/), 0],
      'cross-origin-resource-policy': [true, 'corp-implemented-with-same-origin', 10],
      'referrer-policy': [true, 'referrer-policy-private', 5],
      // no script is loaded from anywhere (the JSON-LD blocks count as inline scripts here)
      'subresource-integrity': [true, 'sri-not-implemented-but-all-scripts-loaded-from-secure-origin', 0],
      'x-content-type-options': [true, 'x-content-type-options-nosniff', 0],
      'x-frame-options': [true, 'x-frame-options-implemented-via-csp', 5],
    });
  });
});

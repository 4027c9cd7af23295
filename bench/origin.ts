/**
 * What the release origin costs at a given size (docs/operations.md, "Many nodes"):
 * `node bench/origin.ts --snapshot FILE [--files N] [--changed F] [--out DIR]`.
 *
 * A release folder of N site files (default 163,832, the 100,000-provider site;
 * sizes drawn around the seed site's 7.4 KB mean) beside the given snapshot is
 * published to an origin folder, which a real nginx (docs/nginx-origin.conf)
 * serves; a node's follower installs it from there as a fresh node does (every
 * file fetched). Then a second release with a fraction F of the files changed
 * (default 0.04: the 6,148 provider pages and their neighbours a 1% edit touched)
 * and its snapshot is published and installed: the editor's cost of a publish
 * and a node's cost of catching up. Prints one JSON line of figures.
 */
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { OriginFollower } from '../src/ops/origin-follow.ts';
import { publishRelease } from '../src/ops/origin-publish.ts';
import { writeHistory, type ReleasePaths } from '../src/ops/releases.ts';
import { linkTree } from '../src/ops/tree.ts';
import { verifyOffThread } from '../src/ops/verify.ts';
import { ReleaseStatus } from '../src/server/release-status.ts';
import { progress } from './log.ts';
import { prng } from './queries.ts';

const { values } = parseArgs({
  options: { snapshot: { type: 'string' }, files: { type: 'string', default: '163832' }, changed: { type: 'string', default: '0.04' }, out: { type: 'string' } },
});
if (!values.snapshot) throw new Error('usage: node bench/origin.ts --snapshot FILE [--files N] [--changed F] [--out DIR]');
const fileCount = Number(values.files);
const changed = Number(values.changed);
// Inside the project: a node's release folders resolve the project's packages (src/ops/rebuild.ts).
const work = path.resolve(values.out ?? fs.mkdtempSync(path.join('bench', 'cache', 'origin-')));
const rand = prng(41);

const publisher: ReleasePaths = { releasesDir: path.join(work, 'editor'), liveSnapshot: path.join(work, 'editor.db'), staticRoot: path.join(work, 'editor-current') };
const node: ReleasePaths = { releasesDir: path.join(work, 'node'), liveSnapshot: path.join(work, 'node.db'), staticRoot: path.join(work, 'node-current') };
const originDir = path.join(work, 'origin');

function writeSite(dir: string, from: number, to: number, salt: string): void {
  for (let i = from; i < to; i++) {
    const file = path.join(dir, 'client', 'provider', String(Math.floor(i / 1000)), `p${i}.html`);
    if (i === from || i % 1000 === 0) fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.rmSync(file, { force: true });
    const size = Math.round(2_000 + rand() * 11_000);
    fs.writeFileSync(file, crypto.createHash('sha256').update(`${salt}${i}`).digest('hex').repeat(Math.ceil(size / 64)).slice(0, size));
  }
}

async function startNginx(): Promise<{ url: string; stop: () => void }> {
  const port = await new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(p));
    });
  });
  const dir = path.join(work, 'nginx');
  fs.mkdirSync(path.join(dir, 'logs'), { recursive: true });
  const server = fs.readFileSync('docs/nginx-origin.conf', 'utf8').replace('listen 8080;', `listen 127.0.0.1:${port};`).replace('root /srv/directory-origin;', `root ${path.resolve(originDir)};`);
  fs.writeFileSync(path.join(dir, 'nginx.conf'), `daemon off; worker_processes 1; pid ${dir}/nginx.pid; error_log ${dir}/logs/error.log warn;
events { worker_connections 256; }
http { access_log off; client_body_temp_path ${dir}/b; proxy_temp_path ${dir}/p; fastcgi_temp_path ${dir}/f; uwsgi_temp_path ${dir}/u; scgi_temp_path ${dir}/s;
${server} }`);
  const child = spawn(fs.existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : 'nginx', ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', path.join(dir, 'logs/error.log')], { stdio: 'inherit' });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (await fetch(`${url}/current.json`).then(() => true, () => false)) break;
    if (i === 400) throw new Error('nginx did not answer');
    await new Promise((r) => setTimeout(r, 50));
  }
  return { url, stop: () => void child.kill('SIGTERM') };
}

const seconds = (started: number) => Math.round((performance.now() - started) / 100) / 10;

const a = path.join(publisher.releasesDir, 'rel-a');
if (!fs.existsSync(path.join(a, 'snapshot.db'))) {
  // --out keeps the first release's folder for another run; the origin and the node start empty each time.
  progress(`origin: writing a release of ${fileCount} files ...`);
  fs.mkdirSync(a, { recursive: true });
  writeSite(a, 0, fileCount, 'a');
  fs.copyFileSync(values.snapshot, path.join(a, 'snapshot.db'));
}
for (const dir of [originDir, node.releasesDir, path.join(publisher.releasesDir, 'rel-b')]) fs.rmSync(dir, { recursive: true, force: true });
fs.rmSync(path.join(a, '.origin-files.json'), { force: true });
writeHistory(publisher, ['rel-a']);
fs.mkdirSync(originDir, { recursive: true });
fs.chmodSync(work, 0o755);

let t = performance.now();
const first = publishRelease(publisher, 'rel-a', originDir);
const publishFirstS = seconds(t);
const nginx = await startNginx();
const status = new ReleaseStatus(nginx.url);
const follower = new OriginFollower({ originUrl: nginx.url, pollMs: 1000, paths: node, keep: 3, verify: verifyOffThread, vouch: () => {}, status, logger: pino({ level: 'warn' }) });
try {
  progress('origin: a fresh node installs it ...');
  t = performance.now();
  await follower.poll();
  const installFreshS = seconds(t);
  if (status.servingRelease() !== 'rel-a') throw new Error(`the node did not install rel-a: ${JSON.stringify(status.body())}`);

  progress(`origin: a second release with ${Math.round(changed * 100)}% of the files changed ...`);
  const b = path.join(publisher.releasesDir, 'rel-b');
  fs.mkdirSync(b);
  linkTree(path.join(a, 'client'), path.join(b, 'client'));
  writeSite(b, 0, Math.round(fileCount * changed), 'b');
  // The same snapshot under the new release: a node fetches it whole all the same (each release's snapshot is its own file).
  fs.copyFileSync(values.snapshot, path.join(b, 'snapshot.db'));
  writeHistory(publisher, ['rel-a', 'rel-b']);
  t = performance.now();
  const second = publishRelease(publisher, 'rel-b', originDir);
  const publishSecondS = seconds(t);
  t = performance.now();
  await follower.poll();
  const installNextS = seconds(t);
  console.log(
    JSON.stringify({
      files: fileCount,
      siteMb: Math.round(first.copiedBytes / 1e6 - fs.statSync(values.snapshot).size / 1e6),
      snapshotMb: Math.round(fs.statSync(values.snapshot).size / 1e6),
      publishFirstS,
      installFreshS,
      changedFiles: second.copiedFiles,
      publishSecondS,
      installNextS,
      nodeServes: status.servingRelease(),
      cores: os.availableParallelism(),
    }),
  );
} finally {
  nginx.stop();
  if (!values.out) fs.rmSync(work, { recursive: true, force: true });
}

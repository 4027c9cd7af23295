/**
 * A real nginx (Debian's) for the tests, in the foreground, with its files in a
 * folder of the test: the given `http {}` body (a shipped example with the test's
 * addresses) inside a minimal main configuration. A missing nginx fails the test
 * with the package to install; it is never a skip.
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';

export const NGINX = '/usr/sbin/nginx';

export interface RunningNginx {
  stop: () => Promise<void>;
  log: () => string;
}

export interface NginxOptions {
  /** A command the nginx command line is appended to (`ip netns exec NAME`). */
  prefix?: string[];
  /** Resolves true once nginx answers; polled until 30 s have passed. */
  ready: () => Promise<boolean>;
}

export async function startNginx(dir: string, httpBody: string, options: NginxOptions): Promise<RunningNginx> {
  if (!fs.existsSync(NGINX)) throw new Error(`nginx is missing at ${NGINX}: apt-get install -y nginx (.ci/run does)`);
  for (const sub of ['tmp', 'logs']) fs.mkdirSync(path.join(dir, sub), { recursive: true });
  // As root, nginx's workers drop to an unprivileged user that cannot read a clone
  // under a 0700 folder (mktemp -d): keep them as the user running the test.
  const user = process.getuid?.() === 0 ? 'user root;' : '';
  const conf = `
daemon off;
${user}
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/logs/error.log warn;
events { worker_connections 64; }
http {
  include /etc/nginx/mime.types;
  default_type application/octet-stream;
  access_log off;
  client_body_temp_path ${dir}/tmp/body;
  proxy_temp_path ${dir}/tmp/proxy;
  fastcgi_temp_path ${dir}/tmp/fastcgi;
  uwsgi_temp_path ${dir}/tmp/uwsgi;
  scgi_temp_path ${dir}/tmp/scgi;
${httpBody}
}`;
  const confFile = path.join(dir, 'nginx.conf');
  const errorLog = path.join(dir, 'logs/error.log');
  fs.writeFileSync(confFile, conf);
  const [command, ...args] = [...(options.prefix ?? []), NGINX, '-p', dir, '-c', confFile, '-e', errorLog];
  const child: ChildProcess = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const log = () => `${output}${fs.existsSync(errorLog) ? fs.readFileSync(errorLog, 'utf8') : ''}`;
  const deadline = Date.now() + 30_000;
  while (!(await options.ready().catch(() => false))) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}: ${log()}`);
    if (Date.now() > deadline) throw new Error(`nginx did not start: ${log()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    log,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGQUIT');
      await exited;
    },
  };
}

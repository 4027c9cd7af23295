/**
 * The kept page renderer (issue 43): renders a release's planned pages through
 * the prerender bundle the last full `astro build` kept in its server/ folder
 * (src/site/kept-bundle.ts), instead of a whole `astro build` whose bundling alone
 * costs tens of seconds. The bytes are those `astro build` writes for the same
 * data: the same bundle renders them, requested and named as Astro does
 * (page-files.ts), with the VIC cards from the build's own writer.
 *
 * The render runs on a short-lived worker thread (page-render-worker.ts) that
 * loads the bundle afresh: the bundle's modules keep per-process state (the
 * getStaticPaths cache, the snapshot the pages read), so each release is
 * rendered by modules that have seen only its snapshot. Only sound when the
 * bundle was built by the same code and settings (the build fingerprint,
 * src/ops/fingerprint.ts); render.ts checks that first.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { KEPT_BUNDLE_DIR, KEPT_HEAD_FILE } from '../site/kept-bundle.ts';
import type { PageRenderWorkerDone, PageRenderWorkerInput } from './page-render-worker.ts';

export interface KeptRenderInput {
  /** the server/ folder of the release that kept the bundle */
  serverDir: string;
  snapshotFile: string;
  /** JSON list of URL paths (src/site/render-scope.ts) */
  scopeFile: string;
  /** the release's site aggregates, which the pages read instead of computing them (src/query/site-aggregates.ts) */
  aggregatesFile: string;
  /** where each route's full path list is recorded (the new release's page manifest) */
  manifestDir: string;
  /** the rendered files go here, by their path under client/ */
  outDir: string;
  baseEnv: NodeJS.ProcessEnv;
}

/** The kept bundle's folder in a release's server/ folder, when it has one. */
export function keptBundleDir(serverDir: string): string | undefined {
  const dir = path.join(serverDir, KEPT_BUNDLE_DIR);
  return fs.existsSync(path.join(dir, KEPT_HEAD_FILE)) ? dir : undefined;
}

export function renderKeptPages(o: KeptRenderInput): Promise<PageRenderWorkerDone> {
  const bundleDir = keptBundleDir(o.serverDir);
  if (!bundleDir) return Promise.reject(new Error(`${o.serverDir} holds no kept page bundle`));
  fs.mkdirSync(o.outDir, { recursive: true });
  const workerData: PageRenderWorkerInput = {
    bundleDir,
    outDir: o.outDir,
    aggregatesFile: o.aggregatesFile,
    env: { ...o.baseEnv, DIRECTORY_DB: o.snapshotFile, RENDER_SCOPE_FILE: o.scopeFile, RENDER_MANIFEST_DIR: o.manifestDir },
  };
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./page-render-worker.ts', import.meta.url), { workerData });
    let done: PageRenderWorkerDone | undefined;
    worker.on('message', (m: PageRenderWorkerDone) => (done = m));
    worker.on('error', reject);
    worker.on('exit', (code) => {
      if (code === 0 && done) resolve(done);
      else reject(new Error(`the page renderer stopped with exit code ${code}`));
    });
  });
}

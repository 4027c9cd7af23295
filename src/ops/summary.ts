/** The editor's summary of a rebuild: what changed in the data, which URLs changed, and the time of each step. */
import path from 'node:path';
import { allChanged, countByKind } from './changed-urls.ts';
import type { RebuildResult } from './rebuild.ts';
import { stepLine } from './rebuild-steps.ts';

const LISTED = 20;

function names(list: { slug: string }[]): string {
  const shown = list.slice(0, LISTED).map((p) => p.slug).join(', ');
  return list.length > LISTED ? `${shown}, ... (+${list.length - LISTED})` : shown;
}

export function formatSummary(r: RebuildResult, cwd = process.cwd()): string {
  const d = r.diff;
  const lines = [
    `release ${r.releaseId} is live (snapshot ${r.snapshotId}; previous ${r.previousReleaseId ?? 'none'})`,
    `providers: ${d.added.length} added, ${d.removed.length} removed, ${d.updated.length} updated, ${d.unchanged} unchanged`,
  ];
  if (d.added.length) lines.push(`  added:   ${names(d.added)}`);
  if (d.removed.length) lines.push(`  removed: ${names(d.removed)}`);
  if (d.updated.length) lines.push(`  updated: ${names(d.updated.map((u) => u.after))}`);
  if (r.previousReleaseId && d.categoriesChanged) lines.push('  the categories changed');
  if (r.previousReleaseId && d.reportsChanged) lines.push('  the reports changed');
  const render = r.render;
  lines.push(
    `site: ${render.mode} render in ${(render.ms / 1000).toFixed(1)}s (${render.renderedPaths} files rendered, ${render.copiedPaths} kept from the previous release)`,
    render.site.base
      ? `  stored as layers over ${render.site.base} (${render.site.baseFiles} files): ${render.site.overlayFiles} in the overlay, ${render.site.goneFiles} gone`
      : `  stored whole (${render.site.baseFiles} files): the base of the next releases`,
  );
  const urls = allChanged(r.urls);
  const byKind = Object.entries(countByKind(urls))
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${n} ${k}${n === 1 ? '' : 's'}`)
    .join(', ');
  lines.push(`changed URLs: ${urls.length} (${r.urls.added.length} new, ${r.urls.changed.length} changed, ${r.urls.removed.length} gone)${byKind ? `: ${byKind}` : ''}`);
  for (const u of urls.slice(0, LISTED)) lines.push(`  ${u}`);
  if (urls.length > LISTED) lines.push(`  ... (+${urls.length - LISTED})`);
  lines.push(`URL list for IndexNow: ${path.relative(cwd, r.urlsFile)} (request body: ${path.relative(cwd, r.indexNowFile)})`);
  lines.push(stepLine(r.timings));
  return lines.join('\n');
}

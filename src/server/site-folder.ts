/**
 * How a release's site is read (docs/operations.md, "How a release is stored"):
 * STATIC_ROOT points at a release's site/ folder, which holds
 *
 *   base      a symlink to the client/ tree of the last full render
 *   overlay/  every file that differs from the base or is new since it
 *   gone/     an empty file per base file that the release no longer has
 *
 * A file is the overlay's, else nothing when gone/ names it, else the base's.
 * gone/ never names a file the overlay holds. A root without `base` (dist/client
 * of `npm run build`, or a STATIC_ROOT set to a plain folder) is read as it is.
 * The node (static-files.ts), nginx (docs/nginx-static.conf) and the export for a
 * CDN (src/ops/site-layers.ts) read it by this one rule.
 */
import fs from 'node:fs';
import path from 'node:path';

export const BASE = 'base';
export const OVERLAY = 'overlay';
export const GONE = 'gone';

export interface SiteLayers {
  /** where files are looked for, first match wins */
  layers: string[];
  /** the folder whose files hide the base's (a layered site only) */
  gone: string | undefined;
}

export function siteLayers(root: string): SiteLayers {
  if (!fs.existsSync(path.join(root, BASE))) return { layers: [root], gone: undefined };
  return { layers: [path.join(root, OVERLAY), path.join(root, BASE)], gone: path.join(root, GONE) };
}

const isFile = (file: string): fs.Stats | undefined => {
  try {
    const st = fs.statSync(file);
    return st.isFile() ? st : undefined;
  } catch {
    return undefined;
  }
};

/** The file `rel` (relative, with `/`) of a site, or undefined; a `rel` that leaves its layer finds nothing. */
export function fileInSite(site: SiteLayers, rel: string): { file: string; stat: fs.Stats } | undefined {
  for (const [i, layer] of site.layers.entries()) {
    const file = path.join(layer, rel);
    if (!file.startsWith(layer + path.sep)) return undefined;
    if (i > 0 && site.gone && isFile(path.join(site.gone, rel))) return undefined;
    const stat = isFile(file);
    if (stat) return { file, stat };
  }
  return undefined;
}

/**
 * Loaded into the `astro build` child with --import (site-build.ts): as the child
 * exits it writes its peak resident memory (kB, worker threads included) to
 * RENDER_PEAK_RSS_FILE, for the rebuild's step line and release.json.
 */
import fs from 'node:fs';

const file = process.env.RENDER_PEAK_RSS_FILE;
if (file) process.on('exit', () => fs.writeFileSync(file, String(process.resourceUsage().maxRSS)));

/**
 * The release origin (docs/operations.md, "Many nodes"): a folder that `npm run
 * rebuild` / `rollback` write (RELEASE_ORIGIN_DIR) and that any static web server
 * or CDN serves to the nodes (RELEASE_ORIGIN), laid out as
 *
 *   current.json                   the manifest: which release the nodes serve
 *   releases/<id>/snapshot.db      the release's snapshot
 *   releases/<id>/files.json       every other file of the release folder: path, SHA-256, size
 *   files/<ab>/<sha256>            each file's content, once whatever number of releases hold it
 *
 * Everything but current.json is written once and never changed, so a CDN may
 * keep it forever; current.json is written last, by rename, and is what makes a
 * release visible. A node fetches only the files whose content it lacks.
 */
import path from 'node:path';
import * as z from 'zod';

export const MANIFEST = 'current.json';
/** Format of current.json and files.json; a node refuses a format it does not read. */
export const ORIGIN_FORMAT = 1;

const Sha256Schema = z.string().regex(/^[0-9a-f]{64}$/, 'must be a SHA-256 in hex');

/** A path inside a release folder: relative, with `/`, and never leaving the folder. */
const ReleasePathSchema = z
  .string()
  .min(1)
  .refine((p) => !p.startsWith('/') && !p.includes('\\') && !p.includes('\0') && p.split('/').every((part) => part !== '' && part !== '.' && part !== '..'), 'must be a plain relative path');

export const OriginManifestSchema = z.object({
  format: z.literal(ORIGIN_FORMAT),
  /** the release id of npm run rebuild (releases/<id> on the publishing machine and on every node) */
  release: z.string().regex(/^[A-Za-z0-9._-]{1,200}$/),
  publishedAt: z.string(),
  /** the release this one replaced at the origin (null for the first) */
  previous: z.string().nullable(),
  snapshot: z.object({ id: z.string().min(1), path: ReleasePathSchema, size: z.number().int().nonnegative(), sha256: Sha256Schema }),
  files: z.object({ path: ReleasePathSchema, count: z.number().int().nonnegative(), size: z.number().int().nonnegative(), sha256: Sha256Schema }),
});
export type OriginManifest = z.output<typeof OriginManifestSchema>;

/** One file of a release folder: [path, sha256, size]. */
export const ReleaseFilesSchema = z.object({
  format: z.literal(ORIGIN_FORMAT),
  files: z.array(z.tuple([ReleasePathSchema, Sha256Schema, z.number().int().nonnegative()])),
});
export type ReleaseFiles = z.output<typeof ReleaseFilesSchema>;

export const releaseOnOrigin = (id: string, name: string) => `releases/${id}/${name}`;
export const blobOnOrigin = (sha256: string) => `files/${sha256.slice(0, 2)}/${sha256}`;
export const onDisk = (root: string, originPath: string) => path.join(root, ...originPath.split('/'));

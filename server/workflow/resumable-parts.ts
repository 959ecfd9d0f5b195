// Where resumable uploads (tus) keep the bytes that arrived: parts on disk in the blob store's
// temporary area, one file and its `.json` description per upload (@tus/file-store), so an upload
// survives a dropped connection, a server restart or another server process on the same data
// folder. Parts of an upload untouched for a day are removed by the `remove_abandoned_uploads` job.
import { createReadStream } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { FileStore } from '@tus/file-store';
import type { BlobInfo, BlobStore } from '../blob-store';
import type { Config } from '../config';
import type { Database } from '../db/database';

/** An upload nobody sent a byte to for this long is abandoned: its parts and record go. */
export const ABANDONED_AFTER_MS = 24 * 60 * 60 * 1000;
/** A finish that started this long ago and never ended (its server stopped) may be run again. */
export const STALE_FINISH_MINUTES = 15;

/** The folder of the parts: the blob store's temporary area, or under DATA_DIR for a remote store. */
export function resumablePartsFolder(blobStore: BlobStore, config: Pick<Config, 'dataDir'>): string {
  return blobStore.localTemporaryFolder?.('resumable') ?? path.join(config.dataDir, 'resumable-uploads');
}

export function resumablePartsStore(folder: string): FileStore {
  return new FileStore({ directory: folder });
}

/** The parts of a complete upload become a blob (streamed and hashed, memory flat whatever the size). */
export async function storeParts(folder: string, id: string, blobStore: BlobStore, maxBytes: number): Promise<BlobInfo> {
  return blobStore.put(createReadStream(path.join(folder, id)), { maxBytes });
}

/** Removes an upload's parts and their description (nothing when already gone). */
export async function removeParts(folder: string, id: string): Promise<void> {
  await rm(path.join(folder, id), { force: true });
  await rm(path.join(folder, `${id}.json`), { force: true });
}

/**
 * Removes the uploads untouched for a day (parts and record; an accepted or refused one has no
 * parts left, only its record) and parts no record names (a crash between the two writes).
 * Returns how many uploads went.
 */
export async function removeAbandonedUploads(db: Database, folder: string, now = Date.now()): Promise<number> {
  const cutoff = new Date(now - ABANDONED_AFTER_MS);
  const stale = await db.query<{ id: string }>(
    `DELETE FROM resumable_uploads WHERE touched_at < $1 AND state <> 'finishing' RETURNING id`,
    [cutoff],
  );
  for (const { id } of stale) await removeParts(folder, id);

  let names: string[];
  try {
    names = await readdir(folder);
  } catch {
    return stale.length;
  }
  const ids = [...new Set(names.map((name) => name.replace(/\.json$/, '')))].filter((id) => /^[0-9a-f]{32}$/.test(id));
  if (ids.length === 0) return stale.length;
  const known = new Set(
    (await db.query<{ id: string }>('SELECT id FROM resumable_uploads WHERE id = ANY($1::text[])', [ids])).map((row) => row.id),
  );
  let orphans = 0;
  for (const id of ids) {
    if (known.has(id)) continue;
    const touched = await stat(path.join(folder, id)).then((info) => info.mtimeMs, () => 0);
    if (now - touched < ABANDONED_AFTER_MS) continue;
    await removeParts(folder, id);
    orphans += 1;
  }
  return stale.length + orphans;
}

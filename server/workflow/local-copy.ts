// mupdf reads big PDFs through a file descriptor: a blob's own file when the store keeps blobs on
// local disk, else a temporary copy streamed from the store (object storage) into this process's
// temporary space, removed after. A copy's folder names its process, so copies left by a process
// that was killed are found and removed when the next one starts.
import { createWriteStream } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { BlobStore } from '../blob-store';

const COPY_FOLDER = /^portal-copy-(\d+)-/;

export interface LocalCopy {
  path: string;
  dispose(): Promise<void>;
}

export async function localCopy(blobStore: BlobStore, key: string): Promise<LocalCopy> {
  const local = blobStore.localPath(key);
  if (local !== undefined) return { path: local, dispose: async () => undefined };
  const dir = await mkdtemp(path.join(tmpdir(), `portal-copy-${process.pid}-`));
  const file = path.join(dir, 'blob.pdf');
  try {
    await pipeline(blobStore.createReadStream(key), createWriteStream(file));
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  return { path: file, dispose: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * Removes the local copies of processes that ended without removing them (killed mid-file). For
 * a process's start only: its own pid then means an earlier run (a restarted container).
 */
export async function removeCopiesOfEndedProcesses(folder: string = tmpdir()): Promise<number> {
  let removed = 0;
  for (const name of await readdir(folder).catch(() => [])) {
    const pid = Number(COPY_FOLDER.exec(name)?.[1]);
    if (!pid || (pid !== process.pid && isAlive(pid))) continue;
    await rm(path.join(folder, name), { recursive: true, force: true });
    removed += 1;
  }
  return removed;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists under another user.
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

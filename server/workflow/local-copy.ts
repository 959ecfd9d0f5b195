// mupdf reads big PDFs through a file descriptor: a blob's own file when the store keeps blobs on
// local disk, else a temporary copy streamed from the store.
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { BlobStore } from '../blob-store';

export interface LocalCopy {
  path: string;
  dispose(): Promise<void>;
}

export async function localCopy(blobStore: BlobStore, key: string): Promise<LocalCopy> {
  const local = blobStore.localPath(key);
  if (local !== undefined) return { path: local, dispose: async () => undefined };
  const dir = await mkdtemp(path.join(tmpdir(), 'blob-'));
  const file = path.join(dir, 'blob.pdf');
  try {
    await pipeline(blobStore.createReadStream(key), createWriteStream(file));
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  return { path: file, dispose: () => rm(dir, { recursive: true, force: true }) };
}

// Page images read from the blob store while PDF pages are drawn: a few reads ahead, so disk
// reads overlap drawing; straight from the file when the store keeps blobs on local disk.
import { readFile } from 'node:fs/promises';
import type { BlobStore } from '../blob-store';

export async function readBlob(blobStore: BlobStore, key: string): Promise<Buffer> {
  const local = blobStore.localPath(key);
  if (local !== undefined) return readFile(local);
  const chunks: Buffer[] = [];
  for await (const chunk of blobStore.createReadStream(key)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Reads the blobs of `keys` in order with a few reads in flight, so disk reads overlap drawing.
 * Null keys give null.
 */
export async function* readAhead(blobStore: BlobStore, keys: readonly (string | null)[], inFlight = 4): AsyncGenerator<Buffer | null> {
  const reads: Promise<Buffer | null>[] = [];
  const start = (index: number) => {
    const key = keys[index];
    const read = key == null ? Promise.resolve(null) : readBlob(blobStore, key);
    // Surfaces when its turn comes, not as an unhandled rejection meanwhile.
    read.catch(() => undefined);
    reads.push(read);
  };
  for (let i = 0; i < Math.min(inFlight, keys.length); i++) start(i);
  for (let i = 0; i < keys.length; i++) {
    if (i + inFlight < keys.length) start(i + inFlight);
    yield await reads[i]!;
    reads[i] = Promise.resolve(null);
  }
}

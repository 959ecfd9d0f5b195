// Where resumable uploads (tus) keep the bytes that arrived until the last one: in object storage
// when the blob store is there (any server goes on with an upload another began), else on disk in
// the blob store's temporary area, so an upload survives a dropped connection, a server restart
// or another server process on the same data folder. Parts of an upload untouched for a day are
// removed by the `remove_abandoned_uploads` job.
import { createReadStream } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough, pipeline as pipeStreams, type Readable } from 'node:stream';
import { DeleteObjectsCommand, GetObjectCommand, ListObjectsV2Command, S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import { FileStore } from '@tus/file-store';
import { S3Store } from '@tus/s3-store';
import type { DataStore } from '@tus/utils';
import type { BlobInfo, BlobStore } from '../blob-store';
import type { Config, ObjectStorageSettings } from '../config';
import { s3ClientSettings } from '../open-blob-store';
import type { Database } from '../db/database';
import { knownResumableUploads, removeResumableUploadsUntouchedSince } from '../repositories/resumable-uploads';

/** An upload nobody sent a byte to for this long is abandoned: its parts and record go. */
export const ABANDONED_AFTER_MS = 24 * 60 * 60 * 1000;
/** The parts' folder in the folder blob store's temporary area. */
export const PARTS_FOLDER = 'resumable';
/** Parts sent to object storage at a time while an upload arrives (S3's minimum is 5 MB). */
const RESUMABLE_PART_BYTES = 8 * 1024 * 1024;
/** A finish that started this long ago and never ended (its server stopped) may be run again. */
export const STALE_FINISH_MINUTES = 15;

/**
 * Where an upload's parts are kept while they arrive: tus's data store, and what the route does
 * with the parts of a finished or dropped upload.
 */
export interface ResumableParts {
  readonly datastore: DataStore;
  /** The bytes of a complete upload, streamed. */
  read(id: string): Readable;
  /** Removes an upload's parts (nothing when already gone). */
  remove(id: string): Promise<void>;
  /** Parts of uploads the database does not know, untouched for a day (a crash between the two writes). */
  removeOrphans(db: Database, now: number): Promise<number>;
}

/**
 * With object storage the parts are there too (@tus/s3-store), under PREFIX/resumable/, so any
 * server takes the next PATCH of an upload another began; else on disk in the blob store's
 * temporary area (or under DATA_DIR).
 */
export function resumableParts(blobStore: BlobStore, config: Pick<Config, 'dataDir' | 'objectStorage'>): ResumableParts {
  if (config.objectStorage !== undefined) return new ObjectStorageParts(config.objectStorage);
  return new FolderParts(blobStore.localTemporaryFolder?.(PARTS_FOLDER) ?? path.join(config.dataDir, 'resumable-uploads'));
}

/** The parts of a complete upload become a blob (streamed and hashed, memory flat whatever the size). */
export async function storeParts(parts: ResumableParts, id: string, blobStore: BlobStore, maxBytes: number): Promise<BlobInfo> {
  return blobStore.put(parts.read(id), { maxBytes });
}

/** One file and its `.json` description per upload (@tus/file-store). */
class FolderParts implements ResumableParts {
  readonly datastore: FileStore;

  constructor(readonly folder: string) {
    this.datastore = new FileStore({ directory: folder });
  }

  read(id: string): Readable {
    return createReadStream(path.join(this.folder, id));
  }

  async remove(id: string): Promise<void> {
    await rm(path.join(this.folder, id), { force: true });
    await rm(path.join(this.folder, `${id}.json`), { force: true });
  }

  async removeOrphans(db: Database, now: number): Promise<number> {
    let names: string[];
    try {
      names = await readdir(this.folder);
    } catch {
      return 0;
    }
    const ids = [...new Set(names.map((name) => name.replace(/\.json$/, '')))].filter((id) => /^[0-9a-f]{32}$/.test(id));
    if (ids.length === 0) return 0;
    const known = await knownResumableUploads(db, ids);
    let orphans = 0;
    for (const id of ids) {
      if (known.has(id)) continue;
      const touched = await stat(path.join(this.folder, id)).then((info) => info.mtimeMs, () => 0);
      if (now - touched < ABANDONED_AFTER_MS) continue;
      await this.remove(id);
      orphans += 1;
    }
    return orphans;
  }
}

/**
 * A multipart upload per upload, its description in `<id>.info` and a last part smaller than
 * S3's minimum in `<id>.part` (@tus/s3-store); the complete upload is the object `<id>`.
 */
class ObjectStorageParts implements ResumableParts {
  readonly datastore: S3Store;
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;

  constructor(settings: ObjectStorageSettings) {
    this.bucket = settings.bucket;
    this.prefix = `${settings.prefix}resumable/`;
    this.client = new S3Client(s3ClientSettings(settings));
    this.datastore = new PrefixedS3Store(this.prefix, { bucket: settings.bucket, ...s3ClientSettings(settings) });
  }

  read(id: string): Readable {
    const out = new PassThrough();
    this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: `${this.prefix}${id}` })).then(
      (response) => pipeStreams(response.Body as Readable, out, () => undefined),
      (error: unknown) => out.destroy(error as Error),
    );
    return out;
  }

  async remove(id: string): Promise<void> {
    // An unfinished upload's multipart upload is aborted by tus's store; a finished one has none.
    await this.datastore.remove(id).catch(() => undefined);
    await this.client.send(
      new DeleteObjectsCommand({
        Bucket: this.bucket,
        Delete: { Objects: [id, `${id}.info`, `${id}.part`].map((name) => ({ Key: `${this.prefix}${name}` })), Quiet: true },
      }),
    );
  }

  async removeOrphans(db: Database, now: number): Promise<number> {
    // Every upload has its `<id>.info`, written first: its age is the upload's.
    const described = new Map<string, number>();
    let token: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: this.prefix, ContinuationToken: token }));
      for (const object of page.Contents ?? []) {
        const id = /([0-9a-f]{32})\.info$/.exec(object.Key ?? '')?.[1];
        if (id !== undefined) described.set(id, object.LastModified?.getTime() ?? now);
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token !== undefined);
    const ids = [...described.keys()];
    if (ids.length === 0) return 0;
    const known = await knownResumableUploads(db, ids);
    let orphans = 0;
    for (const id of ids) {
      if (known.has(id) || now - described.get(id)! < ABANDONED_AFTER_MS) continue;
      await this.remove(id);
      orphans += 1;
    }
    return orphans;
  }
}

/**
 * @tus/s3-store names objects by upload id at the bucket's root: its client puts them under the
 * store's prefix, beside the blobs (an SDK middleware on every call's Key).
 */
class PrefixedS3Store extends S3Store {
  constructor(prefix: string, s3ClientConfig: S3ClientConfig & { bucket: string }) {
    super({ partSize: RESUMABLE_PART_BYTES, s3ClientConfig });
    this.client.middlewareStack.add(
      (next) => async (args) => {
        const input = args.input as { Key?: string; Delete?: { Objects?: { Key?: string }[] } };
        if (typeof input.Key === 'string') input.Key = `${prefix}${input.Key}`;
        for (const object of input.Delete?.Objects ?? []) if (object.Key !== undefined) object.Key = `${prefix}${object.Key}`;
        return next(args);
      },
      { step: 'initialize', name: 'resumablePartsPrefix' },
    );
  }
}

/**
 * Removes the uploads untouched for a day (parts and record; an accepted or refused one has no
 * parts left, only its record) and parts no record names (a crash between the two writes).
 * Returns how many uploads went.
 */
export async function removeAbandonedUploads(db: Database, parts: ResumableParts, now = Date.now()): Promise<number> {
  const cutoff = new Date(now - ABANDONED_AFTER_MS);
  const stale = await removeResumableUploadsUntouchedSince(db, cutoff);
  for (const id of stale) await parts.remove(id);
  return stale.length + (await parts.removeOrphans(db, now));
}

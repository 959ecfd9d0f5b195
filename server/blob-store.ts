// Where uploaded PDFs, page images and generated PDFs live. Content-addressed by SHA-256:
// a blob's key is its hash, so the same bytes are stored once. Writes stream to a temporary
// file while hashing and counting, and only a complete, verified file is renamed into place:
// an aborted or oversized upload leaves nothing behind.
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface BlobInfo {
  key: string;
  sha256: string;
  size: number;
}

export interface PutOptions {
  /** Overrides the store's default limit for this write. */
  maxBytes?: number;
  signal?: AbortSignal;
}

export type BlobSource = Readable | AsyncIterable<Uint8Array> | Uint8Array;

export interface BlobStore {
  put(source: BlobSource, options?: PutOptions): Promise<BlobInfo>;
  /** Streams a blob; `end` is inclusive like fs.createReadStream. A missing key errors the stream (ENOENT). */
  createReadStream(key: string, range?: { start?: number; end?: number }): Readable;
  stat(key: string): Promise<{ size: number } | null>;
  delete(key: string): Promise<void>;
  /**
   * A local file path for the blob when the store keeps blobs on local disk (tools such as
   * mupdf read big PDFs through a file descriptor); undefined for remote stores.
   */
  localPath(key: string): string | undefined;
  /**
   * A folder of the store's temporary area for files kept longer than one write (resumable
   * uploads' parts), when the store keeps files on local disk; the sweep of stopped writes
   * leaves it alone. Absent for remote stores.
   */
  localTemporaryFolder?(name: string): string;
}

/** The write went over its byte limit; nothing was stored. */
export class BlobTooLargeError extends Error {
  readonly code = 'BLOB_TOO_LARGE';
  constructor(public readonly limit: number) {
    super(`Blob exceeds the limit of ${limit} bytes`);
    this.name = 'BlobTooLargeError';
  }
}

export class InvalidBlobKeyError extends Error {
  constructor(key: string) {
    super(`Invalid blob key "${key.slice(0, 80)}"`);
    this.name = 'InvalidBlobKeyError';
  }
}

const KEY = /^[0-9a-f]{64}$/;
/** A temporary file this long untouched belongs to no running write (writes touch it with every chunk). */
const STALE_TEMP_MS = 60 * 60 * 1000;
/** How often a server removes temporary files of writes that stopped (sweepTempFilesPeriodically). */
export const TEMP_SWEEP_MS = 10 * 60 * 1000;
/** The writer's process and host in every temporary name: `<time>-<random>~<pid>~<host>.part`. */
const HOST = hostname().replace(/[^A-Za-z0-9.-]/g, '_');
const WRITER = `${process.pid}~${HOST}`;
const TEMP_WRITER = /~(\d+)~([A-Za-z0-9._-]+)\.part$/;
/** Temporary files of writes in flight in this process (over every store instance). */
const writesInFlight = new Set<string>();

/** How a store writes bytes held in memory, and a stream. */
export interface PutWays {
  bytes(bytes: Uint8Array): Promise<BlobInfo>;
  stream(stream: Readable | AsyncIterable<Uint8Array>): Promise<BlobInfo>;
}

/** Sends a source to the store's way of writing it (every store's put starts here). */
export async function putEachWay(source: BlobSource, ways: PutWays): Promise<BlobInfo> {
  if (source instanceof Uint8Array) return ways.bytes(source);
  // A stream can fail (its writer aborted) before the copy starts and listens: the error must
  // not go unhandled meanwhile. The copy then reports it (pipeline sees the stream errored).
  const ignoreEarlyError = () => undefined;
  if (source instanceof Readable) source.on('error', ignoreEarlyError);
  try {
    return await ways.stream(source);
  } finally {
    if (source instanceof Readable) source.off('error', ignoreEarlyError);
  }
}

export interface FolderBlobStoreOptions {
  /** Folder holding the blobs, e.g. `${DATA_DIR}/blobs`. */
  root: string;
  /** Default limit per write; Infinity when not set. */
  maxBytes?: number;
}

export class FolderBlobStore implements BlobStore {
  private readonly root: string;
  private readonly tempDir: string;
  private readonly maxBytes: number;

  constructor(options: FolderBlobStoreOptions) {
    this.root = path.resolve(options.root);
    this.tempDir = path.join(this.root, 'tmp');
    this.maxBytes = options.maxBytes ?? Number.POSITIVE_INFINITY;
  }

  async put(source: BlobSource, options: PutOptions = {}): Promise<BlobInfo> {
    const limit = options.maxBytes ?? this.maxBytes;
    return putEachWay(source, {
      bytes: (bytes) => this.putBytes(bytes, limit, options.signal),
      stream: (stream) => this.putStream(stream, limit, options.signal),
    });
  }

  private async putStream(
    input: Readable | AsyncIterable<Uint8Array>,
    limit: number,
    signal?: AbortSignal,
  ): Promise<BlobInfo> {
    const tempPath = this.newTempPath();
    const meter = new HashingMeter(limit);
    try {
      // Created before the copy starts, so the clean-up below always finds it: a stream opening
      // its file lazily could create it after an early abort had already cleaned up.
      const file = await this.openTemp(tempPath);
      await pipeline(input, meter, file.createWriteStream(), { signal });
      // Durable before the database can point at it.
      const handle = await open(tempPath, 'r');
      try {
        await handle.datasync();
      } finally {
        await handle.close();
      }
      const key = meter.sha256();
      await this.moveIntoPlace(tempPath, key);
      return { key, sha256: key, size: meter.bytesSeen };
    } catch (error) {
      // pipeline() has already destroyed the streams; only the partial file is left to remove.
      await rm(tempPath, { force: true });
      throw error;
    } finally {
      writesInFlight.delete(tempPath);
    }
  }

  /**
   * Bytes already in memory (a page image for each page of a scan): hashed, then written in one
   * go. Same guarantees as a stream: durable, and complete or absent.
   */
  private async putBytes(
    bytes: Uint8Array,
    limit: number,
    signal?: AbortSignal,
  ): Promise<BlobInfo> {
    if (bytes.byteLength > limit) throw new BlobTooLargeError(limit);
    signal?.throwIfAborted();
    const key = createHash('sha256').update(bytes).digest('hex');
    const tempPath = this.newTempPath();
    try {
      const file = await this.openTemp(tempPath);
      try {
        await file.writeFile(bytes);
        // Durable before the database can point at it.
        await file.datasync();
      } finally {
        await file.close();
      }
      signal?.throwIfAborted();
      await this.moveIntoPlace(tempPath, key);
      return { key, sha256: key, size: bytes.byteLength };
    } catch (error) {
      await rm(tempPath, { force: true });
      throw error;
    } finally {
      writesInFlight.delete(tempPath);
    }
  }

  // Writes take as few steps as they can: each file system call is a turn of the event loop,
  // and on a server busy reading a scan each turn waits a millisecond or more (a page image
  // took 9 ms to store in ten calls). So folders are made when a call finds them missing, not
  // made sure of before every write, and a blob already stored is not looked for first.

  /** A fresh name in the temporary folder, where blobs are written before they are complete. */
  private newTempPath(): string {
    return path.join(this.tempDir, `${Date.now()}-${randomBytes(8).toString('hex')}~${WRITER}.part`);
  }

  /** Creates a temporary file, and the temporary folder when it is missing (first write, emptied data folder). */
  private async openTemp(tempPath: string): Promise<FileHandle> {
    writesInFlight.add(tempPath);
    try {
      return await open(tempPath, 'wx');
    } catch (error) {
      if (!isMissing(error)) throw error;
      await mkdir(this.tempDir, { recursive: true });
      return open(tempPath, 'wx');
    }
  }

  /**
   * A complete, durable temporary file becomes the blob `key`. The same bytes already stored are
   * replaced by the same bytes (content addressing; readers keep the file they opened).
   */
  private async moveIntoPlace(tempPath: string, key: string): Promise<void> {
    const finalPath = this.pathOf(key);
    try {
      await rename(tempPath, finalPath);
    } catch (error) {
      if (!isMissing(error)) throw error;
      await mkdir(path.dirname(finalPath), { recursive: true });
      await rename(tempPath, finalPath);
    }
  }

  createReadStream(key: string, range: { start?: number; end?: number } = {}): Readable {
    return createReadStream(this.pathOf(key), range);
  }

  async stat(key: string): Promise<{ size: number } | null> {
    try {
      const info = await stat(this.pathOf(key));
      return { size: info.size };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  localPath(key: string): string {
    return this.pathOf(key);
  }

  localTemporaryFolder(name: string): string {
    return path.join(this.tempDir, name);
  }

  /**
   * Removes temporary files of writes that are no longer running: those of a process of this
   * host that has ended (a crash: its next start finds them at once), and any untouched for
   * `olderThanMs` (another host's, or a name without its writer).
   */
  async removeStaleTempFiles(olderThanMs: number = STALE_TEMP_MS): Promise<number> {
    let removed = 0;
    let names: string[];
    try {
      names = await readdir(this.tempDir);
    } catch {
      return 0;
    }
    for (const name of names) {
      const file = path.join(this.tempDir, name);
      // Only writes' own files: folders of longer-lived temporary files keep their own rules.
      if (!name.endsWith('.part') || writesInFlight.has(file)) continue;
      try {
        if (!writerEnded(name) && Date.now() - (await stat(file)).mtimeMs <= olderThanMs) continue;
        await rm(file, { force: true });
        removed += 1;
      } catch {
        // Finished or removed by another process meanwhile.
      }
    }
    return removed;
  }

  private pathOf(key: string): string {
    assertBlobKey(key);
    return path.join(this.root, key.slice(0, 2), key.slice(2, 4), key);
  }
}

/** Keys are SHA-256 hex, nothing else (no path traversal, no stray object names). */
export function assertBlobKey(key: string): void {
  if (!KEY.test(key)) throw new InvalidBlobKeyError(key);
}

/**
 * Whether the temporary file's writer, a process of this host, has ended. This process's own
 * pid counts as ended for a file not in flight here: a restarted container reuses the pid.
 */
function writerEnded(name: string): boolean {
  const writer = TEMP_WRITER.exec(name);
  if (writer === null || writer[2] !== HOST) return false;
  const pid = Number(writer[1]);
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    // EPERM: the process exists under another user.
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** A store that can remove what stopped writes left behind (both stores). */
export interface SweptBlobStore extends BlobStore {
  removeStaleTempFiles(olderThanMs?: number): Promise<number>;
}

/** Removes stale temporary files now and every TEMP_SWEEP_MS; returns a function that stops it. */
export function sweepTempFilesPeriodically(
  store: SweptBlobStore,
  onError: (error: unknown) => void,
  everyMs: number = TEMP_SWEEP_MS,
): () => void {
  const sweep = () => void store.removeStaleTempFiles().catch(onError);
  const timer = setInterval(sweep, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** A file system error for a missing file or folder: how a missing blob shows (ENOENT). */
export function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | null)?.code === 'ENOENT';
}

/** Pass-through that hashes and counts bytes, failing as soon as the limit is passed. */
export class HashingMeter extends Transform {
  // Not `size`: the S3 SDK takes a body's `size` for its length.
  bytesSeen = 0;
  private readonly hash = createHash('sha256');

  constructor(private readonly limit: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytesSeen += chunk.length;
    if (this.bytesSeen > this.limit) {
      callback(new BlobTooLargeError(this.limit));
      return;
    }
    this.hash.update(chunk);
    callback(null, chunk);
  }

  sha256(): string {
    return this.hash.digest('hex');
  }
}

// The blob store in S3-compatible object storage (BLOB_STORE=s3://bucket/prefix), so servers and
// workers on several machines share nothing but PostgreSQL and the bucket. Same guarantees as the
// folder store: a blob's key is its SHA-256; a stream is written as a multipart upload to a
// temporary key while hashed and counted (a few parts in memory, never the whole file), checked
// and then copied to its content key, so only a complete, verified blob is ever visible there.
import { createHash, randomBytes } from 'node:crypto';
import { PassThrough, Readable, pipeline as pipeStreams } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  AbortMultipartUploadCommand,
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import {
  BlobTooLargeError,
  HashingMeter,
  assertBlobKey,
  putEachWay,
  type BlobInfo,
  type BlobSource,
  type BlobStore,
  type PutOptions,
} from './blob-store';

/** A multipart part: the SDK's minimum, so a write holds a few of these in memory at most. */
const PART_BYTES = 5 * 1024 * 1024;
/** Parts sent at once per write. */
const PARTS_IN_FLIGHT = 2;
/**
 * An unfinished write this old belongs to no running write: a 1.5 GB upload over a slow link takes
 * hours, and S3 cannot tell a live multipart upload from a dead one. Same age as a lifecycle rule
 * "abort incomplete multipart uploads after 1 day".
 */
const STALE_WRITE_MS = 24 * 60 * 60 * 1000;

export interface S3Location {
  bucket: string;
  /** Key prefix, empty or ending in "/". */
  prefix: string;
}

export interface S3BlobStoreOptions extends S3Location {
  client: S3Client;
  /** Default limit per write; Infinity when not set. */
  maxBytes?: number;
}

export class S3BlobStore implements BlobStore {
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly blobPrefix: string;
  private readonly tempPrefix: string;
  private readonly maxBytes: number;

  constructor(options: S3BlobStoreOptions) {
    this.client = options.client;
    this.bucket = options.bucket;
    this.blobPrefix = `${options.prefix}blobs/`;
    this.tempPrefix = `${options.prefix}tmp/`;
    this.maxBytes = options.maxBytes ?? Number.POSITIVE_INFINITY;
  }

  async put(source: BlobSource, options: PutOptions = {}): Promise<BlobInfo> {
    const limit = options.maxBytes ?? this.maxBytes;
    return putEachWay(source, {
      bytes: (bytes) => this.putBytes(bytes, limit, options.signal),
      stream: (stream) => this.putStream(stream, limit, options.signal),
    });
  }

  /** Bytes in memory (page images): one PutObject to the content key, its SHA-256 checked by the store. */
  private async putBytes(bytes: Uint8Array, limit: number, signal?: AbortSignal): Promise<BlobInfo> {
    if (bytes.byteLength > limit) throw new BlobTooLargeError(limit);
    signal?.throwIfAborted();
    const digest = createHash('sha256').update(bytes).digest();
    const key = digest.toString('hex');
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: this.objectKey(key),
        Body: bytes,
        ContentLength: bytes.byteLength,
        ChecksumSHA256: digest.toString('base64'),
      }),
      { abortSignal: signal },
    );
    return { key, sha256: key, size: bytes.byteLength };
  }

  private async putStream(input: Readable | AsyncIterable<Uint8Array>, limit: number, signal?: AbortSignal): Promise<BlobInfo> {
    const tempKey = `${this.tempPrefix}${Date.now()}-${randomBytes(8).toString('hex')}.part`;
    const meter = new HashingMeter(limit);
    // The source's own failure (a client gone, the limit, the signal) is the one to report, not
    // what the upload made of it.
    let sourceError: unknown;
    const feeding = pipeline(input, meter, { signal }).catch((error: unknown) => {
      sourceError = error;
    });
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: tempKey, Body: meter, ChecksumAlgorithm: 'SHA256' },
      partSize: PART_BYTES,
      queueSize: PARTS_IN_FLIGHT,
    });
    try {
      await upload.done();
      await feeding;
      if (sourceError !== undefined) throw sourceError;
      const key = meter.sha256();
      const stored = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: tempKey }));
      if (stored.ContentLength !== meter.bytesSeen) {
        throw new Error(`Object storage kept ${stored.ContentLength} bytes of ${meter.bytesSeen} sent`);
      }
      // Server-side, in one request up to 5 GB (an upload stops at 1.5 GB): the bytes do not come back here.
      await this.client.send(
        new CopyObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key), CopySource: copySource(this.bucket, tempKey) }),
      );
      return { key, sha256: key, size: meter.bytesSeen };
    } catch (error) {
      // The meter still open: the upload failed first (the SDK aborted its multipart upload), so
      // stop reading the source. Already destroyed: the source failed, and says why.
      const uploadFailed = !meter.destroyed;
      meter.destroy();
      await feeding;
      throw uploadFailed ? error : (sourceError ?? error);
    } finally {
      // Complete or not, the temporary object goes (absent already when the upload failed).
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: tempKey })).catch(() => undefined);
    }
  }

  createReadStream(key: string, range: { start?: number; end?: number } = {}): Readable {
    const objectKey = this.objectKey(key);
    const out = new PassThrough();
    const { start, end } = range;
    const rangeHeader = start === undefined && end === undefined ? undefined : `bytes=${start ?? 0}-${end ?? ''}`;
    this.client
      .send(new GetObjectCommand({ Bucket: this.bucket, Key: objectKey, Range: rangeHeader }))
      .then(
        (response) => {
          // pipeline keeps backpressure end to end and ends the download when the reader stops.
          pipeStreams(response.Body as Readable, out, () => undefined);
        },
        (error: unknown) => out.destroy(isNotFound(error) ? missingBlob(key) : (error as Error)),
      );
    return out;
  }

  async stat(key: string): Promise<{ size: number } | null> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
      return { size: head.ContentLength ?? 0 };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
  }

  localPath(): undefined {
    return undefined;
  }

  /**
   * Removes what writes that stopped left behind: multipart uploads never completed or aborted
   * (a process killed mid-write) and temporary objects never copied, once older than
   * `olderThanMs`. A store that cannot list multipart uploads (some emulators) is swept of the
   * rest; a bucket lifecycle rule then does that part.
   */
  async removeStaleTempFiles(olderThanMs: number = STALE_WRITE_MS): Promise<number> {
    const cutoff = Date.now() - olderThanMs;
    let removed = 0;
    for await (const upload of this.unfinishedUploads()) {
      if (startedAt(upload.Key, upload.Initiated) > cutoff) continue;
      await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: upload.Key, UploadId: upload.UploadId }));
      removed += 1;
    }
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: this.tempPrefix, ContinuationToken: token }),
      );
      for (const object of page.Contents ?? []) {
        if (startedAt(object.Key, object.LastModified) > cutoff) continue;
        await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: object.Key }));
        removed += 1;
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token !== undefined);
    return removed;
  }

  private async *unfinishedUploads() {
    let keyMarker: string | undefined;
    let uploadIdMarker: string | undefined;
    for (;;) {
      let page;
      try {
        page = await this.client.send(
          new ListMultipartUploadsCommand({ Bucket: this.bucket, Prefix: this.tempPrefix, KeyMarker: keyMarker, UploadIdMarker: uploadIdMarker }),
        );
      } catch (error) {
        if (isNotImplemented(error)) return;
        throw error;
      }
      yield* page.Uploads ?? [];
      if (!page.IsTruncated) return;
      keyMarker = page.NextKeyMarker;
      uploadIdMarker = page.NextUploadIdMarker;
    }
  }

  private objectKey(key: string): string {
    assertBlobKey(key);
    return `${this.blobPrefix}${key}`;
  }
}

/**
 * When a write began: the time in its temporary key (`tmp/<ms>-<random>.part`), which every store
 * keeps as written (some emulators report a made-up upload date), else what the store reports.
 */
function startedAt(key: string | undefined, reported: Date | undefined): number {
  const named = /\/(\d{13})-[0-9a-f]+\.part$/.exec(key ?? '');
  if (named !== null) return Number(named[1]);
  return reported?.getTime() ?? Date.now();
}

function copySource(bucket: string, key: string): string {
  return `${bucket}/${key.split('/').map(encodeURIComponent).join('/')}`;
}

function isNotFound(error: unknown): boolean {
  return error instanceof S3ServiceException && (error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404);
}

function isNotImplemented(error: unknown): boolean {
  return error instanceof S3ServiceException && [501, 405].includes(error.$metadata.httpStatusCode ?? 0);
}

/** A missing blob errors like a missing file (ENOENT), which callers already handle. */
function missingBlob(key: string): Error {
  return Object.assign(new Error(`Blob ${key} is not in object storage`), { code: 'ENOENT' });
}

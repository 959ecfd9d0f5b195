// Both blob stores, the folder and S3-compatible object storage, pass the same tests: content
// addressing, streaming, ranges, limits, aborted writes leaving nothing, deletes, the sweep of
// stopped writes. Object storage runs on real S3 servers on loopback: s3rver (which can neither
// list nor abort multipart uploads) and, where installed, moto_server (which can).
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm, utimes, writeFile, mkdir } from 'node:fs/promises';
import { spawnSync } from 'node:child_process';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import {
  CreateMultipartUploadCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  UploadPartCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BlobTooLargeError, FolderBlobStore, InvalidBlobKeyError, type SweptBlobStore } from '../blob-store.js';
import { loadConfig } from '../config.js';
import { openBlobStore } from '../open-blob-store.js';
import { S3BlobStore } from '../s3-blob-store.js';
import {
  motoServerInstalled,
  startMotoServer,
  startS3rver,
  TEST_BUCKET,
  type TestObjectStorage,
} from '../../tests/helpers/test-object-storage.js';

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

/** Every file under a folder, relative paths. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
}

function chunks(count: number, size: number, failAfter?: number): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (failAfter !== undefined && sent === failAfter) {
        this.destroy(new Error('client went away'));
        return;
      }
      if (sent === count) {
        this.push(null);
        return;
      }
      sent += 1;
      this.push(Buffer.alloc(size, sent % 256));
    },
  });
}


/** A store under test, with what a test needs to see inside it. */
interface StoreUnderTest {
  make(maxBytes?: number): SweptBlobStore;
  /** Everything kept that is not a blob: temporary files and objects, unfinished uploads. */
  leftovers(): Promise<string[]>;
  /** Names of the stored blobs. */
  blobs(): Promise<string[]>;
  /** Leaves behind what a write killed mid-way leaves (a process gone for good). */
  leaveStoppedWrite(): Promise<number>;
  close(): Promise<void>;
}

async function folderStore(): Promise<StoreUnderTest> {
  const root = await mkdtemp(path.join(tmpdir(), 'blobs-'));
  return {
    make: (maxBytes) => new FolderBlobStore({ root, maxBytes }),
    leftovers: async () => (await filesUnder(root)).filter((file) => file.startsWith('tmp')),
    blobs: async () => (await filesUnder(root)).filter((file) => !file.startsWith('tmp')).map((file) => path.basename(file)),
    async leaveStoppedWrite() {
      await mkdir(path.join(root, 'tmp'), { recursive: true });
      await writeFile(path.join(root, 'tmp', '1-aa~1~a-host-gone-for-good.part'), 'half a write');
      return 1;
    },
    close: () => rm(root, { recursive: true, force: true }),
  };
}

async function objectStore(storage: TestObjectStorage, prefix: string): Promise<StoreUnderTest> {
  const client: S3Client = storage.client();
  const keys = async (under: string) =>
    ((await client.send(new ListObjectsV2Command({ Bucket: TEST_BUCKET, Prefix: `${prefix}${under}` }))).Contents ?? []).map(
      (object) => object.Key!.slice(prefix.length),
    );
  return {
    make: (maxBytes) => new S3BlobStore({ client, bucket: TEST_BUCKET, prefix, maxBytes }),
    async leftovers() {
      const uploads = storage.listsUploads
        ? ((await client.send(new ListMultipartUploadsCommand({ Bucket: TEST_BUCKET, Prefix: prefix }))).Uploads ?? []).map(
            (upload) => `unfinished upload ${upload.Key}`,
          )
        : [];
      return [...(await keys('tmp/')), ...uploads];
    },
    blobs: async () => (await keys('blobs/')).map((key) => path.basename(key)),
    async leaveStoppedWrite() {
      // A multipart upload completed but never copied to its content key…
      await client.send(new PutObjectCommand({ Bucket: TEST_BUCKET, Key: `${prefix}tmp/${Date.now()}-aa.part`, Body: 'half a write' }));
      if (!storage.listsUploads) return 1;
      // …and one never completed (s3rver cannot list these: a bucket lifecycle rule removes them).
      const Key = `${prefix}tmp/${Date.now()}-bb.part`;
      const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: TEST_BUCKET, Key }));
      await client.send(new UploadPartCommand({ Bucket: TEST_BUCKET, Key, UploadId, PartNumber: 1, Body: Buffer.alloc(1024) }));
      return 2;
    },
    close: async () => undefined,
  };
}

const MB = 1024 * 1024;
let storeNumber = 0;

const kinds: { name: string; skip?: boolean; start: () => Promise<TestObjectStorage | null> }[] = [
  { name: 'folder', start: async () => null },
  { name: 'object storage (s3rver)', start: startS3rver },
  // moto is a Python package: where it is not installed, these say so as skipped.
  { name: 'object storage (moto_server)', skip: !motoServerInstalled(), start: startMotoServer },
];

describe.each(kinds)('blob store: $name', ({ skip, start }) => {
  let storage: TestObjectStorage | null = null;
  let under: StoreUnderTest;
  let store: SweptBlobStore;

  beforeAll(async () => {
    if (!skip) storage = await start();
  });
  afterAll(async () => {
    await storage?.stop();
  });
  beforeEach(async () => {
    storeNumber += 1;
    under = storage === null ? await folderStore() : await objectStore(storage, `test-${storeNumber}/`);
    store = under.make();
  });
  afterEach(async () => {
    await under?.close();
  });

  it.skipIf(skip)('stores a stream under its SHA-256 and reads it back whole and by ranges', async () => {
    const info = await store.put(Readable.from([Buffer.from('hello '), Buffer.from('world')]));
    expect(info).toEqual({ key: sha256('hello world'), sha256: sha256('hello world'), size: 11 });
    expect(await text(store.createReadStream(info.key))).toBe('hello world');
    expect(await text(store.createReadStream(info.key, { start: 6, end: 10 }))).toBe('world');
    expect(await text(store.createReadStream(info.key, { start: 6 }))).toBe('world');
    expect(await text(store.createReadStream(info.key, { start: 0, end: 4 }))).toBe('hello');
    expect(await store.stat(info.key)).toEqual({ size: 11 });
    expect(await under.blobs()).toEqual([info.key]);
    expect(await under.leftovers()).toEqual([]);
  });

  it.skipIf(skip)('accepts bytes and async iterables, and stores the same content once', async () => {
    const first = await store.put(Buffer.from('same bytes'));
    const second = await store.put(
      (async function* () {
        yield Buffer.from('same ');
        yield Buffer.from('bytes');
      })(),
    );
    expect(second).toEqual(first);
    expect(await under.blobs()).toEqual([first.key]);
    expect(await text(store.createReadStream(first.key))).toBe('same bytes');
  });

  it.skipIf(skip)('streams input of several multipart parts without changing it, and reads it back', async () => {
    const expected = createHash('sha256');
    for (let i = 1; i <= 12; i += 1) expected.update(Buffer.alloc(MB, i % 256));
    const info = await store.put(chunks(12, MB));
    expect(info).toEqual({ key: expected.digest('hex'), sha256: info.key, size: 12 * MB });
    expect(await store.stat(info.key)).toEqual({ size: 12 * MB });
    const back = createHash('sha256');
    for await (const chunk of store.createReadStream(info.key)) back.update(chunk as Buffer);
    expect(back.digest('hex')).toBe(info.key);
    // A range across a part boundary.
    const middle: Buffer[] = [];
    for await (const chunk of store.createReadStream(info.key, { start: 5 * MB - 2, end: 5 * MB + 1 })) middle.push(chunk as Buffer);
    expect([...Buffer.concat(middle)]).toEqual([5, 5, 6, 6]);
    expect(await under.leftovers()).toEqual([]);
  });

  it.skipIf(skip)('aborts a write over maxBytes with a typed error and keeps nothing', async () => {
    const limited = under.make(100_000);
    const error = await limited.put(chunks(10, 16 * 1024)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BlobTooLargeError);
    expect((error as BlobTooLargeError).limit).toBe(100_000);
    // Past a multipart part too.
    await expect(under.make(7 * MB).put(chunks(8, MB))).rejects.toBeInstanceOf(BlobTooLargeError);
    expect(await under.blobs()).toEqual([]);
    expect(await under.leftovers()).toEqual([]);
    // Exactly at the limit is fine, and a per-call limit overrides the store's.
    expect((await limited.put(Buffer.alloc(100_000))).size).toBe(100_000);
    await expect(limited.put(Buffer.alloc(11), { maxBytes: 10 })).rejects.toBeInstanceOf(BlobTooLargeError);
  });

  it.skipIf(skip)('keeps nothing when the source fails half-way, after whole parts were sent (client disconnect)', async () => {
    await expect(store.put(chunks(12, MB, 8))).rejects.toThrow('client went away');
    await expect(store.put(chunks(10, 1024, 5))).rejects.toThrow('client went away');
    expect(await under.blobs()).toEqual([]);
    expect(await under.leftovers()).toEqual([]);
  });

  it.skipIf(skip)('keeps nothing when the write is aborted through its signal', async () => {
    const controller = new AbortController();
    let sent = 0;
    const slow = new Readable({
      read() {
        sent += 1;
        // Whole parts first, then slowly: the abort comes mid-upload.
        if (sent <= 6) this.push(Buffer.alloc(MB, sent));
        else setTimeout(() => this.push(Buffer.alloc(1024)), 5);
        if (sent === 7) setTimeout(() => controller.abort(), 200);
      },
    });
    await expect(store.put(slow, { signal: controller.signal })).rejects.toThrow(/abort/i);
    // Bytes in memory too.
    await expect(store.put(Buffer.alloc(1024), { signal: controller.signal })).rejects.toThrow(/abort/i);
    expect(await under.blobs()).toEqual([]);
    expect(await under.leftovers()).toEqual([]);
  });

  it.skipIf(skip)('reports a stream that fails before the copy starts, unhandled nowhere, and keeps nothing', async () => {
    const source = new Readable({ read() {} });
    const stored = store.put(source);
    // As a PDF writer aborting at once does: the store has not started reading yet.
    source.destroy(new Error('writer aborted'));
    await expect(stored).rejects.toThrow('writer aborted');
    expect(await under.blobs()).toEqual([]);
    expect(await under.leftovers()).toEqual([]);
  });

  it.skipIf(skip)('deletes blobs, answers stat with null for missing ones, and errors a missing read as ENOENT', async () => {
    const info = await store.put(Buffer.from('bye'));
    const kept = await store.put(Buffer.from('stays'));
    await store.delete(info.key);
    expect(await store.stat(info.key)).toBeNull();
    await store.delete(info.key); // deleting twice is fine
    expect(await under.blobs()).toEqual([kept.key]);
    await expect(text(store.createReadStream(sha256('never stored')))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it.skipIf(skip)('refuses keys that are not SHA-256 hex (no path traversal)', async () => {
    expect(() => store.createReadStream('../../etc/passwd')).toThrow(InvalidBlobKeyError);
    await expect(store.stat('ABC')).rejects.toBeInstanceOf(InvalidBlobKeyError);
    await expect(store.delete(`${'a'.repeat(63)}/`)).rejects.toBeInstanceOf(InvalidBlobKeyError);
  });

  it.skipIf(skip)('sweeps what stopped writes left once stale, keeping blobs and fresh writes', async () => {
    const blob = await store.put(Buffer.from('a blob'));
    const left = await under.leaveStoppedWrite();
    expect(await under.leftovers()).toHaveLength(left);
    // Too fresh to be a stopped write for the default age.
    expect(await store.removeStaleTempFiles()).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await store.removeStaleTempFiles(1000)).toBe(left);
    expect(await under.leftovers()).toEqual([]);
    expect(await under.blobs()).toEqual([blob.key]);
  });
});

describe('FolderBlobStore only', () => {
  let root: string;
  let store: FolderBlobStore;

  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'blobs-'));
    store = new FolderBlobStore({ root });
  });

  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('keeps a blob as a file of its own that tools can open (localPath)', async () => {
    const info = await store.put(Readable.from([Buffer.from('hello '), Buffer.from('world')]));
    expect(store.localPath(info.key)).toBe(
      path.join(root, info.key.slice(0, 2), info.key.slice(2, 4), info.key),
    );
  });

  it('makes its folders again when they are gone (a data folder emptied under a running server)', async () => {
    const first = await store.put(Buffer.from('before'));
    await rm(path.join(root, 'tmp'), { recursive: true, force: true });
    await rm(path.join(root, first.key.slice(0, 2)), { recursive: true, force: true });
    const again = await store.put(Buffer.from('before'));
    const streamed = await store.put(Readable.from([Buffer.from('after')]));
    expect(again).toEqual(first);
    expect(await text(store.createReadStream(again.key))).toBe('before');
    expect(await text(store.createReadStream(streamed.key))).toBe('after');
    expect((await filesUnder(root)).sort()).toEqual(
      [first, streamed]
        .map((info) => path.join(info.key.slice(0, 2), info.key.slice(2, 4), info.key))
        .sort(),
    );
  });

  it('removes only stale temporary files', async () => {
    const temp = path.join(root, 'tmp');
    await mkdir(temp, { recursive: true });
    await writeFile(path.join(temp, 'old.part'), 'x');
    await writeFile(path.join(temp, 'new.part'), 'y');
    const dayAgo = new Date(Date.now() - 25 * 3600_000);
    await utimes(path.join(temp, 'old.part'), dayAgo, dayAgo);
    expect(await store.removeStaleTempFiles()).toBe(1);
    expect(await readdir(temp)).toEqual(['new.part']);
  });

  it("removes at once a fresh temporary file whose writer on this host has ended (a crash), keeping live writers' and writes in flight", async () => {
    const temp = path.join(root, 'tmp');
    await mkdir(temp, { recursive: true });
    const host = hostname().replace(/[^A-Za-z0-9.-]/g, '_');
    const ended = spawnSync(process.execPath, ['-e', '']).pid;
    await writeFile(path.join(temp, `1-aa~${ended}~${host}.part`), 'crashed upload');
    // This very pid without a write in flight: a previous run of a restarted container.
    await writeFile(path.join(temp, `2-bb~${process.pid}~${host}.part`), 'previous run');
    await writeFile(path.join(temp, `3-cc~${process.ppid}~${host}.part`), 'another live process');
    await writeFile(path.join(temp, `4-dd~${ended}~other-host.part`), 'another host');

    // A write of this process, in flight while the sweep runs.
    const source = new Readable({ read() {} });
    source.push('first chunk');
    const writing = store.put(source);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await store.removeStaleTempFiles()).toBe(2);
    const left = await readdir(temp);
    expect(left.filter((name) => !name.startsWith('3-') && !name.startsWith('4-'))).toHaveLength(1);
    expect(left).toEqual(expect.arrayContaining([`3-cc~${process.ppid}~${host}.part`, `4-dd~${ended}~other-host.part`]));
    source.push(null);
    const info = await writing;
    expect(await text(store.createReadStream(info.key))).toBe('first chunk');
  });
});

describe('opening the configured store', () => {
  let storage: TestObjectStorage;
  const saved: Record<string, string | undefined> = {};
  beforeAll(async () => {
    storage = await startS3rver();
    for (const [name, value] of Object.entries(storage.env)) {
      saved[name] = process.env[name];
      process.env[name] = value;
    }
  });
  afterAll(async () => {
    await storage.stop();
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it('opens object storage when BLOB_STORE names a bucket, and refuses to start on a missing one', async () => {
    const config = (store: string) => loadConfig({ ...storage.env, BLOB_STORE: store, DATA_DIR: tmpdir() });
    const store = await openBlobStore(config(`s3://${TEST_BUCKET}/opened`));
    expect(store).toBeInstanceOf(S3BlobStore);
    const info = await store.put(Buffer.from('through the configuration'));
    expect(await text(store.createReadStream(info.key))).toBe('through the configuration');
    await expect(openBlobStore(config('s3://no-such-bucket/files'))).rejects.toThrow(
      `BLOB_STORE: bucket "no-such-bucket" at ${storage.endpoint} cannot be used (no such bucket)`,
    );
    expect(await openBlobStore(loadConfig({ DATA_DIR: tmpdir() }))).toBeInstanceOf(FolderBlobStore);
  });
});

// The folder blob store: content addressing, streaming limits, and nothing left behind.
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm, stat, utimes, writeFile, mkdir } from 'node:fs/promises';
import { spawnSync } from 'node:child_process';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BlobTooLargeError, FolderBlobStore, InvalidBlobKeyError } from '../blob-store.js';

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

describe('FolderBlobStore', () => {
  let root: string;
  let store: FolderBlobStore;

  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'blobs-'));
    store = new FolderBlobStore({ root });
  });

  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('stores a stream under its SHA-256 and reads it back', async () => {
    const info = await store.put(Readable.from([Buffer.from('hello '), Buffer.from('world')]));
    expect(info).toEqual({ key: sha256('hello world'), sha256: sha256('hello world'), size: 11 });
    expect(await text(store.createReadStream(info.key))).toBe('hello world');
    expect(await text(store.createReadStream(info.key, { start: 6, end: 10 }))).toBe('world');
    expect(await store.stat(info.key)).toEqual({ size: 11 });
    expect(store.localPath(info.key)).toBe(
      path.join(root, info.key.slice(0, 2), info.key.slice(2, 4), info.key),
    );
  });

  it('accepts bytes and async iterables, and stores the same content once', async () => {
    const first = await store.put(Buffer.from('same bytes'));
    const second = await store.put(
      (async function* () {
        yield Buffer.from('same ');
        yield Buffer.from('bytes');
      })(),
    );
    expect(second).toEqual(first);
    expect(await filesUnder(root)).toEqual([
      path.join(first.key.slice(0, 2), first.key.slice(2, 4), first.key),
    ]);
  });

  it('streams big input without changing it', async () => {
    const expected = createHash('sha256');
    for (let i = 1; i <= 64; i += 1) expected.update(Buffer.alloc(64 * 1024, i % 256));
    const info = await store.put(chunks(64, 64 * 1024));
    expect(info.size).toBe(64 * 64 * 1024);
    expect(info.key).toBe(expected.digest('hex'));
    expect((await stat(store.localPath(info.key))).size).toBe(info.size);
  });

  it('aborts a write over maxBytes with a typed error and keeps nothing', async () => {
    const limited = new FolderBlobStore({ root, maxBytes: 100_000 });
    const error = await limited.put(chunks(10, 16 * 1024)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BlobTooLargeError);
    expect((error as BlobTooLargeError).limit).toBe(100_000);
    expect(await filesUnder(root)).toEqual([]);
    // Exactly at the limit is fine, and a per-call limit overrides the store's.
    expect((await limited.put(Buffer.alloc(100_000))).size).toBe(100_000);
    await expect(limited.put(Buffer.alloc(11), { maxBytes: 10 })).rejects.toBeInstanceOf(
      BlobTooLargeError,
    );
  });

  it('keeps nothing when the source fails half-way (client disconnect)', async () => {
    await expect(store.put(chunks(10, 1024, 5))).rejects.toThrow('client went away');
    expect(await filesUnder(root)).toEqual([]);
  });

  it('keeps nothing when the write is aborted through its signal', async () => {
    const controller = new AbortController();
    const slow = new Readable({
      read() {
        setTimeout(() => this.push(Buffer.alloc(1024)), 5);
      },
    });
    setTimeout(() => controller.abort(), 30);
    await expect(store.put(slow, { signal: controller.signal })).rejects.toThrow(/abort/i);
    expect(await filesUnder(root)).toEqual([]);
    // Bytes in memory too.
    await expect(store.put(Buffer.alloc(1024), { signal: controller.signal })).rejects.toThrow(
      /abort/i,
    );
    expect(await filesUnder(root)).toEqual([]);
  });

  it('reports a stream that fails before the copy starts, unhandled nowhere, and keeps nothing', async () => {
    const source = new Readable({ read() {} });
    const stored = store.put(source);
    // As a PDF writer aborting at once does: the store has not started reading yet.
    source.destroy(new Error('writer aborted'));
    await expect(stored).rejects.toThrow('writer aborted');
    expect(await filesUnder(root)).toEqual([]);
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

  it('deletes blobs and answers stat with null for missing ones', async () => {
    const info = await store.put(Buffer.from('bye'));
    await store.delete(info.key);
    expect(await store.stat(info.key)).toBeNull();
    await store.delete(info.key); // deleting twice is fine
    const missing = store.createReadStream(sha256('never stored'));
    await expect(text(missing)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('refuses keys that are not SHA-256 hex (no path traversal)', async () => {
    expect(() => store.createReadStream('../../etc/passwd')).toThrow(InvalidBlobKeyError);
    await expect(store.stat('ABC')).rejects.toBeInstanceOf(InvalidBlobKeyError);
    await expect(store.delete(`${'a'.repeat(63)}/`)).rejects.toBeInstanceOf(InvalidBlobKeyError);
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

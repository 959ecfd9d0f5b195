// Local copies of stored scans: streamed from a store without files of its own into this
// process's temporary space and removed after; those of a process killed mid-file are removed
// when the next process starts, those of live processes kept.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FolderBlobStore, type BlobStore } from '../../blob-store';
import { localCopy, removeCopiesOfEndedProcesses } from '../local-copy';

describe('local copies of stored scans', () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'local-copy-'));
  });
  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it("copies a blob of a store without local files into this process's temporary space, and removes it after", async () => {
    const folderStore = new FolderBlobStore({ root: folder });
    const { key } = await folderStore.put(Readable.from([Buffer.from('%PDF-1.7 a stored scan')]));
    // The store as object storage looks to its callers: no local path.
    const remote: BlobStore = {
      put: (source, options) => folderStore.put(source, options),
      createReadStream: (k, range) => folderStore.createReadStream(k, range),
      stat: (k) => folderStore.stat(k),
      delete: (k) => folderStore.delete(k),
      localPath: () => undefined,
    };
    const copy = await localCopy(remote, key);
    expect(path.basename(path.dirname(copy.path))).toMatch(new RegExp(`^portal-copy-${process.pid}-`));
    expect(await readFile(copy.path, 'utf8')).toBe('%PDF-1.7 a stored scan');
    await copy.dispose();
    expect(existsSync(path.dirname(copy.path))).toBe(false);
    // The folder store's own file is used as it is.
    expect((await localCopy(folderStore, key)).path).toBe(folderStore.localPath(key));
  });

  it('removes the copies of ended processes and of an earlier run with this pid, keeping live ones', async () => {
    const ended = spawnSync(process.execPath, ['-e', '']).pid;
    for (const name of [`portal-copy-${ended}-aaaa`, `portal-copy-${process.pid}-bbbb`, `portal-copy-${process.ppid}-cccc`, 'another-program']) {
      await mkdir(path.join(folder, name));
    }
    expect(await removeCopiesOfEndedProcesses(folder)).toBe(2);
    expect((await readdir(folder)).sort()).toEqual(['another-program', `portal-copy-${process.ppid}-cccc`]);
  });
});

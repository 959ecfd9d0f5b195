// PGlite in a data folder, as `npm start` runs it: the folder is created by a child process (so
// this process never pays initdb's memory), survives a reopen, is made again when an earlier
// creation was interrupted, and is refused to a second opener.
import { existsSync, mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirInUseError, openPglite } from '../pglite';

let root: string;
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('PGlite data folder', () => {
  it('creates a new folder, keeps its data across a reopen, and refuses a second opener', async () => {
    root = mkdtempSync(path.join(tmpdir(), 'pglite-dir-'));
    const dataDir = path.join(root, 'pglite');
    const first = await openPglite({ dataDir });
    expect(existsSync(path.join(dataDir, 'PG_VERSION'))).toBe(true);
    expect(existsSync(`${dataDir}.new`)).toBe(false);
    await first.exec('CREATE TABLE kept (n int); INSERT INTO kept VALUES (42)');
    await expect(openPglite({ dataDir })).rejects.toBeInstanceOf(DataDirInUseError);
    await first.close();

    const again = await openPglite({ dataDir });
    expect(await again.one('SELECT n FROM kept')).toEqual({ n: 42 });
    await again.close();
  }, 120_000);

  it('makes the folder again when an earlier creation stopped half-way', async () => {
    root = mkdtempSync(path.join(tmpdir(), 'pglite-dir-'));
    const dataDir = path.join(root, 'pglite');
    // What an interrupted move leaves: some of the files, no PG_VERSION.
    mkdirSync(path.join(dataDir, 'base'), { recursive: true });
    writeFileSync(path.join(dataDir, 'postgresql.conf'), 'half');
    mkdirSync(`${dataDir}.new`);
    const db = await openPglite({ dataDir });
    expect(await db.one('SELECT 1 AS one')).toEqual({ one: 1 });
    await db.close();
  }, 120_000);
});

// Several machines: two servers (jobs off) and job worker processes that share nothing but
// PostgreSQL and object storage (BLOB_STORE=s3://…), each with its own empty DATA_DIR. A scan
// uploaded to one server is read by a worker and served by the other; a worker killed mid-file
// hands it to another worker with no page lost or doubled, its progress followed on the other
// server; no DATA_DIR receives a stored file.
// Runs only with DATABASE_URL (PGlite allows one process).
import type { ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database';
import { makeScan, type MadeScan } from '../fixtures/make-scans';
import { signIn } from '../helpers/sign-in';
import { createTestDb } from '../helpers/test-db';
import { startS3rver, TEST_BUCKET, useStorageInProcess, type TestObjectStorage } from '../helpers/test-object-storage';
import { spawnWorker } from '../helpers/worker-process';
import { createPipelineApp, dropJobSchema, type PipelineApp } from './pipeline-harness';
import { expectedSplit, seedScanWorld, sseMessages, upload, waitForProcessing } from './pipeline-world';

const databaseUrl = process.env.DATABASE_URL;
const PREFIX = 'several-machines/';
const PAGES = 30;

let storage: TestObjectStorage;
let db: Database;
let schema: string;
let made: MadeScan;
/** The workers' machine's temporary space, where they copy scans for mupdf. */
let workerTemp: string;
const dataDirs: string[] = [];
const servers: PipelineApp[] = [];
const children: ChildProcess[] = [];
let restoreEnv: (() => void) | undefined;

const sha256 = (bytes: Buffer | Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function ownDataDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'portal-machine-'));
  dataDirs.push(dir);
  return dir;
}

function storageEnv(): Record<string, string> {
  return { ...storage.env, BLOB_STORE: `s3://${TEST_BUCKET}/${PREFIX}` };
}

async function startWorker(): Promise<ChildProcess> {
  const child = spawnWorker({ databaseUrl: databaseUrl!, schema, dataDir: await ownDataDir(), env: { ...storageEnv(), TMPDIR: workerTemp } });
  children.push(child);
  return child;
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 60_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting, last value ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Every file under a folder (none expected: stored files live in object storage). */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
}

/** Local copies of stored scans (tsx keeps its own cache there too). */
async function copiesIn(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((name) => name.startsWith('portal-copy-'));
}

describe.skipIf(databaseUrl === undefined)('servers and workers sharing only PostgreSQL and object storage', () => {
  beforeAll(async () => {
    storage = await startS3rver();
    restoreEnv = useStorageInProcess(storage);
    made = await makeScan({ pages: PAGES, seed: 37 });
    workerTemp = await mkdtemp(path.join(tmpdir(), 'portal-worker-temp-'));
    dataDirs.push(workerTemp);
    db = await createTestDb();
    schema = (await db.one<{ schema: string }>('SELECT current_schema() AS schema')).schema;
    for (let i = 0; i < 2; i += 1) {
      servers.push(await createPipelineApp({ db, dataDir: await ownDataDir(), jobs: { work: false }, env: storageEnv() }));
    }
  });
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    for (const server of servers) await server.close();
    if (db) {
      await dropJobSchema(db);
      await db.close();
    }
    await storage?.stop();
    for (const dir of dataDirs) await rm(dir, { recursive: true, force: true });
    restoreEnv?.();
  });

  it('a scan uploaded to server A is read by workers and served by server B, a killed worker losing nothing', async () => {
    const [serverA, serverB] = servers as [PipelineApp, PipelineApp];
    const world = await seedScanWorld(db, made, { courses: ['The Gospel of John'] });
    // Sessions are rows in PostgreSQL: signed in on A, known on B.
    const admin = await signIn(serverA.app, 'admin@test.local', { role: 'scanning_admin', isAdmin: true });
    const original = readFileSync(made.path);
    const response = await upload(serverA.app, admin, original);
    expect(response.status).toBe(201);
    const fileId = response.body.id!;

    const pagesOf = async () => Number((await db.one<{ n: number }>('SELECT count(*) AS n FROM pages WHERE file_id = $1', [fileId])).n);
    const first = await startWorker();
    const before = await until(pagesOf, (n) => n >= 8, 90_000);
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));
    const stored = await pagesOf();
    expect(stored).toBeGreaterThanOrEqual(before);
    expect(stored).toBeLessThan(PAGES);
    // The killed worker's copy of the scan stays in its machine's temporary space…
    expect(await copiesIn(workerTemp)).toEqual([expect.stringMatching(new RegExp(`^portal-copy-${first.pid}-`))]);

    // The dead worker's lease runs out; a worker on another "machine" (its own DATA_DIR) goes on.
    await db.query(`UPDATE job_leases SET lease_until = now() - interval '1 second' WHERE job = 'process_service_center_upload' AND target_id = $1`, [fileId]);
    const second = await startWorker();
    // Server B follows the progress the worker writes to PostgreSQL, to the end.
    const [, progress] = await Promise.all([
      waitForProcessing(db, fileId, 150_000),
      serverB.app.inject({ method: 'GET', url: `/api/progress/process_service_center_upload/${fileId}`, headers: admin.headers }),
    ]);
    expect(await waitForProcessing(db, fileId)).toBe('success');
    const messages = sseMessages(progress.body) as { status: string; completed: number }[];
    expect(messages.at(-1)).toEqual({ status: 'success', completed: PAGES, count: PAGES, failed: 0 });
    expect(messages.some((message) => message.status === 'running' && message.completed < PAGES)).toBe(true);
    // …until the next worker there starts; its own copy goes when the file is done.
    expect(await copiesIn(workerTemp)).toEqual([]);
    const pages = await db.query<{ id: string; page_number: number; image_blob_key: string | null; answer_sheet_id: string | null }>(
      'SELECT id, page_number, image_blob_key, answer_sheet_id FROM pages WHERE file_id = $1 ORDER BY page_number',
      [fileId],
    );
    expect(pages.map((page) => page.page_number)).toEqual(Array.from({ length: PAGES }, (_, i) => i + 1));
    const expected = expectedSplit(made, world, 0);
    const sheets = await db.query<{ student_id: string | null; lesson_id: string | null }>(
      'SELECT student_id, lesson_id FROM answer_sheets WHERE file_id = $1 ORDER BY sequence',
      [fileId],
    );
    expect(sheets.map((sheet) => [sheet.student_id, sheet.lesson_id])).toEqual(expected.sheets.map((sheet) => [sheet.student_id, sheet.lesson_id]));

    // Server B, which received nothing, serves the original and every page image the worker stored.
    const download = await serverB.app.inject({ method: 'GET', url: `/api/file/${fileId}.pdf`, headers: admin.headers });
    expect(download.statusCode).toBe(200);
    expect(sha256(download.rawPayload)).toBe(sha256(original));
    for (const page of pages.filter((row) => row.image_blob_key !== null)) {
      const preview = await serverB.app.inject({ method: 'GET', url: `/api/pages/${page.id}/preview`, headers: admin.headers });
      expect(preview.statusCode).toBe(200);
      expect(sha256(preview.rawPayload)).toBe(page.image_blob_key);
    }
    expect(pages.filter((row) => row.image_blob_key !== null).length).toBeGreaterThan(PAGES / 2);
    // A thumbnail made on B is stored for A to serve.
    const page = pages.find((row) => row.image_blob_key !== null)!;
    const thumbnail = await serverB.app.inject({ method: 'GET', url: `/api/pages/${page.id}/thumbnail?size=500`, headers: admin.headers });
    expect(thumbnail.statusCode).toBe(200);
    const again = await serverA.app.inject({ method: 'GET', url: `/api/pages/${page.id}/thumbnail?size=500`, headers: admin.headers });
    expect(again.statusCode).toBe(200);
    expect(sha256(again.rawPayload)).toBe(sha256(thumbnail.rawPayload));

    // Everything stored is in the bucket, and no process kept a file in its own DATA_DIR.
    const client = storage.client();
    const objects = ((await client.send(new ListObjectsV2Command({ Bucket: TEST_BUCKET, Prefix: `${PREFIX}blobs/` }))).Contents ?? []).map(
      (object) => path.basename(object.Key!),
    );
    const file = await db.one<{ blob_key: string }>('SELECT blob_key FROM files WHERE id = $1', [fileId]);
    expect(objects).toEqual(expect.arrayContaining([file.blob_key, ...pages.flatMap((row) => (row.image_blob_key === null ? [] : [row.image_blob_key]))]));
    for (const dir of dataDirs.filter((dir) => dir !== workerTemp)) expect(await filesUnder(dir)).toEqual([]);

    second.kill('SIGTERM');
    expect(await new Promise<number | null>((resolve) => second.once('exit', resolve))).toBe(0);
  }, 240_000);
});

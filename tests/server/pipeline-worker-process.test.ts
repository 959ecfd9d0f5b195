// The scale setup on PostgreSQL: a server that only queues (JOB_WORKER off) and job workers as
// separate processes (server/jobs/worker-main.ts). A worker killed with SIGKILL mid-file leaves
// its stored pages; once its lease has run out another worker process resumes the file, with no
// page lost or doubled; a worker running beside it takes the file over within 20 s of the kill.
// Runs only with DATABASE_URL (PGlite allows one process).
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database';
import { makeScan, type MadeScan } from '../fixtures/make-scans';
import { signIn } from '../helpers/sign-in';
import { createTestDb } from '../helpers/test-db';
import { spawnWorker } from '../helpers/worker-process';
import { createPipelineApp, dropJobSchema, type PipelineApp } from './pipeline-harness';
import { expectedSplit, repeatedScan, seedScanWorld, upload, waitForProcessing } from './pipeline-world';

const databaseUrl = process.env.DATABASE_URL;

let db: Database;
let made: MadeScan;
let dataDir: string;
let web: PipelineApp;
let schema: string;
const children: ChildProcess[] = [];

function startWorker(): ChildProcess {
  const child = spawnWorker({ databaseUrl: databaseUrl!, schema, dataDir });
  children.push(child);
  return child;
}

/** A worker process started and waiting for work, with the id it signs its leases with. */
async function startedWorker(): Promise<{ child: ChildProcess; workerId: string }> {
  const child = spawnWorker({ databaseUrl: databaseUrl!, schema, dataDir, logLevel: 'info', stdout: 'pipe' });
  children.push(child);
  const workerId = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const started = /"worker":"([^"]+)".*"msg":"job worker started"/.exec(output);
      if (started) resolve(started[1]!);
    });
    child.once('exit', (code) => reject(new Error(`worker exited (${code}) before starting: ${output}`)));
  });
  return { child, workerId };
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

describe.skipIf(databaseUrl === undefined)('job workers as separate processes (PostgreSQL)', () => {
  beforeAll(async () => {
    made = await makeScan({ pages: 30, seed: 7 });
    db = await createTestDb();
    schema = (await db.one<{ schema: string }>('SELECT current_schema() AS schema')).schema;
    dataDir = await mkdtemp(path.join(tmpdir(), 'portal-workers-'));
    web = await createPipelineApp({ db, dataDir, jobs: { work: false } });
  });
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await web?.close();
    if (db) {
      await dropJobSchema(db);
      await db.close();
    }
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('resumes a file after its worker process was killed, with no page lost or doubled', async () => {
    const world = await seedScanWorld(db, made, { courses: ['The Gospel of John'] });
    const admin = await signIn(web.app, 'admin@test.local', { role: 'scanning_admin', isAdmin: true });
    const response = await upload(web.app, admin, readFileSync(made.path));
    expect(response.status).toBe(201);
    const fileId = response.body.id!;

    const first = startWorker();
    const pagesOf = async () => Number((await db.one<{ n: number }>('SELECT count(*) AS n FROM pages WHERE file_id = $1', [fileId])).n);
    const before = await until(pagesOf, (n) => n >= 8);
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));
    const stored = await pagesOf();
    expect(stored).toBeGreaterThanOrEqual(before);
    expect(stored).toBeLessThan(30);
    expect((await db.one<{ process_status: string }>('SELECT process_status FROM files WHERE id = $1', [fileId])).process_status).toBe('pending');

    // Time passes: the dead worker's lease runs out; a new worker process finds the file at start.
    await db.query(`UPDATE job_leases SET lease_until = now() - interval '1 second' WHERE job = 'process_service_center_upload' AND target_id = $1`, [fileId]);
    const second = startWorker();
    expect(await waitForProcessing(db, fileId, 120_000)).toBe('success');
    const pages = await db.query<{ page_number: number; answer_sheet_id: string | null }>(
      'SELECT page_number, answer_sheet_id FROM pages WHERE file_id = $1 ORDER BY page_number',
      [fileId],
    );
    expect(pages.map((page) => page.page_number)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    const expected = expectedSplit(made, world, 0);
    const sheets = await db.query<{ id: string; student_id: string | null; lesson_id: string | null }>(
      'SELECT id, student_id, lesson_id FROM answer_sheets WHERE file_id = $1 ORDER BY sequence',
      [fileId],
    );
    expect(sheets.map((sheet) => [sheet.student_id, sheet.lesson_id])).toEqual(expected.sheets.map((sheet) => [sheet.student_id, sheet.lesson_id]));
    sheets.forEach((sheet, index) => {
      expect(pages.filter((page) => page.answer_sheet_id === sheet.id).map((page) => page.page_number)).toEqual(
        expected.sheets[index]!.pages.map((page) => page.page_number),
      );
    });

    second.kill('SIGTERM');
    const code = await new Promise<number | null>((resolve) => second.once('exit', resolve));
    expect(code).toBe(0);
  });

  it("takes a killed worker's file over within 20 s when another worker is running", async () => {
    const admin = await signIn(web.app, 'admin@test.local', { role: 'scanning_admin', isAdmin: true });
    // Two workers up and waiting before the file arrives: one takes it, the other is running
    // beside it. The one holding the file is killed a few pages in, so a short file is enough.
    const workers = await Promise.all([startedWorker(), startedWorker()]);
    const response = await upload(web.app, admin, await repeatedScan(made, 3), { name: 'Killed worker' });
    expect(response.status).toBe(201);
    const fileId = response.body.id!;
    const pagesOf = async () => Number((await db.one<{ n: number }>('SELECT count(*) AS n FROM pages WHERE file_id = $1', [fileId])).n);

    await until(pagesOf, (n) => n >= 5);
    const { token } = await db.one<{ token: string }>(
      `SELECT token FROM job_leases WHERE job = 'process_service_center_upload' AND target_id = $1`,
      [fileId],
    );
    const holder = workers.find((worker) => token.startsWith(`${worker.workerId}/`))!;
    const other = workers.find((worker) => worker !== holder)!;
    expect(holder).toBeDefined();
    holder.child.kill('SIGKILL');
    const killed = Date.now();
    await new Promise((resolve) => holder.child.once('exit', resolve));
    const stored = await pagesOf();
    expect(stored).toBeLessThan(90);
    // No lease is expired by hand here: the queue's own lease and sweep.
    await until(pagesOf, (n) => n > stored, 30_000);
    expect((Date.now() - killed) / 1000).toBeLessThan(20);
    expect(await waitForProcessing(db, fileId, 120_000)).toBe('success');
    const pages = await db.query<{ page_number: number }>('SELECT page_number FROM pages WHERE file_id = $1 ORDER BY page_number', [fileId]);
    expect(pages.map((page) => page.page_number)).toEqual(Array.from({ length: 90 }, (_, i) => i + 1));

    other.child.kill('SIGTERM');
    expect(await new Promise<number | null>((resolve) => other.child.once('exit', resolve))).toBe(0);
  }, 150_000);
});

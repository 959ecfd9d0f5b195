// Crash and restart: a worker stopped part way through a file (as a killed process stops: no
// tidying up) leaves its pages and its lease; a restarted server resumes after the last stored
// page, with no page lost or doubled and the same sheets as an uninterrupted run. Also: progress
// followed while the job runs, from another app instance than the one running the job, and a
// file that keeps crashing its workers is failed.
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database';
import { MAX_PROCESSING_ATTEMPTS } from '../../server/jobs/job-types';
import { makeScan, type MadeScan } from '../fixtures/make-scans';
import { signIn } from '../helpers/sign-in';
import { createTestDb } from '../helpers/test-db';
import { createPipelineApp, dropJobSchema, type PipelineApp } from './pipeline-harness';
import { expectedSplit, seedScanWorld, sseMessages, upload, waitForProcessing } from './pipeline-world';

const STOP_AFTER_PAGE = 12;

let db: Database;
let made: MadeScan;
// Every app instance here is the same installation: one database, one blob folder.
let dataDir: string;

beforeAll(async () => {
  made = await makeScan({ pages: 30, seed: 7 });
  db = await createTestDb();
  dataDir = await mkdtemp(path.join(tmpdir(), 'portal-crash-'));
});
afterAll(async () => {
  await dropJobSchema(db);
  await db.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('a worker stopped mid-file', () => {
  it('resumes after the last stored page on restart: no page lost or doubled', async () => {
    const world = await seedScanWorld(db, made, { courses: ['The Gospel of John'] });
    const storedBefore: number[] = [];
    let stopping: Promise<void> | null = null;
    let first: PipelineApp | null = null;
    first = await createPipelineApp({
      db,
      dataDir,
      jobs: {
        hooks: {
          afterPageStored: (_file, page) => {
            storedBefore.push(page);
            // Like a killed process: the worker stops where it is, nothing is tidied up.
            if (page === STOP_AFTER_PAGE) stopping = first!.app.jobs.stop({ crash: true });
          },
        },
      },
    });
    const admin = await signIn(first.app, 'admin@test.local', { role: 'scanning_admin', isAdmin: true });
    const response = await upload(first.app, admin, readFileSync(made.path));
    expect(response.status).toBe(201);
    const fileId = response.body.id!;
    while (stopping === null) await new Promise((resolve) => setTimeout(resolve, 20));
    await stopping;
    expect(storedBefore).toEqual(Array.from({ length: STOP_AFTER_PAGE }, (_, i) => i + 1));
    const mid = await db.one<{ process_status: string; pages: number; sheets: number; lease: string | null }>(
      `SELECT f.process_status, (SELECT count(*) FROM pages WHERE file_id = f.id) AS pages,
              (SELECT count(*) FROM answer_sheets WHERE file_id = f.id) AS sheets,
              (SELECT token FROM job_leases WHERE job = 'process_service_center_upload' AND target_id = f.id) AS lease
       FROM files f WHERE f.id = $1`,
      [fileId],
    );
    // Pages so far are stored, no sheet is (the split is written at the end, all at once), the lease is left behind.
    expect(mid).toMatchObject({ process_status: 'pending', pages: STOP_AFTER_PAGE, sheets: 0 });
    expect(mid.lease).not.toBeNull();
    expect(first.app.contractViolations).toEqual([]);
    await first.close();

    // The restarted server finds the pending file once the dead worker's lease has run out.
    const storedAfter: number[] = [];
    const second = await createPipelineApp({ db, dataDir, jobs: { hooks: { afterPageStored: (_file, page) => void storedAfter.push(page) } } });
    try {
      expect(await waitForProcessing(db, fileId)).toBe('success');
      expect(storedAfter).toEqual(Array.from({ length: 30 - STOP_AFTER_PAGE }, (_, i) => STOP_AFTER_PAGE + i + 1));
      const pages = await db.query<{ page_number: number; answer_sheet_id: string | null; ignored: boolean }>(
        'SELECT page_number, answer_sheet_id, ignored FROM pages WHERE file_id = $1 ORDER BY page_number',
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
        const numbers = pages.filter((page) => page.answer_sheet_id === sheet.id).map((page) => page.page_number);
        expect(numbers).toEqual(expected.sheets[index]!.pages.map((page) => page.page_number));
      });
      const file = await db.one<{ lease: string | null; attempts: number }>(
        `SELECT token AS lease, attempts FROM job_leases WHERE job = 'process_service_center_upload' AND target_id = $1`,
        [fileId],
      );
      expect(file).toEqual({ lease: null, attempts: 2 });
      const progress = await second.app.inject({ method: 'GET', url: `/api/progress/${fileId}`, headers: admin.headers });
      expect(sseMessages(progress.body)).toEqual([{ status: 'success', completed: 30, count: 30, failed: 0 }]);
      expect(second.app.contractViolations).toEqual([]);
    } finally {
      await second.close();
    }
  });

  it('fails a file that keeps stopping its workers, with the reason kept', async () => {
    const app = await createPipelineApp({ db, dataDir, jobs: { work: false } });
    const admin = await signIn(app.app, 'admin@test.local', { role: 'scanning_admin', isAdmin: true });
    const small = await makeScan({ pages: 3, seed: 5 });
    const response = await upload(app.app, admin, readFileSync(small.path), { name: 'Crashing file' });
    const fileId = response.body.id!;
    await app.close();
    // As left by MAX_PROCESSING_ATTEMPTS workers that died holding it.
    await db.query(
      `INSERT INTO job_leases (job, target_id, token, lease_until, attempts)
       VALUES ('process_service_center_upload', $1, 'dead-worker', now() - interval '1 second', $2)`,
      [fileId, MAX_PROCESSING_ATTEMPTS],
    );
    const restarted = await createPipelineApp({ db, dataDir });
    try {
      expect(await waitForProcessing(db, fileId)).toBe('failed');
      const file = await restarted.app.inject({ method: 'GET', url: `/api/file/${fileId}`, headers: admin.headers });
      expect(file.json()).toMatchObject({ process_status: 'failed', failure_reason: expect.stringMatching(/stopped 5 times/) });
      const steps = await restarted.app.inject({ method: 'GET', url: `/api/file/${fileId}/steps`, headers: admin.headers });
      expect(steps.json().step).toBe('robot');
      const progress = await restarted.app.inject({ method: 'GET', url: `/api/progress/${fileId}`, headers: admin.headers });
      expect(sseMessages(progress.body)).toEqual([
        { status: 'failed', completed: 0, count: 3, failed: 0, message: expect.stringMatching(/stopped 5 times/) },
      ]);
    } finally {
      await restarted.close();
    }
  });
});

describe('progress while the job runs', () => {
  it('streams every change to listeners of another server instance until success', async () => {
    // One instance runs jobs; the other only serves requests: its stream reads the shared database.
    const worker = await createPipelineApp({ db, dataDir });
    const web = await createPipelineApp({ db, dataDir, jobs: { work: false } });
    try {
      const admin = await signIn(web.app, 'admin@test.local', { role: 'scanning_admin', isAdmin: true });
      const other = await makeScan({ pages: 12, seed: 3 });
      const response = await upload(web.app, admin, readFileSync(other.path), { name: 'Followed file' });
      const fileId = response.body.id!;
      // The web instance queued the job; the worker instance's sweep or poll takes it.
      const [early, late] = await Promise.all([
        web.app.inject({ method: 'GET', url: `/api/progress/process_service_center_upload/${fileId}`, headers: admin.headers }),
        (async () => {
          await new Promise((resolve) => setTimeout(resolve, 1500));
          return web.app.inject({ method: 'GET', url: `/api/progress/${fileId}`, headers: admin.headers });
        })(),
      ]);
      const messages = sseMessages(early.body) as { status: string; completed: number; count: number; failed: number }[];
      expect(messages[0]!.status).toMatch(/pending|running/);
      expect(messages.at(-1)).toEqual({ status: 'success', completed: 12, count: 12, failed: 0 });
      expect(messages.some((message) => message.status === 'running' && message.completed > 0 && message.completed < 12)).toBe(true);
      for (let i = 1; i < messages.length; i++) expect(messages[i]!.completed).toBeGreaterThanOrEqual(messages[i - 1]!.completed);
      expect(sseMessages(late.body).at(-1)).toEqual({ status: 'success', completed: 12, count: 12, failed: 0 });
      expect(await waitForProcessing(db, fileId)).toBe('success');
      expect(web.app.contractViolations).toEqual([]);
    } finally {
      await web.close();
      await worker.close();
    }
  });
});

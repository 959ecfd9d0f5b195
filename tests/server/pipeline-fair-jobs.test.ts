// Files read at once: small uploads finish while a large one is being read (the process works on
// several files, taking turns on its page workers, each page's result going to its own file), and
// a worker that dies mid-file has its file taken over by another worker within 20 s, with the
// queue's own lease and sweep settings (not the short ones the other pipeline tests use).
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database';
import type { JobsPluginOptions } from '../../server/jobs/jobs-plugin';
import { makeScan, type MadeScan } from '../fixtures/make-scans';
import { signIn } from '../helpers/sign-in';
import { createTestDb } from '../helpers/test-db';
import { deleteFile } from '../../server/routes/files/delete-file';
import { createPipelineApp, dropJobSchema, type PipelineApp } from './pipeline-harness';
import { repeatedScan, seedScanWorld, upload, waitForProcessing } from './pipeline-world';

// 150 pages: far more than the small files' 14, so the large one is still being read when
// they are done (the test checks it is), without uploading hundreds of megabytes.
const COPIES = 5;

let db: Database;
let made: MadeScan;
let dataDir: string;

/** The code a service-center upload keeps for a page of `source` (other kinds are not kept). */
function expectedCode(source: MadeScan, pageNumber: number): string | null {
  const code = source.pages[(pageNumber - 1) % source.pages.length]!.code;
  return code && ['t', 's', 'c'].includes(code.prefix) ? `${code.prefix}/${code.id}` : null;
}

async function storedCodes(fileId: string): Promise<Array<{ page_number: number; code: string | null }>> {
  return db.query(
    `SELECT page_number, CASE WHEN code_prefix IS NULL THEN NULL ELSE code_prefix || '/' || code_id END AS code
     FROM pages WHERE file_id = $1 ORDER BY page_number`,
    [fileId],
  );
}

async function statusOf(fileId: string): Promise<{ process_status: string; pages: number }> {
  const row = await db.one<{ process_status: string; pages: number }>(
    `SELECT process_status, (SELECT count(*) FROM pages WHERE file_id = f.id) AS pages FROM files f WHERE f.id = $1`,
    [fileId],
  );
  return { process_status: row.process_status, pages: Number(row.pages) };
}

beforeAll(async () => {
  made = await makeScan({ pages: 30, seed: 7 });
  db = await createTestDb();
  dataDir = await mkdtemp(path.join(tmpdir(), 'portal-fair-'));
  await seedScanWorld(db, made, { courses: ['The Gospel of John'] });
});
afterAll(async () => {
  await dropJobSchema(db);
  await db.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('files read at once', () => {
  it('finishes small files while a large one is being read, each page stored with its own file', async () => {
    const large = await repeatedScan(made, COPIES);
    const tiny = await makeScan({ pages: 2, seed: 21 });
    const small = await makeScan({ pages: 12, seed: 22 });
    const app = await createPipelineApp({ db, dataDir });
    let largeId: string | undefined;
    try {
      const admin = await signIn(app.app, 'admin@test.local', { role: 'scanning_admin', isAdmin: true });
      largeId = (await upload(app.app, admin, large, { name: 'Large file' })).body.id!;
      // The large file is being read before the small ones arrive.
      while ((await statusOf(largeId)).pages < 5) await new Promise((resolve) => setTimeout(resolve, 50));

      const started = Date.now();
      const tinyId = (await upload(app.app, admin, readFileSync(tiny.path), { name: 'Two pages' })).body.id!;
      const smallId = (await upload(app.app, admin, readFileSync(small.path), { name: 'Twelve pages' })).body.id!;
      // A queue that read one file at a time would finish the large file first.
      expect(await waitForProcessing(db, tinyId)).toBe('success');
      expect(await waitForProcessing(db, smallId)).toBe('success');
      const seconds = (Date.now() - started) / 1000;
      const largeMeanwhile = await statusOf(largeId);
      expect(largeMeanwhile.process_status).toBe('pending');
      expect(largeMeanwhile.pages).toBeLessThan(COPIES * 30);
      // "Within seconds" on a busy shared machine: far less than the large file takes.
      expect(seconds).toBeLessThan(30);

      // Pages read while the files took turns on the same workers went to their own file.
      for (const [id, source] of [[tinyId, tiny], [smallId, small]] as const) {
        const codes = await storedCodes(id);
        expect(codes.map((page) => page.page_number)).toEqual(source.pages.map((page) => page.page_number));
        expect(codes.map((page) => page.code)).toEqual(source.pages.map((page) => expectedCode(source, page.page_number)));
      }
      const largeCodes = await storedCodes(largeId);
      expect(largeCodes.map((page) => page.code)).toEqual(largeCodes.map((page) => expectedCode(made, page.page_number)));
      expect(app.app.contractViolations).toEqual([]);
    } finally {
      await app.close();
      // Read enough: the next test's workers would otherwise take up its remaining pages.
      if (largeId !== undefined) await deleteFile(db, app.app.blobStore, largeId);
    }
  }, 300_000);

  it("takes over a dead worker's file within 20 s, with the queue's own lease and sweep", async () => {
    // The queue's settings as a server runs them: only the hooks differ.
    const own: JobsPluginOptions = { leaseSeconds: undefined, recoverySweepSeconds: undefined, pollingIntervalSeconds: undefined };
    let crashedAt = 0;
    let stopping: Promise<void> | null = null;
    const first: PipelineApp = await createPipelineApp({
      db,
      dataDir,
      jobs: {
        ...own,
        hooks: {
          afterPageStored: (_file, page) => {
            if (page !== 10) return;
            // Like a killed process: the worker stops where it is, its lease left to run out.
            crashedAt = Date.now();
            stopping = first.app.jobs.stop({ crash: true });
          },
        },
      },
    });
    const takenOver: number[] = [];
    let second: PipelineApp | null = null;
    try {
      const admin = await signIn(first.app, 'admin@test.local', { role: 'scanning_admin', isAdmin: true });
      const fileId = (await upload(first.app, admin, await repeatedScan(made, 2), { name: 'Crashing worker' })).body.id!;
      while ((await statusOf(fileId)).pages < 1) await new Promise((resolve) => setTimeout(resolve, 20));
      // Another worker, running while the first holds the file.
      second = await createPipelineApp({
        db,
        dataDir,
        jobs: {
          ...own,
          hooks: {
            afterPageStored: (file) => {
              if (file === fileId) takenOver.push(Date.now());
            },
          },
        },
      });
      while (stopping === null) await new Promise((resolve) => setTimeout(resolve, 20));
      await stopping;
      expect(await waitForProcessing(db, fileId, 120_000)).toBe('success');
      const seconds = (takenOver[0]! - crashedAt) / 1000;
      expect(seconds).toBeLessThan(20);
      const pages = await storedCodes(fileId);
      expect(pages.map((page) => page.page_number)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
      const file = await db.one<{ attempts: number }>(`SELECT attempts FROM job_leases WHERE job = 'process_service_center_upload' AND target_id = $1`, [fileId]);
      expect(file.attempts).toBe(2);
      expect(second.app.contractViolations).toEqual([]);
    } finally {
      await second?.close();
      await first.close();
    }
  }, 300_000);
});

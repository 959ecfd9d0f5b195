// The workflow's jobs after a crash: a worker killed while writing a packet or reading a graded
// upload leaves its lease to run out; the next worker resumes (packets stored before are kept,
// staged pages are not read twice) and the result is the same as one clean run. Re-running a
// finished job changes nothing; regenerating a return file while one is being made is refused.
// Jobs are run here by hand (no queue worker), so a crash can be placed exactly.
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BlobStore } from '../../server/blob-store';
import { newCodeId } from '../../server/db/printed-codes';
import { createJobsPlugin, jobsPlugin } from '../../server/jobs/jobs-plugin';
import { runGradedUpload } from '../../server/jobs/graded-upload';
import { WorkerStopped, type JobContext } from '../../server/jobs/queue';
import { buildReturnFile } from '../../server/jobs/return-file';
import { sendPackets } from '../../server/jobs/send-packets';
import { makeAnswerSheetMaster } from '../../server/pdf/answer-sheet-master';
import { apiPlugins } from '../../server/routes/index';
import { refreshGrading } from '../../server/workflow/grading-state';
import { renderPdfPage } from '../fixtures/render-pdf';
import { signIn, type SignedIn } from '../helpers/sign-in';
import { createTestApp, temporaryFilesLeft, type TestApp } from '../helpers/test-app';
import { dropJobSchema } from './pipeline-harness';
import { coordinator, insertCongregation, insertFile, insertStudent } from './support';
import { api, scanGradedPackets, uploadGraded, uploadOutcomes } from './workflow-world';

const CONGREGATIONS = 3;
const SHEETS_EACH = 6;
const LEASE_SECONDS = 1;

let t: TestApp;
let admin: SignedIn;
let fileId: string;
const congregations: string[] = [];

/** A job context whose worker "crashes" (stops like a killed process) at the n-th blob write. */
function crashingContext(workerId: string, crashAtPut: number | null): { context: JobContext; puts: () => number } {
  const controller = new AbortController();
  let puts = 0;
  const blobStore: BlobStore = {
    put: (source, options) => {
      puts++;
      if (crashAtPut !== null && puts === crashAtPut) controller.abort(new WorkerStopped(true));
      return t.blobStore.put(source, { ...options, signal: controller.signal });
    },
    createReadStream: (key, range) => t.blobStore.createReadStream(key, range),
    stat: (key) => t.blobStore.stat(key),
    delete: (key) => t.blobStore.delete(key),
    localPath: (key) => t.blobStore.localPath(key),
  };
  const quiet = () => undefined;
  return {
    context: {
      db: t.db,
      blobStore,
      config: t.config,
      logger: { info: quiet, warn: quiet, error: quiet } as unknown as JobContext['logger'],
      signal: controller.signal,
      hooks: {},
      workerId,
      leaseSeconds: LEASE_SECONDS,
    },
    puts: () => puts,
  };
}

const leaseRunsOut = () => new Promise((resolve) => setTimeout(resolve, LEASE_SECONDS * 1000 + 300));

beforeAll(async () => {
  // The queue is not worked here: jobs run by hand.
  t = await createTestApp({
    plugins: apiPlugins({ validateResponses: true }).map((plugin) => (plugin === jobsPlugin ? createJobsPlugin({ work: false }) : plugin)),
  });
  admin = await signIn(t.app, 'admin@test.local', { role: 'scanning_admin', isAdmin: true });
  const course = await t.db.one<{ id: string }>(`INSERT INTO courses (name, version) VALUES ('The Gospel of John', 'recovery') RETURNING id`);
  const lesson = await t.db.one<{ id: string }>(`INSERT INTO lessons (course_id, number, name) VALUES ($1, 1, 'Lesson 1') RETURNING id`, [course.id]);
  const next = await t.db.one<{ id: string }>(`INSERT INTO lessons (course_id, number, name) VALUES ($1, 2, 'Lesson 2') RETURNING id`, [course.id]);
  const code = newCodeId();
  const template = await t.db.one<{ id: string }>(`INSERT INTO page_templates (lesson_id, page_number, name, code_id) VALUES ($1, 1, 'page 1', $2) RETURNING id`, [lesson.id, code]);
  await t.db.query(`INSERT INTO page_templates (lesson_id, page_number, name, code_id) VALUES ($1, 1, 'page 1', $2)`, [next.id, newCodeId()]);
  const master = await makeAnswerSheetMaster({ courseName: 'The Gospel of John', lessonName: 'Lesson 1', lessonNumber: 1, pages: [{ page_number: 1, code: { prefix: 't', id: code } }], publicUrl: t.config.publicUrl });
  const raster = renderPdfPage(master, 0, 150);
  const image = await t.blobStore.put(await sharp(Buffer.from(raster.data), { raw: { width: raster.width, height: raster.height, channels: 1 } }).jpeg({ quality: 75 }).toBuffer());

  fileId = await insertFile(t.db, 'Recovery batch');
  let sequence = 0;
  for (let c = 0; c < CONGREGATIONS; c++) {
    const congregationId = await insertCongregation(t.db, `NG 000${c + 1}`);
    congregations.push(congregationId);
    for (let s = 0; s < SHEETS_EACH; s++) {
      const student = await insertStudent(t.db, { congregationId });
      const sheet = await t.db.one<{ id: string }>(
        `INSERT INTO answer_sheets (file_id, sequence, student_id, lesson_id, assigned_group) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
        [fileId, sequence, student.id, lesson.id, congregationId],
      );
      sequence++;
      await t.db.query(
        `INSERT INTO pages (file_id, page_number, answer_sheet_id, template_id, code_prefix, code_id, image_blob_key) VALUES ($1, $2, $3, $4, 't', $5, $6)`,
        [fileId, sequence, sheet.id, template.id, code, image.key],
      );
    }
  }
}, 60_000);
afterAll(async () => {
  await t?.app.close();
  if (t) await dropJobSchema(t.db);
  await t?.close();
});
afterEach(() => {
  expect(t.app.contractViolations).toEqual([]);
});

async function packets() {
  return t.db.query<{ id: string; congregation_id: string; blob_key: string | null }>('SELECT id, congregation_id, blob_key FROM packets WHERE file_id = $1 ORDER BY congregation_id', [fileId]);
}

describe('a crash part way', () => {
  it('sending resumes after the crashed worker lease runs out, keeping the packets already stored', async () => {
    expect((await api(t.app, admin, 'POST', `/api/file/${fileId}/send`)).status).toBe(202);
    const pagesBefore = await t.db.one<{ n: number }>(`SELECT count(*)::int AS n FROM printed_codes WHERE prefix = 'p'`);
    expect(pagesBefore.n).toBe(0);

    // Worker 1 stores the first packet and dies while storing the second.
    const first = crashingContext('worker-1', 2);
    await sendPackets(first.context, fileId);
    const afterCrash = await packets();
    expect(afterCrash.filter((p) => p.blob_key !== null)).toHaveLength(1);
    expect((await t.db.one<{ sent_at: Date | null }>('SELECT sent_at FROM files WHERE id = $1', [fileId])).sent_at).toBeNull();
    const codes = await t.db.query<{ target_id: string; code_id: string }>(`SELECT target_id, code_id FROM printed_codes WHERE prefix = 'p' ORDER BY target_id`);
    expect(codes).toHaveLength(CONGREGATIONS * SHEETS_EACH);

    // Its lease still holds: another worker leaves the file alone until it runs out.
    const early = crashingContext('worker-2', null);
    await sendPackets(early.context, fileId);
    expect(early.puts()).toBe(0);

    await leaseRunsOut();
    const second = crashingContext('worker-3', null);
    await sendPackets(second.context, fileId);
    expect(second.puts()).toBe(CONGREGATIONS - 1);
    const done = await packets();
    expect(done).toHaveLength(CONGREGATIONS);
    expect(done.every((p) => p.blob_key !== null)).toBe(true);
    const kept = afterCrash.find((p) => p.blob_key !== null)!;
    expect(done.find((p) => p.id === kept.id)!.blob_key).toBe(kept.blob_key);
    // Same codes as before the crash, no new ones; one row per congregation; sent once.
    expect(await t.db.query(`SELECT target_id, code_id FROM printed_codes WHERE prefix = 'p' ORDER BY target_id`)).toEqual(codes);
    expect(await t.db.query('SELECT congregation_id FROM file_congregations WHERE file_id = $1', [fileId])).toHaveLength(CONGREGATIONS);
    const sent = await t.db.one<{ sent_at: Date; file_status: string }>('SELECT sent_at, file_status FROM files WHERE id = $1', [fileId]);
    expect(sent.file_status).toBe('grading');
    const progress = await t.db.one<{ status: string; completed: number; count: number }>(
      `SELECT status, completed, count FROM job_progress WHERE group_name = 'send_to_study_helpers' AND run_id = $1`,
      [fileId],
    );
    expect(progress).toEqual({ status: 'success', completed: CONGREGATIONS * SHEETS_EACH, count: CONGREGATIONS * SHEETS_EACH });

    // Run again once finished: nothing changes.
    await sendPackets(crashingContext('worker-4', null).context, fileId);
    expect((await t.db.one<{ sent_at: Date }>('SELECT sent_at FROM files WHERE id = $1', [fileId])).sent_at).toEqual(sent.sent_at);
    expect(await packets()).toEqual(done);
    // Nothing half-written left behind by the crashed run.
    expect(await temporaryFilesLeft(t)).toEqual([]);
  });

  it('a graded upload resumes at the first page not read, and matches every page once', async () => {
    const congregationId = congregations[0]!;
    const who = await coordinator(t.app, congregationId);
    const packet = (await packets()).find((p) => p.congregation_id === congregationId)!;
    const download = await api(t.app, who, 'GET', `/api/study-helpers/distributed-files/${packet.id}.pdf`);
    expect(download.status).toBe(200);
    const scan = await scanGradedPackets(new Uint8Array(download.raw.rawPayload), { seed: 31, back: (i) => (i % 2 === 0 ? 'comment' : 'none') });
    const uploaded = await uploadGraded(t.app, who, scan);
    expect(uploaded.status).toBe(201);
    const uploadId = uploaded.body.id!;

    // Dies while storing the fourth page image.
    await runGradedUpload(crashingContext('reader-1', 4).context, uploadId);
    const staged = await t.db.one<{ n: number }>('SELECT count(*)::int AS n FROM graded_upload_pages WHERE upload_id = $1', [uploadId]);
    expect(staged.n).toBe(3);
    expect((await t.db.one<{ process_status: string }>('SELECT process_status FROM graded_uploads WHERE id = $1', [uploadId])).process_status).toBe('pending');

    await leaseRunsOut();
    const second = crashingContext('reader-2', null);
    await runGradedUpload(second.context, uploadId);
    const pages = SHEETS_EACH + Math.ceil(SHEETS_EACH / 2);
    // Only the pages not staged before were read and stored again.
    expect(second.puts()).toBe(pages - 3);
    expect((await t.db.one<{ process_status: string }>('SELECT process_status FROM graded_uploads WHERE id = $1', [uploadId])).process_status).toBe('success');
    const outcomes = await uploadOutcomes(t.db, uploadId);
    expect(outcomes.map((row) => row.outcome)).toEqual(Array.from({ length: SHEETS_EACH }, (_, i) => (i % 2 === 0 ? ['matched', 'back'] : ['matched'])).flat());
    const feedback = await t.db.one<{ n: number; backs: number }>(
      `SELECT count(*)::int AS n, count(back_blob_key)::int AS backs FROM feedback fb JOIN pages p ON p.id = fb.page_id
       JOIN answer_sheets a ON a.id = p.answer_sheet_id WHERE a.assigned_group = $1`,
      [congregationId],
    );
    expect(feedback).toEqual({ n: SHEETS_EACH, backs: SHEETS_EACH / 2 });
    expect((await t.db.one<{ status: string }>('SELECT status FROM file_congregations WHERE file_id = $1 AND congregation_id = $2', [fileId, congregationId])).status).toBe('graded');
  });
});

describe('the return file', () => {
  it('is built once grading completes; regenerating is refused while one is being made', async () => {
    // The other congregations' graded scans arrive (their scans reuse an image already stored).
    const image = await t.db.one<{ front_blob_key: string; upload_id: string }>('SELECT front_blob_key, upload_id FROM feedback LIMIT 1');
    const sheets = await t.db.query<{ id: string; page_id: string }>(
      `SELECT a.id, p.id AS page_id FROM answer_sheets a JOIN pages p ON p.answer_sheet_id = a.id
       WHERE a.file_id = $1 AND NOT EXISTS (SELECT 1 FROM feedback fb WHERE fb.page_id = p.id)`,
      [fileId],
    );
    const completed = await t.db.transaction(async (tx) => {
      for (const sheet of sheets) await tx.query('INSERT INTO feedback (page_id, upload_id, front_blob_key) VALUES ($1, $2, $3)', [sheet.page_id, image.upload_id, image.front_blob_key]);
      return refreshGrading(tx, sheets.map((sheet) => sheet.id));
    });
    expect(completed).toEqual([fileId]);
    expect(((await api(t.app, admin, 'GET', `/api/file/${fileId}/steps`)).json as unknown as { step: string; prepped: boolean })).toMatchObject({ step: 'return', prepped: false });
    // Requested but not made yet.
    expect((await api(t.app, admin, 'POST', `/api/file/${fileId}/regenerate`)).status).toBe(409);
    expect((await api(t.app, admin, 'GET', `/api/file/${fileId}/graded_pdf`)).status).toBe(409);

    await buildReturnFile(crashingContext('builder-1', null).context, fileId);
    const built = await t.db.one<{ return_prepped: boolean; return_page_count: number; return_blob_key: string }>(
      'SELECT return_prepped, return_page_count, return_blob_key FROM files WHERE id = $1',
      [fileId],
    );
    // Two-sided: every sheet's page with its back or a blank page, and a one-page next lesson
    // per student on a sheet of its own.
    const sheetsTotal = CONGREGATIONS * SHEETS_EACH;
    expect(built).toMatchObject({ return_prepped: true, return_page_count: 2 * sheetsTotal + 2 * sheetsTotal });

    const regenerate = await api(t.app, admin, 'POST', `/api/file/${fileId}/regenerate`);
    expect(regenerate).toMatchObject({ status: 202, json: { group_name: 'generate_return_file_requested', run_id: fileId } });
    expect((await api(t.app, admin, 'POST', `/api/file/${fileId}/regenerate`)).status).toBe(409);
    expect((await api(t.app, admin, 'GET', `/api/file/${fileId}/steps`)).json).toMatchObject({ step: 'return', prepped: false });
    await buildReturnFile(crashingContext('builder-2', null).context, fileId);
    const again = await t.db.one<{ return_prepped: boolean; return_blob_key: string }>('SELECT return_prepped, return_blob_key FROM files WHERE id = $1', [fileId]);
    // Same codes, same pages: the same bytes.
    expect(again).toEqual({ return_prepped: true, return_blob_key: built.return_blob_key });
    expect(await t.db.one<{ n: number }>(`SELECT count(*)::int AS n FROM printed_codes WHERE prefix = 's'`)).toEqual({ n: sheetsTotal });
    const download = await api(t.app, admin, 'GET', `/api/file/${fileId}/graded_pdf`);
    expect(download.status).toBe(200);
    expect(download.raw.headers['content-type']).toBe('application/pdf');
  });
});

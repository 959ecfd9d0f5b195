// The demo programme in flight: on the first start, the demo's staff print answer sheets for
// some students (the product's own masters, with their `s` codes), "scan" what comes back
// (simulated-scan), and take seven files through the real API, pipeline and workflow jobs to
// their steps: one waiting at Review (a page whose codes are covered), one at Assign (students
// without a congregation), one at Send (read, assigned, not sent: the coordinator sees nothing of
// it yet), one sent and Ready to Print for the demo coordinator, one partially graded,
// one at Return (its return file made) and one archived. The graded scans are the packets
// the product made, printed, ticked and scanned back by the demo coordinator.
// Imported lazily (main.ts), only when it has work: it loads pdf-lib and the scan drawing.
import type { FastifyInstance } from 'fastify';
import { createSession, deleteSession } from '../auth/session-store';
import { sessionCookieName } from '../auth/session';
import type { Database } from '../db/database';
import { pdfDrawing } from '../pdf/lazy-drawing';
import { issuedKey, issuedSheetCodes } from '../workflow/printed-codes';
import { DEMO_ACCOUNTS, DEMO_SERVICE_CENTERS } from './demo-data';
import { DEMO_FILES_MARKER, demoFilesWanted } from './demo-files-wanted';
import { pdfPageCount, simulateScan, type ScannedPage } from './simulated-scan';

/** How long one step of the demo may wait for the jobs (the whole demo takes seconds). */
const STEP_TIMEOUT_MS = 180_000;

type DemoStep = 'review' | 'assign' | 'send' | 'ready_to_print' | 'partially_graded' | 'return' | 'archived';

interface PlannedFile {
  name: string;
  step: DemoStep;
  /** Index into DEMO_SERVICE_CENTERS. */
  center: number;
  daysAgo: number;
  sheets: { student: DemoStudent; lesson: DemoLesson }[];
}

interface DemoStudent {
  id: string;
  name: string;
}

interface DemoLesson {
  id: string;
  number: number;
  name: string;
  course_name: string;
  templates: { id: string; page_number: number }[];
}

interface Caller {
  headers: { cookie: string; origin: string };
  token: string;
}

/**
 * Makes the seven demo files through `app`'s routes and jobs (which must run in this process).
 * Returns false when there was nothing to do or no way to do it.
 */
export async function makeDemoFiles(app: FastifyInstance): Promise<boolean> {
  const db = app.db;
  if (!(await demoFilesWanted(db))) return false;
  if (!app.jobs.runsJobsHere) {
    app.log.info('demo files not made: background jobs do not run in this process (JOB_WORKER=off)');
    return false;
  }
  const admin = await callerFor(app, DEMO_ACCOUNTS[0].email);
  const coordinator = await callerFor(app, DEMO_ACCOUNTS[1].email);
  const congregation = await db.maybeOne<{ congregation_id: string | null }>('SELECT congregation_id FROM users WHERE email = $1', [
    DEMO_ACCOUNTS[1].email,
  ]);
  if (admin === null || coordinator === null || !congregation?.congregation_id) {
    for (const caller of [admin, coordinator]) if (caller !== null) await deleteSession(db, caller.token);
    app.log.info('demo files not made: the demo accounts are missing');
    return false;
  }
  try {
    const plan = await planFiles(db, congregation.congregation_id);
    if (plan === null) {
      app.log.info('demo files not made: the demo students or lessons are missing');
      return false;
    }
    await runPlan(app, plan, admin, coordinator);
    await db.query(
      `INSERT INTO app_settings (key, value) VALUES ($1, to_jsonb(now()))
       ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
      [DEMO_FILES_MARKER],
    );
    return true;
  } finally {
    await deleteSession(db, admin.token);
    await deleteSession(db, coordinator.token);
  }
}

async function callerFor(app: FastifyInstance, email: string): Promise<Caller | null> {
  const user = await app.db.maybeOne<{ id: string }>('SELECT id FROM users WHERE email = $1', [email]);
  if (user === null) return null;
  const { token } = await createSession(app.db, user.id, 1);
  const cookie = `${sessionCookieName(app.config.publicUrl)}=${token}`;
  return { token, headers: { cookie, origin: new URL(app.config.publicUrl).origin } };
}

/** Which students' sheets go into which file: the coordinator's students carry the graded story. */
async function planFiles(db: Database, coordinatorCongregation: string): Promise<PlannedFile[] | null> {
  const students = (where: string, params: unknown[]) =>
    db.query<DemoStudent & { congregation_id: string | null }>(
      `SELECT id, attributes->>'name' AS name, congregation_id FROM students WHERE ${where} ORDER BY human_id`,
      params,
    );
  const ours = await students('congregation_id = $1', [coordinatorCongregation]);
  const others = await students('congregation_id IS NOT NULL AND congregation_id <> $1', [coordinatorCongregation]);
  const waiting = await students('congregation_id IS NULL', []);
  const lessons = await db.query<Omit<DemoLesson, 'templates'> & { course_id: string }>(
    `SELECT l.id, l.number, l.name, c.name AS course_name, c.id AS course_id
     FROM lessons l JOIN courses c ON c.id = l.course_id ORDER BY c.created_at, c.name, l.number`,
  );
  const templates = await db.query<{ id: string; lesson_id: string; page_number: number }>(
    'SELECT id, lesson_id, page_number FROM page_templates ORDER BY lesson_id, page_number',
  );
  const withTemplates: DemoLesson[] = lessons
    .map((lesson) => ({ ...lesson, templates: templates.filter((t) => t.lesson_id === lesson.id) }))
    .filter((lesson) => lesson.templates.length > 0);
  const onePage = withTemplates.filter((lesson) => lesson.templates.length === 1);
  const twoPages = withTemplates.filter((lesson) => lesson.templates.length === 2);
  if (ours.length < 10 || others.length < 3 || waiting.length < 3 || onePage.length < 2 || twoPages.length < 3) return null;

  const sheets = (who: DemoStudent[], lesson: DemoLesson) => who.map((student) => ({ student, lesson }));
  // The oldest file first: the coordinator's first four students move from lesson 1 to lesson 2.
  return [
    { name: 'Accra batch 1', step: 'archived', center: 0, daysAgo: 42, sheets: sheets(ours.slice(0, 4), twoPages[0]!) },
    { name: 'Nairobi batch 2', step: 'return', center: 1, daysAgo: 28, sheets: sheets(ours.slice(0, 4), twoPages[1]!) },
    { name: 'Manila batch 3', step: 'partially_graded', center: 2, daysAgo: 16, sheets: sheets(ours.slice(4, 8), onePage[0]!) },
    {
      name: 'Accra batch 4',
      step: 'ready_to_print',
      center: 0,
      daysAgo: 7,
      sheets: [...sheets(ours.slice(8, 10), onePage[1]!), ...sheets(others.slice(0, 3), onePage[0]!)],
    },
    { name: 'Nairobi batch 5', step: 'assign', center: 1, daysAgo: 3, sheets: sheets(waiting.slice(0, 3), onePage[0]!) },
    { name: 'Accra batch 7', step: 'send', center: 0, daysAgo: 2, sheets: sheets(ours.slice(4, 6), onePage[1]!) },
    {
      name: 'Manila batch 6',
      step: 'review',
      center: 2,
      daysAgo: 1,
      sheets: [...sheets(ours.slice(0, 2), twoPages[2]!), ...sheets(others.slice(3, 4), onePage[0]!)],
    },
  ];
}

/** The demo's staff at work: the admin and the coordinator, calling `app`'s routes. */
interface Staff {
  app: FastifyInstance;
  admin: Caller;
  coordinator: Caller;
}

interface DemoCenter {
  id: string;
  name: string;
  location: string;
  code_id: string | null;
}

async function runPlan(app: FastifyInstance, plan: PlannedFile[], admin: Caller, coordinator: Caller): Promise<void> {
  const staff: Staff = { app, admin, coordinator };
  // 1. The service centers scan what their students sent back, and upload it.
  const fileIds = await uploadScans(staff, plan);
  // 2. Every file past Send is sent to its congregations' study helpers.
  const sent = plan.filter((file) => !['review', 'assign', 'send'].includes(file.step));
  const packets = await sendFiles(staff, sent, fileIds);
  // 3. The coordinator prints, grades and uploads the packets.
  await gradePackets(staff, sent, packets);
  // 4. Return files are made when grading completes; the oldest one is downloaded and archived.
  await finishReturns(staff, plan, fileIds);
  await spreadOverWeeks(app.db, fileIds);
}

/** Each planned file scanned (cover sheet, then its students' answer sheets) and uploaded, once read. */
async function uploadScans(staff: Staff, plan: PlannedFile[]): Promise<Map<PlannedFile, string>> {
  const { app, admin } = staff;
  const centers = await app.db.query<DemoCenter>(
    `SELECT sc.id, sc.name, sc.location,
            (SELECT pc.code_id FROM printed_codes pc WHERE pc.prefix = 'c' AND pc.target_id = sc.id ORDER BY pc.created_at LIMIT 1) AS code_id
     FROM service_centers sc WHERE sc.name = ANY($1::text[])`,
    [DEMO_SERVICE_CENTERS.map((center) => center.name)],
  );
  if (centers.length === 0) throw new Error('demo: the demo service centers are missing');
  const codes = await issuedSheetCodes(
    app.db,
    plan.flatMap((file) => file.sheets.flatMap((sheet) => sheet.lesson.templates.map((t) => ({ studentId: sheet.student.id, templateId: t.id })))),
  );
  const fileIds = new Map<PlannedFile, string>();
  for (const [index, file] of plan.entries()) {
    const center = centers.find((c) => c.name === DEMO_SERVICE_CENTERS[file.center]?.name) ?? centers[0]!;
    const scan = await simulateScan(await scannedPages(app, file, center, codes), 1000 + index);
    const scannedAt = new Date(Date.now() - (file.daysAgo + 1) * 86_400_000).toISOString();
    const uploaded = await call(app, admin, 'POST', '/api/file', multipart({ name: file.name, answer_sheet_page_length: '0', scanned_at: scannedAt }, `${file.name}.pdf`, scan));
    fileIds.set(file, (uploaded as { id: string }).id);
  }
  for (const [file, id] of fileIds) {
    const status = await waitFor(`${file.name} to be read`, async () => {
      const read = (await call(app, admin, 'GET', `/api/file/${id}`)) as { process_status: string };
      return read.process_status === 'pending' ? null : read.process_status;
    });
    if (status !== 'success') throw new Error(`demo file ${file.name} could not be read (${status})`);
  }
  return fileIds;
}

/** The pages a service center scans for `file`: its cover sheet, then each student's answer sheet. */
async function scannedPages(app: FastifyInstance, file: PlannedFile, center: DemoCenter, codes: Map<string, string>): Promise<ScannedPage[]> {
  const { makeAnswerSheetMaster, makeCoverSheet } = await pdfDrawing();
  const pages: ScannedPage[] = [];
  if (center.code_id !== null) {
    const cover = await makeCoverSheet({ code: { prefix: 'c', id: center.code_id }, name: center.name, location: center.location, publicUrl: app.config.publicUrl });
    pages.push({ pdf: cover, pageIndex: 0, pen: 'none' });
  }
  for (const [sheetIndex, { student, lesson }] of file.sheets.entries()) {
    const master = await makeAnswerSheetMaster({
      courseName: lesson.course_name,
      lessonName: lesson.name,
      lessonNumber: lesson.number,
      studentName: student.name,
      publicUrl: app.config.publicUrl,
      pages: lesson.templates.map((t) => ({ page_number: t.page_number, code: { prefix: 's', id: codes.get(issuedKey(student.id, t.id))! } })),
    });
    for (let page = 0; page < lesson.templates.length; page++) {
      // At Review: the second sheet's last page came back with a sticky note over its codes.
      const covered = file.step === 'review' && sheetIndex === 1 && page === lesson.templates.length - 1;
      pages.push({ pdf: master, pageIndex: page, pen: 'answers', codesCovered: covered });
    }
  }
  return pages;
}

/** `sent` files sent; each one's packet for the coordinator, once it is made. */
async function sendFiles(staff: Staff, sent: PlannedFile[], fileIds: Map<PlannedFile, string>): Promise<Map<PlannedFile, string>> {
  const { app, admin, coordinator } = staff;
  for (const file of sent) await call(app, admin, 'POST', `/api/file/${fileIds.get(file)}/send`);
  const packets = new Map<PlannedFile, string>();
  for (const file of sent) {
    // The coordinator sees the file once every packet is made and the file is marked sent.
    await waitFor(`${file.name} to be sent`, async () => ((await call(app, admin, 'GET', `/api/file/${fileIds.get(file)}`)) as { sent_at: string | null }).sent_at);
    packets.set(
      file,
      await waitFor(`the packet of ${file.name}`, async () => {
        const rows = (await call(app, coordinator, 'GET', `/api/file/${fileIds.get(file)}/congregations`)) as { packet_id: string | null }[];
        const packet = rows[0]?.packet_id ?? null;
        if (packet === null) return null;
        const ready = (await call(app, coordinator, 'GET', `/api/study-helpers/distributed-files/${packet}/exists`)) as { exists: boolean };
        return ready.exists ? packet : null;
      }),
    );
  }
  return packets;
}

/**
 * The coordinator prints the packets (not the newest one: it stays Ready to Print), grades them
 * and uploads the scan: all of it, or the first half of the sheets; done once the scans are read.
 */
async function gradePackets(staff: Staff, sent: PlannedFile[], packets: Map<PlannedFile, string>): Promise<void> {
  const { app, coordinator } = staff;
  const uploads: string[] = [];
  for (const [index, file] of sent.entries()) {
    if (file.step === 'ready_to_print') continue;
    const packet = await download(app, coordinator, `/api/study-helpers/distributed-files/${packets.get(file)}.pdf`);
    const pageCount = pdfPageCount(packet);
    const graded = file.step === 'partially_graded' ? Math.ceil(pageCount / 2) : pageCount;
    const scan = await simulateScan(
      Array.from({ length: graded }, (_, page) => ({ pdf: packet, pageIndex: page, pen: 'grading' as const })),
      2000 + index,
    );
    const answer = (await call(app, coordinator, 'POST', '/api/study-helpers/file', multipart({ name: `${file.name} - graded` }, 'graded.pdf', scan))) as { id: string };
    uploads.push(answer.id);
  }
  for (const id of uploads) {
    const status = await waitFor('a graded scan to be read', async () => {
      const row = await app.db.maybeOne<{ process_status: string }>('SELECT process_status FROM graded_uploads WHERE id = $1', [id]);
      return row === null || row.process_status === 'pending' ? null : row.process_status;
    });
    if (status !== 'success') throw new Error(`a demo graded scan could not be read (${status})`);
  }
}

/** Waits for the return files of the files planned at Return or archived; archives the latter. */
async function finishReturns(staff: Staff, plan: PlannedFile[], fileIds: Map<PlannedFile, string>): Promise<void> {
  const { app, admin } = staff;
  for (const file of plan.filter((f) => f.step === 'return' || f.step === 'archived')) {
    const id = fileIds.get(file)!;
    await waitFor(`the return file of ${file.name}`, async () => ((await call(app, admin, 'GET', `/api/file/${id}/steps`)) as { prepped: boolean }).prepped || null);
    if (file.step === 'archived') {
      await download(app, admin, `/api/file/${id}/graded_pdf`);
      await call(app, admin, 'POST', `/api/file/${id}/archive`);
    }
  }
}

/**
 * A programme in flight spans weeks: each file dated as its plan says (made seconds apart),
 * sent a day after its upload and graded a few days after that.
 */
async function spreadOverWeeks(db: Database, fileIds: Map<PlannedFile, string>): Promise<void> {
  for (const [file, id] of fileIds) {
    await db.transaction(async (tx) => {
      const shift = [id, file.daysAgo];
      await tx.query(
        `UPDATE files SET uploaded_at = uploaded_at - make_interval(days => $2::int), created_at = created_at - make_interval(days => $2::int),
                          sent_at = sent_at - make_interval(days => $2::int - 1)
         WHERE id = $1`,
        shift,
      );
      await tx.query('UPDATE answer_sheets SET created_at = created_at - make_interval(days => $2::int) WHERE file_id = $1', shift);
      await tx.query(
        `UPDATE feedback SET created_at = created_at - make_interval(days => $2::int - 4)
         WHERE page_id IN (SELECT id FROM pages WHERE file_id = $1)`,
        shift,
      );
      await tx.query(
        `UPDATE graded_uploads SET created_at = created_at - make_interval(days => $2::int - 4)
         WHERE id IN (SELECT f.upload_id FROM feedback f JOIN pages p ON p.id = f.page_id WHERE p.file_id = $1)`,
        shift,
      );
    });
  }
}

interface Body {
  payload: Buffer;
  headers: Record<string, string>;
}

function multipart(fields: Record<string, string>, filename: string, content: Uint8Array): Body {
  const boundary = '----demo-scan-boundary-7f3a9c';
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  parts.push(
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/pdf\r\n\r\n`),
    Buffer.from(content),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

async function call(app: FastifyInstance, who: Caller, method: 'GET' | 'POST', url: string, body?: Body): Promise<unknown> {
  const response = await app.inject({
    method,
    url,
    headers: { ...who.headers, ...(body?.headers ?? {}) },
    ...(body === undefined ? {} : { payload: body.payload }),
  });
  if (response.statusCode >= 300) throw new Error(`demo: ${method} ${url} answered ${response.statusCode}: ${response.body.slice(0, 300)}`);
  return response.body === '' ? null : (response.json() as unknown);
}

async function download(app: FastifyInstance, who: Caller, url: string): Promise<Uint8Array> {
  const response = await app.inject({ method: 'GET', url, headers: who.headers });
  if (response.statusCode !== 200) throw new Error(`demo: GET ${url} answered ${response.statusCode}`);
  return new Uint8Array(response.rawPayload);
}

async function waitFor<T>(what: string, check: () => Promise<T | null>): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await check();
    if (value !== null) return value;
    if (Date.now() - started > STEP_TIMEOUT_MS) throw new Error(`demo: timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

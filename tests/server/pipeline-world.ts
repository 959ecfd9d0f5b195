// Test set-up shared by the pipeline and files tests: the database "world" a generated scan
// talks about (service center with its c code, the course and its t codes, the students and
// their s codes), multipart upload bodies, and waiting for a file's processing.
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { PDFDocument } from 'pdf-lib';
import type { Database } from '../../server/db/database';
import type { Code } from '../../server/domain/codes';
import { splitIntoSheets, type AnswerSheetPageLength, type ResolvedCode, type SplitResult } from '../../server/domain/split';
import type { MadeScan } from '../fixtures/make-scans';
import type { SignedIn } from '../helpers/sign-in';

export interface ScanWorld {
  serviceCenterId: string;
  /** Fixture lesson id (e.g. john-lesson-2) to database lesson id. */
  lessons: Map<string, string>;
  /** Fixture student id to database student id. */
  students: Map<string, string>;
  /** `${lessonId}/${page}` (database ids) to page template id. */
  templates: Map<string, string>;
  /** What each seeded code means, in database ids (codes not seeded are unknown). */
  resolve(code: Code): ResolvedCode | null;
}

export interface SeedOptions {
  /** Course names of the fixture to create; others stay unknown to the database. Default: all. */
  courses?: string[];
  /** The congregation a fixture student belongs to (null: none). */
  congregationOf?: (fixtureStudentId: string) => string | null;
  /** Leave the cover's c code unknown. */
  withoutCoverCode?: boolean;
}

const COURSE_OF_PREFIX: Record<string, string> = { john: 'The Gospel of John', acts: 'The Book of Acts' };

export async function seedScanWorld(db: Database, made: MadeScan, options: SeedOptions = {}): Promise<ScanWorld> {
  const serviceCenter = await db.one<{ id: string }>(
    `INSERT INTO service_centers (name, location, country_iso) VALUES ('Lagos Service Center', 'Lagos', 'NG') RETURNING id`,
  );
  const lessons = new Map<string, string>();
  const students = new Map<string, string>();
  const templates = new Map<string, string>();
  const meanings = new Map<string, ResolvedCode>();
  const courses = new Map<string, string>();

  const lessonIdFor = async (fixtureLesson: string): Promise<string | null> => {
    const known = lessons.get(fixtureLesson);
    if (known) return known;
    const [prefix, , number] = fixtureLesson.split('-');
    const courseName = COURSE_OF_PREFIX[prefix ?? ''] ?? prefix ?? 'Course';
    if (options.courses && !options.courses.includes(courseName)) return null;
    let courseId = courses.get(courseName);
    if (!courseId) {
      // One version per scan, so several scans can share a database.
      courseId = (await db.one<{ id: string }>(`INSERT INTO courses (name, version) VALUES ($1, $2) RETURNING id`, [courseName, `seed-${made.seed}`])).id;
      courses.set(courseName, courseId);
    }
    const lesson = await db.one<{ id: string }>(`INSERT INTO lessons (course_id, number, name) VALUES ($1, $2, $3) RETURNING id`, [
      courseId,
      Number(number),
      `${courseName} ${number}`,
    ]);
    lessons.set(fixtureLesson, lesson.id);
    return lesson.id;
  };
  const studentIdFor = async (fixtureStudent: string): Promise<string> => {
    const known = students.get(fixtureStudent);
    if (known) return known;
    const row = await db.one<{ id: string }>(
      `INSERT INTO students (congregation_id, service_center_id, country_iso, attributes) VALUES ($1, $2, 'NG', $3::jsonb) RETURNING id`,
      [options.congregationOf?.(fixtureStudent) ?? null, serviceCenter.id, JSON.stringify({ name: fixtureStudent })],
    );
    students.set(fixtureStudent, row.id);
    return row.id;
  };
  const templateIdFor = async (lessonId: string, page: number, tCode: string | null): Promise<string> => {
    const key = `${lessonId}/${page}`;
    const known = templates.get(key);
    if (known) return known;
    const row = await db.one<{ id: string }>(
      `INSERT INTO page_templates (lesson_id, page_number, name, code_id) VALUES ($1, $2, $3, $4) RETURNING id`,
      [lessonId, page, `page ${page}`, tCode ?? `X${lessonId.slice(0, 8).toUpperCase().replace(/[^A-Z0-9]/g, 'A')}${page}`],
    );
    templates.set(key, row.id);
    return row.id;
  };

  // Templates first, so every t code is the template's own code.
  const ordered = [...made.registry].sort((a, b) => (a.code.prefix === 't' ? 0 : 1) - (b.code.prefix === 't' ? 0 : 1));
  for (const { code, meaning } of ordered) {
    const key = `${code.prefix}/${code.id}`;
    if (meaning.kind === 'cover') {
      if (options.withoutCoverCode) continue;
      await db.query(`INSERT INTO printed_codes (code_id, prefix, target_id) VALUES ($1, 'c', $2)`, [code.id, serviceCenter.id]);
      meanings.set(key, { kind: 'cover', service_center_id: serviceCenter.id });
      continue;
    }
    const lessonId = await lessonIdFor(meaning.lesson_id);
    if (lessonId === null) continue;
    const templateId = await templateIdFor(lessonId, meaning.lesson_page_number, code.prefix === 't' ? code.id : null);
    let studentId: string | null = null;
    if (code.prefix === 's') {
      studentId = await studentIdFor(meaning.student_id!);
      await db.query(`INSERT INTO printed_codes (code_id, prefix, target_id, student_id) VALUES ($1, 's', $2, $3)`, [code.id, templateId, studentId]);
    } else {
      await db.query(`INSERT INTO printed_codes (code_id, prefix, target_id) VALUES ($1, 't', $2)`, [code.id, templateId]);
    }
    meanings.set(key, { kind: 'sheet_page', student_id: studentId, lesson_id: lessonId, lesson_page_number: meaning.lesson_page_number });
  }
  return {
    serviceCenterId: serviceCenter.id,
    lessons,
    students,
    templates,
    resolve: (code) => meanings.get(`${code.prefix}/${code.id}`) ?? null,
  };
}

/** The split the pipeline must produce, from the scan's truth (what each page really carries). */
export function expectedSplit(made: MadeScan, world: ScanWorld, pageLength: AnswerSheetPageLength): SplitResult {
  return splitIntoSheets(
    made.pages.map((page) => ({ page_number: page.page_number, code: page.code, reason: page.reason, blank: page.blank })),
    world.resolve,
    pageLength,
  );
}

/** A multipart/form-data body as a browser sends it. */
export function multipartBody(
  fields: Record<string, string>,
  file?: { filename: string; content: Buffer | Uint8Array; contentType?: string; field?: string },
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----test${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'file'}"; filename="${file.filename}"\r\n` +
          `Content-Type: ${file.contentType ?? 'application/pdf'}\r\n\r\n`,
      ),
      Buffer.from(file.content),
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** The request of an upload (POST /api/file), made ready to send. */
export function uploadRequest(who: SignedIn, content: Buffer | Uint8Array, fields: Record<string, string> = {}) {
  const body = multipartBody(
    { name: 'Lagos batch', answer_sheet_page_length: '0', scanned_at: '2026-01-30T10:00:00.000Z', ...fields },
    { filename: 'scan.pdf', content },
  );
  return { method: 'POST' as const, url: '/api/file', headers: { ...who.headers, ...body.headers }, payload: body.payload };
}

/** Sends a request made by uploadRequest. */
export async function sendUpload(app: FastifyInstance, request: ReturnType<typeof uploadRequest>) {
  const response = await app.inject(request);
  return { status: response.statusCode, body: response.json() as { id?: string; detail?: unknown } };
}

export async function upload(
  app: FastifyInstance,
  who: SignedIn,
  content: Buffer | Uint8Array,
  fields: Record<string, string> = {},
) {
  return sendUpload(app, uploadRequest(who, content, fields));
}

/** Waits until the file is processed (or failed), polling the database. */
export async function waitForProcessing(db: Database, fileId: string, timeoutMs = 60_000): Promise<string> {
  const started = Date.now();
  for (;;) {
    const row = await db.maybeOne<{ process_status: string }>('SELECT process_status FROM files WHERE id = $1', [fileId]);
    if (row && row.process_status !== 'pending') return row.process_status;
    if (Date.now() - started > timeoutMs) throw new Error(`file ${fileId} still ${row?.process_status ?? 'missing'} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Reads a finished server-sent event stream into its JSON messages. */
export function sseMessages(body: string): unknown[] {
  return body
    .split('\n\n')
    .map((block) => block.split('\n').filter((line) => line.startsWith('data: ')).map((line) => line.slice(6)).join('\n'))
    .filter((data) => data !== '')
    .map((data) => JSON.parse(data) as unknown);
}

/**
 * `copies` times the pages of `source`, one after another, as one PDF (the images shared, so
 * the file stays small): a long file for the scan pipeline without generating one.
 */
export async function repeatedScan(source: MadeScan, copies: number): Promise<Uint8Array> {
  const from = await PDFDocument.load(readFileSync(source.path));
  const to = await PDFDocument.create();
  const indices = Array.from({ length: copies }, () => from.getPageIndices()).flat();
  for (const page of await to.copyPages(from, indices)) to.addPage(page);
  return to.save();
}

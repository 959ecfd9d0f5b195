// Shared set-up of the route tests: one app per test file (every response checked against the
// contract), emptied between tests, with builders that insert rows directly so each test states
// exactly the data it reads.
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import type { Database } from '../../server/db/database';
import { apiPlugins } from '../../server/routes/index';
import { signIn, type SignedIn } from '../helpers/sign-in';
import { createTestApp, type TestApp } from '../helpers/test-app';

export interface RouteTests {
  readonly app: FastifyInstance;
  readonly db: Database;
  readonly testApp: TestApp;
}

/**
 * Registers the hooks of a route test file and returns a handle filled in by beforeAll.
 * After each test: no contract violations, and every table but the reference data emptied.
 */
export function useRouteTests(env: Record<string, string> = {}): RouteTests {
  let testApp: TestApp | undefined;
  const handle = {
    get testApp() {
      if (testApp === undefined) throw new Error('The test app starts in beforeAll');
      return testApp;
    },
    get app() {
      return handle.testApp.app;
    },
    get db() {
      return handle.testApp.db;
    },
  };
  beforeAll(async () => {
    testApp = await createTestApp({ plugins: apiPlugins({ validateResponses: true }), env });
  });
  afterAll(async () => {
    await testApp?.close();
  });
  beforeEach(() => {
    handle.app.contractViolations.length = 0;
  });
  afterEach(async () => {
    const violations = [...handle.app.contractViolations];
    await emptyTables(handle.db);
    expect(violations).toEqual([]);
  });
  return handle;
}

/**
 * PostgreSQL's plan for a statement, as text, with the given planner methods off (sequential
 * scans by default: on the tests' small tables they would always win, hiding which index a
 * statement can use).
 */
export async function planOf(db: Database, sql: string, params: readonly unknown[] = [], off = ['enable_seqscan']): Promise<string> {
  return db.transaction(async (tx) => {
    for (const setting of off) await tx.query(`SET LOCAL ${setting} = off`);
    const rows = await tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, params);
    return rows.map((row) => row['QUERY PLAN']).join('\n');
  });
}

/** Every table except the migrations record and the countries. */
export async function emptyTables(db: Database): Promise<void> {
  const tables = await db.query<{ name: string }>(
    `SELECT tablename AS name FROM pg_tables
     WHERE schemaname = current_schema() AND tablename NOT IN ('schema_migrations', 'countries')`,
  );
  await db.exec(`TRUNCATE ${tables.map((table) => `"${table.name}"`).join(', ')} CASCADE`);
}

// Callers ----------------------------------------------------------------------------------

export async function admin(app: FastifyInstance, email = 'admin@test.local'): Promise<SignedIn> {
  return signIn(app, email, { role: 'scanning_admin', isAdmin: true, congregationId: null });
}

export async function coordinator(app: FastifyInstance, congregationId: string, email?: string): Promise<SignedIn> {
  return signIn(app, email ?? `coordinator-${congregationId.slice(0, 8)}@test.local`, {
    role: 'study_helper_coordinator',
    congregationId,
    isAdmin: false,
  });
}

export async function call(
  app: FastifyInstance,
  who: SignedIn | null,
  method: InjectOptions['method'],
  url: string,
  payload?: unknown,
) {
  const response = await app.inject({
    method,
    url,
    headers: who === null ? {} : who.headers,
    ...(payload === undefined ? {} : { payload: payload as InjectOptions['payload'] }),
  });
  return { status: response.statusCode, body: response.body === '' ? undefined : (response.json() as unknown), raw: response };
}

/** GET returning the JSON body typed loosely for assertions. */
export async function getJson<T = Record<string, unknown>>(app: FastifyInstance, who: SignedIn | null, url: string) {
  const { status, body } = await call(app, who, 'GET', url);
  return { status, body: body as T };
}

// Builders ---------------------------------------------------------------------------------

/** Timestamps n days before a fixed point, so orderings do not depend on insert speed. */
export function daysAgo(days: number): Date {
  return new Date(Date.UTC(2026, 0, 31, 12) - days * 86_400_000);
}

export async function insertCongregation(db: Database, wbsCode: string, displayName = `Congregation ${wbsCode}`, createdAt?: Date) {
  const row = await db.one<{ id: string }>(
    'INSERT INTO congregations (wbs_code, display_name, created_at) VALUES ($1, $2, COALESCE($3, now())) RETURNING id',
    [wbsCode, displayName, createdAt ?? null],
  );
  return row.id;
}

export async function insertStudyHelper(
  db: Database,
  congregationId: string,
  name: string,
  options: { email?: string; lastActiveAt?: Date } = {},
) {
  const row = await db.one<{ id: string }>(
    'INSERT INTO study_helpers (congregation_id, name, email, last_active_at) VALUES ($1, $2, $3, $4) RETURNING id',
    [congregationId, name, options.email ?? `${name.toLowerCase().replace(/\W+/g, '.')}@example.org`, options.lastActiveAt ?? null],
  );
  return row.id;
}

export async function insertServiceCenter(
  db: Database,
  name: string,
  options: { country?: string; location?: string; createdAt?: Date } = {},
) {
  const row = await db.one<{ id: string }>(
    `INSERT INTO service_centers (name, country_iso, location, created_at) VALUES ($1, $2, $3, COALESCE($4, now())) RETURNING id`,
    [name, options.country ?? 'GH', options.location ?? 'Accra', options.createdAt ?? null],
  );
  return row.id;
}

export async function insertRecruiter(db: Database, serviceCenterId: string, name: string) {
  const row = await db.one<{ id: string }>(
    'INSERT INTO recruiters (service_center_id, name, contact_info) VALUES ($1, $2, $3) RETURNING id',
    [serviceCenterId, name, `${name} contact`],
  );
  return row.id;
}

export async function insertRecruitingPoint(db: Database, serviceCenterId: string, name: string) {
  const row = await db.one<{ id: string }>(
    'INSERT INTO recruiting_points (service_center_id, name, location) VALUES ($1, $2, $3) RETURNING id',
    [serviceCenterId, name, `${name} location`],
  );
  return row.id;
}

export interface StudentOptions {
  humanId?: number;
  congregationId?: string | null;
  studyHelperId?: string | null;
  country?: string | null;
  serviceCenterId?: string | null;
  recruiterId?: string | null;
  recruitingPointId?: string | null;
  attributes?: Record<string, unknown>;
  createdAt?: Date;
}

export async function insertStudent(db: Database, options: StudentOptions = {}) {
  return db.one<{ id: string; human_id: number }>(
    `INSERT INTO students (human_id, congregation_id, study_helper_id, country_iso, service_center_id, recruiter_id,
                           recruiting_point_id, attributes, created_at)
     VALUES (COALESCE($1, nextval('student_human_id_seq')), $2, $3, $4, $5, $6, $7, $8::jsonb, COALESCE($9, now()))
     RETURNING id, human_id`,
    [
      options.humanId ?? null,
      options.congregationId ?? null,
      options.studyHelperId ?? null,
      options.country ?? null,
      options.serviceCenterId ?? null,
      options.recruiterId ?? null,
      options.recruitingPointId ?? null,
      JSON.stringify(options.attributes ?? {}),
      options.createdAt ?? null,
    ],
  );
}

export async function insertCourse(db: Database, name: string, lessons: string[], pagesPerLesson = 1, version = '1') {
  const course = await db.one<{ id: string }>('INSERT INTO courses (name, version) VALUES ($1, $2) RETURNING id', [name, version]);
  const lessonIds: string[] = [];
  for (const [index, lessonName] of lessons.entries()) {
    const lesson = await db.one<{ id: string }>(
      'INSERT INTO lessons (course_id, number, name) VALUES ($1, $2, $3) RETURNING id',
      [course.id, index + 1, lessonName],
    );
    lessonIds.push(lesson.id);
    for (let page = 1; page <= pagesPerLesson; page += 1) {
      await db.query('INSERT INTO page_templates (lesson_id, page_number, name, code_id) VALUES ($1, $2, $3, $4)', [
        lesson.id,
        page,
        `${lessonName}, page ${page}`,
        randomBytes(6).toString('hex').toUpperCase(),
      ]);
    }
  }
  return { courseId: course.id, lessonIds };
}

export interface FileOptions {
  serviceCenterId?: string | null;
  recruiterId?: string | null;
  recruitingPointId?: string | null;
  uploadedAt?: Date;
  sentAt?: Date | null;
}

export async function insertFile(db: Database, name: string, options: FileOptions = {}) {
  const sha = randomBytes(32).toString('hex');
  const row = await db.one<{ id: string }>(
    `INSERT INTO files (name, sha256, blob_key, size_bytes, service_center_id, recruiter_id, recruiting_point_id,
                        uploaded_at, sent_at, process_status)
     VALUES ($1, $2, $2, 100, $3, $4, $5, COALESCE($6, now()), $7, 'success') RETURNING id`,
    [
      name,
      sha,
      options.serviceCenterId ?? null,
      options.recruiterId ?? null,
      options.recruitingPointId ?? null,
      options.uploadedAt ?? null,
      options.sentAt ?? null,
    ],
  );
  return row.id;
}

export interface AnswerSheetOptions {
  studentId?: string | null;
  lessonId?: string | null;
  assignedGroup?: string | null;
  graded?: boolean;
  createdAt?: Date;
}

export async function insertAnswerSheet(db: Database, fileId: string, options: AnswerSheetOptions = {}) {
  const row = await db.one<{ id: string }>(
    `INSERT INTO answer_sheets (file_id, sequence, student_id, lesson_id, assigned_group, graded, created_at)
     VALUES ($1, (SELECT count(*) FROM answer_sheets WHERE file_id = $1), $2, $3, $4, $5, COALESCE($6, now()))
     RETURNING id`,
    [fileId, options.studentId ?? null, options.lessonId ?? null, options.assignedGroup ?? null, options.graded ?? false, options.createdAt ?? null],
  );
  return row.id;
}

export async function insertPage(db: Database, fileId: string, pageNumber: number, answerSheetId: string | null) {
  await db.query('INSERT INTO pages (file_id, page_number, answer_sheet_id) VALUES ($1, $2, $3)', [fileId, pageNumber, answerSheetId]);
}

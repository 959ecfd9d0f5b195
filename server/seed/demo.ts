// Creates the demo programme on the first start of an installation (and on demand, e.g. a
// database init): service centers with their people, congregations, study helpers, students,
// courses with printed page templates, baptism requests, and one sign-in account per role.
// A marker in app_settings makes it run once; the inserts themselves also tolerate reruns.
import { saveUser, type Role } from '../auth/users.js';
import type { Database } from '../db/database.js';
import { newCodeId } from '../db/printed-codes.js';
import { COURSES, STUDY_HELPERS } from '../../demo/programme.js';
import { createPrng } from '../../demo/random.js';
import { DEMO_ACCOUNTS, DEMO_CONGREGATIONS, DEMO_PASSWORD, DEMO_SERVICE_CENTERS } from './demo-data.js';
import { insertBaptismRequests, insertStudents, type CongregationIds, type ServiceCenterIds } from './demo-students.js';

export { DEMO_ACCOUNTS, DEMO_PASSWORD } from './demo-data.js';

const MARKER = 'demo_data_seeded_at';

export interface SeedResult {
  seeded: boolean;
}

/** Whether the demo programme was seeded in this database (then it stays a demo installation). */
export async function demoDataSeeded(db: Database): Promise<boolean> {
  return (await db.maybeOne('SELECT 1 FROM app_settings WHERE key = $1', [MARKER])) !== null;
}

/** Seeds once per database; `force` seeds again (what is already there is kept, not doubled). */
export async function seedDemoData(db: Database, options: { force?: boolean } = {}): Promise<SeedResult> {
  return db.transaction(async (tx) => {
    // Two processes starting together on one PostgreSQL: only one seeds.
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('bible-study-portal:seed:' || current_schema()))`);
    const marker = await tx.maybeOne('SELECT key FROM app_settings WHERE key = $1', [MARKER]);
    if (marker !== null && !options.force) return { seeded: false };
    await insertDemoData(tx);
    await tx.query(
      `INSERT INTO app_settings (key, value) VALUES ($1, to_jsonb(now()))
       ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
      [MARKER],
    );
    return { seeded: true };
  });
}

async function insertDemoData(db: Database): Promise<void> {
  // The demo looks the same on every installation: its students come from a fixed seed.
  const random = createPrng(20240601);
  const centers = await insertServiceCenters(db);
  const congregations = await insertCongregations(db);
  await insertAccounts(db, congregations);
  const lessonIds = await insertCourses(db);

  // Students exist once: a forced rerun keeps the ones already there.
  const { count } = await db.one<{ count: number }>('SELECT count(*) AS count FROM students');
  if (count > 0) return;
  const studentIds = await insertStudents(db, random, { centers, congregations, lessonIds });
  await insertBaptismRequests(db, studentIds);
}

/** Service centers: found or made by name, so a forced rerun does not double them. */
async function insertServiceCenters(db: Database): Promise<ServiceCenterIds[]> {
  const centers: ServiceCenterIds[] = [];
  for (const center of DEMO_SERVICE_CENTERS) {
    const existing = await db.maybeOne<{ id: string }>('SELECT id FROM service_centers WHERE name = $1', [center.name]);
    if (existing === null) {
      centers.push(await insertServiceCenter(db, center));
      continue;
    }
    centers.push({
      id: existing.id,
      country: center.country,
      recruitingPoints: await db.query('SELECT id, name FROM recruiting_points WHERE service_center_id = $1', [existing.id]),
      recruiters: await db.query('SELECT id, name FROM recruiters WHERE service_center_id = $1', [existing.id]),
    });
  }
  return centers;
}

/** A new service center with its recruiting points, recruiters, contact persons and cover sheet code. */
async function insertServiceCenter(db: Database, center: (typeof DEMO_SERVICE_CENTERS)[number]): Promise<ServiceCenterIds> {
  const { id } = await db.one<{ id: string }>(
    'INSERT INTO service_centers (name, location, country_iso) VALUES ($1, $2, $3) RETURNING id',
    [center.name, center.location, center.country],
  );
  const recruitingPoints = [];
  for (const point of center.recruitingPoints) {
    recruitingPoints.push(
      await db.one<{ id: string; name: string }>(
        'INSERT INTO recruiting_points (service_center_id, name, location) VALUES ($1, $2, $3) RETURNING id, name',
        [id, point.name, point.location],
      ),
    );
  }
  const recruiters = [];
  for (const recruiter of center.recruiters) {
    recruiters.push(
      await db.one<{ id: string; name: string }>(
        'INSERT INTO recruiters (service_center_id, name, contact_info) VALUES ($1, $2, $3) RETURNING id, name',
        [id, recruiter.name, recruiter.contact],
      ),
    );
  }
  for (const name of center.contactPersons) {
    await db.query('INSERT INTO contact_persons (service_center_id, name) VALUES ($1, $2)', [id, name]);
  }
  // A cover sheet code per service center, as printed on batch cover sheets.
  await db.query(`INSERT INTO printed_codes (code_id, prefix, target_id) VALUES ($1, 'c', $2)`, [newCodeId(), id]);
  return { id, country: center.country, recruitingPoints, recruiters };
}

/** Congregations by WBS code, each with its study helpers (found by name on a rerun). */
async function insertCongregations(db: Database): Promise<CongregationIds[]> {
  const congregations: CongregationIds[] = [];
  for (const [index, congregation] of DEMO_CONGREGATIONS.entries()) {
    const { id } = await db.one<{ id: string }>(
      `INSERT INTO congregations (wbs_code, display_name) VALUES ($1, $2)
       ON CONFLICT (wbs_code) DO UPDATE SET display_name = EXCLUDED.display_name RETURNING id`,
      [congregation.wbs_code, congregation.display_name],
    );
    const helpers = [];
    for (const name of STUDY_HELPERS[index] ?? []) {
      const email = `${name.toLowerCase().replace(/[^a-z]+/g, '.')}@example.org`;
      const existing = await db.maybeOne<{ id: string; name: string }>(
        'SELECT id, name FROM study_helpers WHERE congregation_id = $1 AND name = $2',
        [id, name],
      );
      helpers.push(
        existing ??
          (await db.one<{ id: string; name: string }>(
            'INSERT INTO study_helpers (congregation_id, name, email) VALUES ($1, $2, $3) RETURNING id, name',
            [id, name, email],
          )),
      );
    }
    congregations.push({ id, helpers });
  }
  return congregations;
}

/** One sign-in account per role; the coordinator's is for the first congregation. */
async function insertAccounts(db: Database, congregations: readonly CongregationIds[]): Promise<void> {
  for (const account of DEMO_ACCOUNTS) {
    await saveUser(db, {
      email: account.email,
      role: account.role as Role,
      isAdmin: account.isAdmin,
      congregationId: account.congregation === null ? null : (congregations[account.congregation]?.id ?? null),
      password: DEMO_PASSWORD,
    });
  }
}

/** Courses, lessons (chained with next_lesson_id) and page templates with their `t` codes. */
async function insertCourses(db: Database): Promise<string[]> {
  const lessonIds: string[] = [];
  let previousCourse: string | null = null;
  for (const course of COURSES) {
    const existing: { id: string } | null = await db.maybeOne<{ id: string }>(
      'SELECT id FROM courses WHERE name = $1 AND version = $2',
      [course.name, course.version],
    );
    if (existing !== null) {
      const lessons = await db.query<{ id: string }>('SELECT id FROM lessons WHERE course_id = $1 ORDER BY number', [existing.id]);
      lessonIds.push(...lessons.map((lesson) => lesson.id));
      previousCourse = existing.id;
      continue;
    }
    const { id: courseId } = await db.one<{ id: string }>(
      'INSERT INTO courses (name, version) VALUES ($1, $2) RETURNING id',
      [course.name, course.version],
    );
    if (previousCourse !== null) {
      await db.query('UPDATE courses SET next_course_id = $2 WHERE id = $1', [previousCourse, courseId]);
    }
    previousCourse = courseId;

    let previousLesson: string | null = null;
    for (const [index, name] of course.lessons.entries()) {
      const { id: lessonId } = await db.one<{ id: string }>(
        'INSERT INTO lessons (course_id, number, name) VALUES ($1, $2, $3) RETURNING id',
        [courseId, index + 1, name],
      );
      if (previousLesson !== null) {
        await db.query('UPDATE lessons SET next_lesson_id = $2 WHERE id = $1', [previousLesson, lessonId]);
      }
      previousLesson = lessonId;
      lessonIds.push(lessonId);
      for (let page = 1; page <= course.pagesPerLesson; page += 1) {
        const codeId = newCodeId();
        const { id: templateId } = await db.one<{ id: string }>(
          `INSERT INTO page_templates (lesson_id, page_number, name, code_id) VALUES ($1, $2, $3, $4) RETURNING id`,
          [lessonId, page, `Lesson ${index + 1}, page ${page}`, codeId],
        );
        await db.query(`INSERT INTO printed_codes (code_id, prefix, target_id) VALUES ($1, 't', $2)`, [codeId, templateId]);
      }
    }
  }
  return lessonIds;
}

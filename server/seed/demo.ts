// Creates the demo programme on the first start of an installation (and on demand, e.g. a
// database init): service centers with their people, congregations, study helpers, students,
// courses with printed page templates, baptism requests, and one sign-in account per role.
// A marker in app_settings makes it run once; the inserts themselves also tolerate reruns.
import { saveUser, type Role } from '../auth/users.js';
import type { Database } from '../db/database.js';
import { newCodeId } from '../db/printed-codes.js';
import { countryName } from './countries.js';
import {
  DEMO_ACCOUNTS,
  DEMO_BAPTISM_STATUSES,
  DEMO_CONGREGATIONS,
  DEMO_COURSES,
  DEMO_FIRST_NAMES,
  DEMO_LAST_NAMES,
  DEMO_PASSWORD,
  DEMO_SERVICE_CENTERS,
  DEMO_STUDENT_COUNT,
  DEMO_STUDY_HELPERS,
  EMPLOYMENTS,
  GENDERS,
  RELATIONSHIP_STATUSES,
} from './demo-data.js';

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

/** Small deterministic random numbers: the demo looks the same on every installation. */
function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (max: number) => Math.floor(next() * max);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)] as T;
  return { next, int, pick };
}

interface ServiceCenterIds {
  id: string;
  country: string;
  recruitingPoints: { id: string; name: string }[];
  recruiters: { id: string; name: string }[];
}

async function insertDemoData(db: Database): Promise<void> {
  const random = generator(20240601);

  // Service centers: find-or-create by name so a forced rerun does not double them.
  const centers: ServiceCenterIds[] = [];
  for (const center of DEMO_SERVICE_CENTERS) {
    const existing = await db.maybeOne<{ id: string }>('SELECT id FROM service_centers WHERE name = $1', [center.name]);
    if (existing !== null) {
      centers.push({
        id: existing.id,
        country: center.country,
        recruitingPoints: await db.query('SELECT id, name FROM recruiting_points WHERE service_center_id = $1', [existing.id]),
        recruiters: await db.query('SELECT id, name FROM recruiters WHERE service_center_id = $1', [existing.id]),
      });
      continue;
    }
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
    centers.push({ id, country: center.country, recruitingPoints, recruiters });
  }

  const congregations: { id: string; helpers: { id: string; name: string }[] }[] = [];
  for (const [index, congregation] of DEMO_CONGREGATIONS.entries()) {
    const { id } = await db.one<{ id: string }>(
      `INSERT INTO congregations (wbs_code, display_name) VALUES ($1, $2)
       ON CONFLICT (wbs_code) DO UPDATE SET display_name = EXCLUDED.display_name RETURNING id`,
      [congregation.wbs_code, congregation.display_name],
    );
    const helpers = [];
    for (const name of DEMO_STUDY_HELPERS[index] ?? []) {
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

  for (const account of DEMO_ACCOUNTS) {
    await saveUser(db, {
      email: account.email,
      role: account.role as Role,
      isAdmin: account.isAdmin,
      congregationId: account.congregation === null ? null : (congregations[account.congregation]?.id ?? null),
      password: DEMO_PASSWORD,
    });
  }

  const lessonIds = await insertCourses(db);

  // Students exist once: a forced rerun keeps the ones already there.
  const { count } = await db.one<{ count: number }>('SELECT count(*) AS count FROM students');
  if (count > 0) return;

  const studentIds: string[] = [];
  for (let i = 0; i < DEMO_STUDENT_COUNT; i += 1) {
    const center = centers[i % centers.length] as ServiceCenterIds;
    // Every fifth student waits for a congregation; the rest spread over the four.
    const congregation = i % 5 === 4 ? null : (congregations[i % congregations.length] ?? null);
    const helper = congregation !== null && random.next() < 0.7 ? random.pick(congregation.helpers) : null;
    const recruiter = random.pick(center.recruiters);
    const point = random.pick(center.recruitingPoints);
    const first = random.pick(DEMO_FIRST_NAMES);
    const last = random.pick(DEMO_LAST_NAMES);
    const birthYear = new Date().getFullYear() - (17 + random.int(55));
    const birthdate = `${birthYear}-${String(1 + random.int(12)).padStart(2, '0')}-${String(1 + random.int(28)).padStart(2, '0')}`;
    const attributes = {
      name: `${first} ${last}`,
      address: `${1 + random.int(240)} ${random.pick(['Church', 'Market', 'Station', 'Hill', 'River'])} Road, ${
        DEMO_SERVICE_CENTERS[i % DEMO_SERVICE_CENTERS.length]?.location ?? ''
      }`,
      email: random.next() < 0.6 ? `${first}.${last}${i}@example.com`.toLowerCase().replace(/\s+/g, '') : '',
      phone: random.next() < 0.8 ? `+${100 + random.int(800)} ${100 + random.int(900)} ${1000 + random.int(9000)}` : '',
      birthdate,
      age: ageOn(birthdate, new Date()),
      gender: random.pick(GENDERS),
      relationship_status: random.pick(RELATIONSHIP_STATUSES),
      employment: random.pick(EMPLOYMENTS),
      has_bible: random.next() < 0.65 ? 'yes' : 'no',
      study_helper: helper?.name ?? '',
      recruiter: recruiter.name,
      recruiting_point: point.name,
      // What a student writes on the form: the country's name.
      country: countryName(center.country),
    };
    const daysAgo = DEMO_STUDENT_COUNT - i + random.int(20);
    const lastLesson = random.next() < 0.6 ? random.pick(lessonIds) : null;
    const { id } = await db.one<{ id: string }>(
      `INSERT INTO students (congregation_id, study_helper_id, country_iso, service_center_id, recruiter_id,
                             recruiting_point_id, attributes, last_completed_lesson_id, created_at, last_active_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, now() - make_interval(days => $9::int),
               CASE WHEN $8::uuid IS NULL THEN NULL ELSE now() - make_interval(days => $10::int) END)
       RETURNING id`,
      [
        congregation?.id ?? null,
        helper?.id ?? null,
        center.country,
        center.id,
        recruiter.id,
        point.id,
        attributes,
        lastLesson,
        daysAgo,
        random.int(Math.max(daysAgo, 1)),
      ],
    );
    studentIds.push(id);
  }

  for (const [index, status] of DEMO_BAPTISM_STATUSES.entries()) {
    const studentId = studentIds[index * 7 + 3];
    if (studentId === undefined) continue;
    await db.query(
      `INSERT INTO baptism_requests (student_id, status, requested_at)
       VALUES ($1, $2, now() - make_interval(days => $3::int))
       ON CONFLICT (student_id) DO NOTHING`,
      [studentId, status, 2 + index * 5],
    );
  }
}

/** Courses, lessons (chained with next_lesson_id) and page templates with their `t` codes. */
async function insertCourses(db: Database): Promise<string[]> {
  const lessonIds: string[] = [];
  let previousCourse: string | null = null;
  for (const course of DEMO_COURSES) {
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

/** Whole years from `birthdate` (YYYY-MM-DD) to `today`. */
export function ageOn(birthdate: string, today: Date): number {
  const [year, month, day] = birthdate.split('-').map(Number) as [number, number, number];
  const birthdayPassed = today.getMonth() + 1 > month || (today.getMonth() + 1 === month && today.getDate() >= day);
  return today.getFullYear() - year - (birthdayPassed ? 0 : 1);
}

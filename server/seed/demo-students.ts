// The demo programme's students: spread over the seeded service centers and congregations, drawn
// from a seeded generator (the same students on every installation), and a few baptism requests.
import type { Prng } from '../../demo/random.js';
import { EMPLOYMENTS, FIRST_NAMES, LAST_NAMES } from '../../demo/programme.js';
import type { Database } from '../db/database.js';
import { countryName } from './countries.js';
import { DEMO_BAPTISM_STATUSES, DEMO_SERVICE_CENTERS, DEMO_STUDENT_COUNT, GENDERS, RELATIONSHIP_STATUSES } from './demo-data.js';

/** A seeded service center, as its students link to it. */
export interface ServiceCenterIds {
  id: string;
  country: string;
  recruitingPoints: { id: string; name: string }[];
  recruiters: { id: string; name: string }[];
}

/** A seeded congregation and its study helpers. */
export interface CongregationIds {
  id: string;
  helpers: { id: string; name: string }[];
}

export interface StudentPlaces {
  centers: readonly ServiceCenterIds[];
  congregations: readonly CongregationIds[];
  lessonIds: readonly string[];
}

/** DEMO_STUDENT_COUNT students spread over the service centers and congregations; their ids in order. */
export async function insertStudents(db: Database, random: Prng, places: StudentPlaces): Promise<string[]> {
  const { centers, congregations, lessonIds } = places;
  const studentIds: string[] = [];
  for (let i = 0; i < DEMO_STUDENT_COUNT; i += 1) {
    const center = centers[i % centers.length] as ServiceCenterIds;
    // Every fifth student waits for a congregation; the rest spread over the four.
    const congregation = i % 5 === 4 ? null : (congregations[i % congregations.length] ?? null);
    const helper = congregation !== null && random.next() < 0.7 ? random.pick(congregation.helpers) : null;
    const recruiter = random.pick(center.recruiters);
    const point = random.pick(center.recruitingPoints);
    const attributes = studentAttributes(random, i, { center, helper, recruiter, point });
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
  return studentIds;
}

interface StudentLinks {
  center: ServiceCenterIds;
  helper: { name: string } | null;
  recruiter: { name: string };
  point: { name: string };
}

/** What student `i` wrote on the form (drawn in the order the demo always drew it). */
function studentAttributes(random: Prng, i: number, links: StudentLinks): Record<string, string | number> {
  const first = random.pick(FIRST_NAMES);
  const last = random.pick(LAST_NAMES);
  const birthYear = new Date().getFullYear() - (17 + random.int(55));
  const birthdate = `${birthYear}-${String(1 + random.int(12)).padStart(2, '0')}-${String(1 + random.int(28)).padStart(2, '0')}`;
  return {
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
    study_helper: links.helper?.name ?? '',
    recruiter: links.recruiter.name,
    recruiting_point: links.point.name,
    // What a student writes on the form: the country's name.
    country: countryName(links.center.country),
  };
}

/** A baptism request in each status, for every seventh student from the fourth. */
export async function insertBaptismRequests(db: Database, studentIds: readonly string[]): Promise<void> {
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

/** Whole years from `birthdate` (YYYY-MM-DD) to `today`. */
export function ageOn(birthdate: string, today: Date): number {
  const [year, month, day] = birthdate.split('-').map(Number) as [number, number, number];
  const birthdayPassed = today.getMonth() + 1 > month || (today.getMonth() + 1 === month && today.getDate() >= day);
  return today.getFullYear() - year - (birthdayPassed ? 0 : 1);
}

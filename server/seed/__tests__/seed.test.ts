import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../../auth/passwords.js';
import type { Database } from '../../db/database.js';
import { createTestDb } from '../../../tests/helpers/test-db.js';
import { countryList, countryName, loadReferenceData } from '../countries.js';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seedDemoData } from '../demo.js';
import { ageOn } from '../demo-students.js';

const counts = async (db: Database) =>
  db.one<Record<string, number>>(`
    SELECT (SELECT count(*) FROM service_centers) AS service_centers,
           (SELECT count(*) FROM recruiting_points) AS recruiting_points,
           (SELECT count(*) FROM recruiters) AS recruiters,
           (SELECT count(*) FROM contact_persons) AS contact_persons,
           (SELECT count(*) FROM congregations) AS congregations,
           (SELECT count(*) FROM study_helpers) AS study_helpers,
           (SELECT count(*) FROM students) AS students,
           (SELECT count(*) FROM courses) AS courses,
           (SELECT count(*) FROM lessons) AS lessons,
           (SELECT count(*) FROM page_templates) AS page_templates,
           (SELECT count(*) FROM printed_codes) AS printed_codes,
           (SELECT count(*) FROM baptism_requests) AS baptism_requests,
           (SELECT count(*) FROM users) AS users`);

describe('reference data', () => {
  let db: Database;

  beforeAll(async () => {
    db = await createTestDb({ referenceData: false });
  }, 30_000);

  afterAll(async () => {
    await db?.close();
  });

  it('loads every ISO 3166 country with its English name, idempotently', async () => {
    await loadReferenceData(db);
    await loadReferenceData(db);
    const { count } = await db.one<{ count: number }>('SELECT count(*) AS count FROM countries');
    expect(count).toBe(countryList().length);
    expect(count).toBeGreaterThanOrEqual(249);
    expect(await db.one(`SELECT display_name FROM countries WHERE iso_code = 'GH'`)).toEqual({ display_name: 'Ghana' });
    expect(await db.one(`SELECT display_name FROM countries WHERE iso_code = 'US'`)).toEqual({
      display_name: 'United States of America',
    });
  });

  it("leaves lists a country's name to look up from the index alone", async () => {
    // A list's lookup (lookupSql) for many rows: 250 rows scanned per row without it.
    const plan = async () => {
      // As autovacuum leaves the table (it analyzes 250 new rows, but vacuums only from 1000).
      await db.exec('ANALYZE countries');
      const rows = await db.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN SELECT (SELECT x.display_name FROM countries x WHERE x.iso_code = v.code) FROM (VALUES ('GH'), ('NG'), ('KE')) v (code)`,
      );
      return rows.map((row) => row['QUERY PLAN']).join('\n');
    };
    await loadReferenceData(db);
    // On PostgreSQL the test schemas share one database: while another test file's transaction
    // is older than the rows, VACUUM cannot mark their pages all-visible. Loading again (as the
    // next start does) gets there once that transaction has ended.
    for (let attempt = 0; attempt < 20 && !(await plan()).includes('Index Only Scan'); attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      await loadReferenceData(db);
    }
    expect(await plan()).toContain('Index Only Scan using countries_iso_code_name_idx');
  });
});

describe('demo data', () => {
  let db: Database;

  beforeAll(async () => {
    db = await createTestDb();
  }, 30_000);

  afterAll(async () => {
    await db?.close();
  });

  it('is created on the first call only', async () => {
    expect(await seedDemoData(db)).toEqual({ seeded: true });
    const first = await counts(db);
    expect(first).toMatchObject({ congregations: 4, students: 60, courses: 3, users: 3 });
    expect(first.service_centers).toBeGreaterThanOrEqual(3);
    expect(first.recruiting_points).toBeGreaterThanOrEqual(first.service_centers as number);
    expect(first.baptism_requests).toBeGreaterThanOrEqual(3);
    expect(await seedDemoData(db)).toEqual({ seeded: false });
    expect(await counts(db)).toEqual(first);
  });

  it('does not double anything when forced again', async () => {
    const before = await counts(db);
    expect(await seedDemoData(db, { force: true })).toEqual({ seeded: true });
    expect(await counts(db)).toEqual(before);
  });

  it('gives every page template a printed t code', async () => {
    const orphans = await db.query(
      `SELECT t.id FROM page_templates t
       LEFT JOIN printed_codes c ON c.code_id = t.code_id AND c.prefix = 't' AND c.target_id = t.id
       WHERE c.code_id IS NULL`,
    );
    expect(orphans).toEqual([]);
    const codes = await db.query<{ code_id: string }>('SELECT code_id FROM printed_codes');
    for (const { code_id } of codes) expect(code_id).toMatch(/^[A-HJKMNP-Z2-9]{8}$/);
  });

  it('uses WBS codes that follow the spec rule', async () => {
    const codes = await db.query<{ wbs_code: string }>('SELECT wbs_code FROM congregations');
    for (const { wbs_code } of codes) {
      expect(wbs_code.length).toBeGreaterThan(5);
      expect(wbs_code.split(' ')).toHaveLength(2);
      expect(wbs_code.indexOf(' ')).toBeGreaterThanOrEqual(2);
    }
  });

  it('spreads students over congregations with realistic attributes', async () => {
    const perCongregation = await db.query<{ congregation_id: string | null; count: number }>(
      'SELECT congregation_id, count(*) AS count FROM students GROUP BY congregation_id',
    );
    expect(perCongregation.filter((row) => row.congregation_id !== null)).toHaveLength(4);
    const student = await db.one<{ attributes: Record<string, unknown> }>('SELECT attributes FROM students ORDER BY human_id LIMIT 1');
    expect(Object.keys(student.attributes)).toEqual(
      expect.arrayContaining(['name', 'address', 'email', 'phone', 'birthdate', 'age', 'gender', 'relationship_status', 'employment', 'has_bible']),
    );
    expect(['his_Male', 'her_Female', 'their_Prefer Not to Answer']).toContain(student.attributes.gender);
    // Written as a student fills in the form: the country's name, an age that fits the birthdate.
    const students = await db.query<{ attributes: { birthdate: string; age: number; country: string }; country_iso: string }>(
      'SELECT attributes, country_iso FROM students',
    );
    for (const { attributes, country_iso } of students) {
      expect(attributes.age).toBe(ageOn(attributes.birthdate, new Date()));
      expect(attributes.country).toBe(countryName(country_iso));
      expect(attributes.country.length).toBeGreaterThan(2);
    }
    // A study helper always belongs to the student's congregation.
    const mismatched = await db.query(
      `SELECT s.id FROM students s JOIN study_helpers h ON h.id = s.study_helper_id WHERE h.congregation_id <> s.congregation_id`,
    );
    expect(mismatched).toEqual([]);
  });

  it('creates one sign-in account per role with the demo password', async () => {
    const users = await db.query<{ email: string; role: string; is_admin: boolean; wbs_code: string | null; password_hash: string }>(
      `SELECT u.email, u.role, u.is_admin, c.wbs_code, u.password_hash
       FROM users u LEFT JOIN congregations c ON c.id = u.congregation_id ORDER BY u.email`,
    );
    expect(users.map(({ email, role, is_admin, wbs_code }) => ({ email, role, is_admin, wbs_code }))).toEqual([
      { email: 'admin@demo.local', role: 'scanning_admin', is_admin: true, wbs_code: null },
      { email: 'coordinator@demo.local', role: 'study_helper_coordinator', is_admin: false, wbs_code: 'TX 40213' },
      { email: 'user@demo.local', role: 'standard_user', is_admin: false, wbs_code: null },
    ]);
    expect(DEMO_ACCOUNTS.map((account) => account.email)).toEqual(users.map((user) => user.email));
    for (const user of users) expect(await verifyPassword(DEMO_PASSWORD, user.password_hash)).toBe(true);
  });
});

describe('ageOn', () => {
  it('counts whole years, the birthday itself included', () => {
    expect(ageOn('1962-06-28', new Date(2026, 5, 27))).toBe(63);
    expect(ageOn('1962-06-28', new Date(2026, 5, 28))).toBe(64);
    expect(ageOn('1962-06-28', new Date(2026, 10, 22))).toBe(64);
  });
});

// Database set-up calls: init (migrations + reference data, idempotent) and delete (refused
// unless ALLOW_DATABASE_DELETE=true; then all programme data goes and reference data stays).
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database';
import { migrate, readMigrations } from '../../server/db/migrate';
import { openPglite } from '../../server/db/pglite';
import { openPostgres } from '../../server/db/postgres';
import { apiPlugins } from '../../server/routes/index';
import { createTestApp } from '../helpers/test-app';
import {
  admin,
  call,
  coordinator,
  insertAnswerSheet,
  insertCongregation,
  insertCourse,
  insertFile,
  insertPage,
  insertServiceCenter,
  insertStudent,
  insertStudyHelper,
  useRouteTests,
} from './support';

const t = useRouteTests();

/** An empty database (no migrations at all), on the same kind of server as the other tests. */
async function emptyDatabase(): Promise<Database> {
  const url = process.env.DATABASE_URL;
  if (!url) return openPglite();
  const schema = `test_init_${randomBytes(4).toString('hex')}`;
  const setup = await openPostgres({ connectionString: url, max: 1 });
  await setup.exec(`CREATE SCHEMA ${schema}`);
  await setup.close();
  const db = await openPostgres({ connectionString: url, schema, max: 3 });
  const close = db.close.bind(db);
  return Object.assign(db, {
    async close() {
      await close();
      const cleanup = await openPostgres({ connectionString: url, max: 1 });
      await cleanup.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await cleanup.close();
    },
  });
}

describe('POST /api/database/init', () => {
  it('applies pending migrations and loads the countries, then does nothing more', async () => {
    const all = readMigrations();
    const db = await emptyDatabase();
    // The first migration holds the users and sessions an admin needs to call init at all.
    await migrate(db, all.slice(0, 1));
    const fresh = await createTestApp({ db, plugins: apiPlugins({ validateResponses: true }) });
    try {
      const me = await admin(fresh.app);
      const first = await call(fresh.app, me, 'POST', '/api/database/init');
      expect(first).toMatchObject({ status: 200, body: { status: 'ok', migrations_applied: all.length - 1 } });
      const { total } = await db.one<{ total: number }>('SELECT count(*) AS total FROM countries');
      expect(total).toBeGreaterThan(200);
      const again = await call(fresh.app, me, 'POST', '/api/database/init');
      expect(again).toMatchObject({ status: 200, body: { status: 'ok', migrations_applied: 0 } });
      const applied = await db.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY version');
      expect(applied.map((row) => row.name)).toEqual(all.map((migration) => migration.name));
      expect(fresh.app.contractViolations).toEqual([]);
    } finally {
      await fresh.close();
      await db.close();
    }
  });

  it('restores a reference country that went missing', async () => {
    await t.db.query("DELETE FROM countries WHERE iso_code = 'GH'");
    const response = await call(t.app, await admin(t.app), 'POST', '/api/database/init');
    expect(response).toMatchObject({ status: 200, body: { status: 'ok', migrations_applied: 0 } });
    const ghana = await t.db.maybeOne("SELECT display_name FROM countries WHERE iso_code = 'GH'");
    expect(ghana).toEqual({ display_name: 'Ghana' });
  });

  it('is refused to a coordinator and to anonymous callers', async () => {
    const congregation = await insertCongregation(t.db, 'US 1111');
    expect(await call(t.app, await coordinator(t.app, congregation), 'POST', '/api/database/init')).toMatchObject({
      status: 403,
      body: { detail: 'Forbidden' },
    });
    expect((await call(t.app, null, 'POST', '/api/database/init')).status).toBe(401);
  });
});

async function programme(db: Database, blobKey: string) {
  const congregation = await insertCongregation(db, 'US 1111');
  const helper = await insertStudyHelper(db, congregation, 'Linda');
  const center = await insertServiceCenter(db, 'Accra Center');
  const course = await insertCourse(db, 'Good News', ['GN 1']);
  const student = await insertStudent(db, { congregationId: congregation, studyHelperId: helper, serviceCenterId: center });
  const file = await insertFile(db, 'batch', { serviceCenterId: center });
  await db.query('UPDATE files SET blob_key = $2 WHERE id = $1', [file, blobKey]);
  const sheet = await insertAnswerSheet(db, file, { studentId: student.id, lessonId: course.lessonIds[0], assignedGroup: congregation });
  await insertPage(db, file, 1, sheet);
  await db.query('INSERT INTO baptism_requests (student_id, answer_sheet_id) VALUES ($1, $2)', [student.id, sheet]);
  return { congregation };
}

describe('POST /api/database/delete', () => {
  it('is refused with "Database delete is disabled" by default, and deletes nothing', async () => {
    await programme(t.db, randomBytes(32).toString('hex'));
    const response = await call(t.app, await admin(t.app), 'POST', '/api/database/delete');
    expect(response).toMatchObject({ status: 403, body: { detail: 'Database delete is disabled' } });
    const { total } = await t.db.one<{ total: number }>('SELECT count(*) AS total FROM students');
    expect(total).toBe(1);
  });

  it('deletes all programme data and blobs when allowed, keeping accounts and reference data', async () => {
    const allowed = await createTestApp({ db: t.db, env: { ALLOW_DATABASE_DELETE: 'true' }, plugins: apiPlugins({ validateResponses: true }) });
    try {
      const blob = await allowed.blobStore.put(Buffer.from('%PDF-1.4 scanned batch'));
      const { congregation } = await programme(t.db, blob.key);
      const me = await admin(allowed.app);
      const member = await coordinator(allowed.app, congregation);
      expect(await call(allowed.app, member, 'POST', '/api/database/delete')).toMatchObject({ status: 403 });
      await t.db.query("DELETE FROM countries WHERE iso_code = 'KE'");

      const response = await call(allowed.app, me, 'POST', '/api/database/delete');
      expect(response).toMatchObject({ status: 200, body: { status: 'ok' } });

      const counts = await t.db.one<Record<string, number>>(
        `SELECT (SELECT count(*) FROM congregations) AS congregations, (SELECT count(*) FROM study_helpers) AS study_helpers,
                (SELECT count(*) FROM service_centers) AS service_centers, (SELECT count(*) FROM courses) AS courses,
                (SELECT count(*) FROM students) AS students, (SELECT count(*) FROM files) AS files,
                (SELECT count(*) FROM answer_sheets) AS answer_sheets, (SELECT count(*) FROM pages) AS pages,
                (SELECT count(*) FROM baptism_requests) AS baptism_requests`,
      );
      expect(Object.values(counts).every((count) => count === 0)).toBe(true);
      expect(await allowed.blobStore.stat(blob.key)).toBeNull();
      const users = await t.db.query<{ email: string; congregation_id: string | null }>(
        'SELECT email, congregation_id FROM users ORDER BY email',
      );
      expect(users).toEqual([
        { email: 'admin@test.local', congregation_id: null },
        { email: expect.stringMatching(/^coordinator-/), congregation_id: null },
      ]);
      expect(await t.db.maybeOne("SELECT display_name FROM countries WHERE iso_code = 'KE'")).toEqual({ display_name: 'Kenya' });
      // The admin is still signed in and the API still works on the empty programme.
      expect(await call(allowed.app, me, 'GET', '/api/congregations')).toMatchObject({ status: 200, body: { total: 0 } });
      expect(allowed.app.contractViolations).toEqual([]);
    } finally {
      await allowed.close();
    }
  });
});

// Countries and courses (reference tag): search, paging, lookups, course page templates.
import { describe, expect, it } from 'vitest';
import { admin, coordinator, getJson, insertCongregation, insertCourse, useRouteTests } from './support';

const t = useRouteTests();

interface Listed<T> {
  items: T[];
  total: number;
  skip: number;
  limit: number;
}
type Country = { iso_code: string; display_name: string };

describe('GET /api/countries', () => {
  it('lists every country by display name with the default page of 10', async () => {
    const me = await admin(t.app);
    const { status, body } = await getJson<Listed<Country>>(t.app, me, '/api/countries');
    expect(status).toBe(200);
    const { total } = await t.db.one<{ total: number }>('SELECT count(*) AS total FROM countries');
    expect(total).toBeGreaterThan(200);
    expect(body).toMatchObject({ total, skip: 0, limit: 10 });
    expect(body.items).toHaveLength(10);
    const names = body.items.map((country) => country.display_name);
    const expected = (
      await t.db.query<{ display_name: string }>('SELECT display_name FROM countries ORDER BY display_name, iso_code LIMIT 10')
    ).map((row) => row.display_name);
    expect(names).toEqual(expected);
  });

  it('honours skip and limit, keeping the total', async () => {
    const me = await admin(t.app);
    const all = await getJson<Listed<Country>>(t.app, me, '/api/countries?limit=30');
    const page = await getJson<Listed<Country>>(t.app, me, '/api/countries?skip=10&limit=5');
    expect(page.body).toMatchObject({ total: all.body.total, skip: 10, limit: 5 });
    expect(page.body.items).toEqual(all.body.items.slice(10, 15));
    const empty = await getJson<Listed<Country>>(t.app, me, `/api/countries?skip=${all.body.total}`);
    expect(empty.body.items).toEqual([]);
    expect(empty.body.total).toBe(all.body.total);
    const none = await getJson<Listed<Country>>(t.app, me, '/api/countries?limit=0');
    expect(none.body).toMatchObject({ items: [], limit: 0, total: all.body.total });
  });

  it('searches part of the name or the ISO code, case-insensitively', async () => {
    const me = await admin(t.app);
    const byName = await getJson<Listed<Country>>(t.app, me, '/api/countries?q=GHANA');
    expect(byName.body.items).toEqual([{ iso_code: 'GH', display_name: 'Ghana' }]);
    expect(byName.body.total).toBe(1);
    const byCode = await getJson<Listed<Country>>(t.app, me, '/api/countries?q=ke&limit=100');
    expect(byCode.body.items.map((country) => country.iso_code)).toContain('KE');
    expect(byCode.body.items.every((c) => c.display_name.toLowerCase().includes('ke') || c.iso_code === 'KE')).toBe(true);
    const wildcard = await getJson<Listed<Country>>(t.app, me, '/api/countries?q=%25');
    expect(wildcard.body.total).toBe(0);
  });

  it('is open to a coordinator, refused to anonymous callers and users without a congregation', async () => {
    const congregation = await insertCongregation(t.db, 'US 1234');
    expect((await getJson(t.app, await coordinator(t.app, congregation), '/api/countries')).status).toBe(200);
    expect(await getJson(t.app, null, '/api/countries')).toEqual({ status: 401, body: { detail: 'Not authenticated' } });
    const { signIn } = await import('../helpers/sign-in');
    const user = await signIn(t.app, 'nobody@test.local');
    expect(await getJson(t.app, user, '/api/countries')).toEqual({ status: 403, body: { detail: 'Forbidden' } });
  });

  it('rejects paging values outside the contract', async () => {
    const me = await admin(t.app);
    const response = await getJson<{ detail: { error_type: string } }>(t.app, me, '/api/countries?limit=501');
    expect(response.status).toBe(400);
    expect(response.body.detail.error_type).toBe('VALIDATION_ERROR');
  });
});

describe('GET /api/countries/{iso_code}', () => {
  it('returns one country, in any letter case', async () => {
    const me = await admin(t.app);
    expect(await getJson(t.app, me, '/api/countries/gh')).toEqual({ status: 200, body: { iso_code: 'GH', display_name: 'Ghana' } });
    expect(await getJson(t.app, me, '/api/countries/KE')).toEqual({ status: 200, body: { iso_code: 'KE', display_name: 'Kenya' } });
  });

  it('answers 404 for an unknown code and 400 for a malformed one', async () => {
    const me = await admin(t.app);
    expect(await getJson(t.app, me, '/api/countries/QQ')).toEqual({ status: 404, body: { detail: 'Country not found' } });
    expect((await getJson(t.app, me, '/api/countries/GHA')).status).toBe(400);
  });
});

describe('GET /api/courses', () => {
  it('lists courses by name with their lessons in order, paged', async () => {
    const me = await admin(t.app);
    const good = await insertCourse(t.db, 'Good News', ['GN 1', 'GN 2', 'GN 3']);
    const bible = await insertCourse(t.db, 'Bible Basics', ['BB 1']);
    await insertCourse(t.db, 'Life of Jesus', []);
    const { status, body } = await getJson<Listed<{ id: string; name: string; version: string; lessons: unknown[] }>>(
      t.app,
      me,
      '/api/courses',
    );
    expect(status).toBe(200);
    expect(body).toMatchObject({ total: 3, skip: 0, limit: 10 });
    expect(body.items.map((course) => course.name)).toEqual(['Bible Basics', 'Good News', 'Life of Jesus']);
    expect(body.items[0]).toEqual({
      id: bible.courseId,
      name: 'Bible Basics',
      version: '1',
      lessons: [{ id: bible.lessonIds[0], name: 'BB 1', number: 1, course_id: bible.courseId }],
    });
    expect(body.items[1]?.lessons).toEqual(
      good.lessonIds.map((id, index) => ({ id, name: `GN ${index + 1}`, number: index + 1, course_id: good.courseId })),
    );
    expect(body.items[2]?.lessons).toEqual([]);

    const page = await getJson<Listed<{ name: string }>>(t.app, me, '/api/courses?skip=1&limit=1');
    expect(page.body).toMatchObject({ total: 3, skip: 1, limit: 1 });
    expect(page.body.items.map((course) => course.name)).toEqual(['Good News']);
  });

  it('filters by part of the name', async () => {
    const me = await admin(t.app);
    await insertCourse(t.db, 'Good News', ['GN 1']);
    await insertCourse(t.db, 'Bible Basics', ['BB 1']);
    const { body } = await getJson<Listed<{ name: string }>>(t.app, me, '/api/courses?name=news');
    expect(body.total).toBe(1);
    expect(body.items.map((course) => course.name)).toEqual(['Good News']);
  });
});

describe('GET /api/courses/{id}/pages', () => {
  it("lists the course's page templates by lesson and page number with their printed code", async () => {
    const me = await admin(t.app);
    const course = await insertCourse(t.db, 'Good News', ['GN 1', 'GN 2'], 2);
    await insertCourse(t.db, 'Other', ['O 1'], 1);
    const { status, body } = await getJson<Array<{ name: string; page_number: number; code: string; lesson: { id: string } }>>(
      t.app,
      me,
      `/api/courses/${course.courseId}/pages`,
    );
    expect(status).toBe(200);
    expect(body.map((page) => [page.lesson.id, page.page_number, page.name])).toEqual([
      [course.lessonIds[0], 1, 'GN 1, page 1'],
      [course.lessonIds[0], 2, 'GN 1, page 2'],
      [course.lessonIds[1], 1, 'GN 2, page 1'],
      [course.lessonIds[1], 2, 'GN 2, page 2'],
    ]);
    const codes = await t.db.query<{ code_id: string }>(
      `SELECT t.code_id FROM page_templates t JOIN lessons l ON l.id = t.lesson_id WHERE l.course_id = $1
       ORDER BY l.number, t.page_number`,
      [course.courseId],
    );
    expect(body.map((page) => page.code)).toEqual(codes.map((row) => `T-${row.code_id}`));
  });

  it('answers 404 for an unknown course', async () => {
    const me = await admin(t.app);
    expect(await getJson(t.app, me, '/api/courses/00000000-0000-4000-8000-000000000000/pages')).toEqual({
      status: 404,
      body: { detail: 'Course not found' },
    });
  });
});

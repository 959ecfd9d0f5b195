// Study helpers across congregations: list by name and congregation, one helper; a coordinator
// sees only its own congregation's helpers (naming another congregation is refused with 403).
import { describe, expect, it } from 'vitest';
import { admin, coordinator, daysAgo, getJson, insertCongregation, insertStudent, insertStudyHelper, useRouteTests } from './support';

const t = useRouteTests();
const MISSING = '00000000-0000-4000-8000-000000000000';

interface Listed<T> {
  items: T[];
  total: number;
  skip: number;
  limit: number;
}
type StudyHelper = {
  id: string;
  name: string;
  student_count: number;
  last_active_at: string | null;
  congregation: { id: string; wbs_code: string };
};

async function twoCongregations() {
  const a = await insertCongregation(t.db, 'US 1111', 'A');
  const b = await insertCongregation(t.db, 'US 2222', 'B');
  const helpers = {
    anna: await insertStudyHelper(t.db, a, 'Anna Smith'),
    carl: await insertStudyHelper(t.db, a, 'Carl Jones'),
    bea: await insertStudyHelper(t.db, b, 'Bea Smith'),
    dan: await insertStudyHelper(t.db, b, 'Dan Brown'),
  };
  return { a, b, helpers };
}

describe('GET /api/study-helpers', () => {
  it('lists every helper by name for an admin, with its congregation', async () => {
    const { a, b } = await twoCongregations();
    const { status, body } = await getJson<Listed<StudyHelper>>(t.app, await admin(t.app), '/api/study-helpers');
    expect(status).toBe(200);
    expect(body).toMatchObject({ total: 4, skip: 0, limit: 10 });
    expect(body.items.map((h) => [h.name, h.congregation.id])).toEqual([
      ['Anna Smith', a],
      ['Bea Smith', b],
      ['Carl Jones', a],
      ['Dan Brown', b],
    ]);
  });

  it('filters by name and congregation, and pages', async () => {
    const { b } = await twoCongregations();
    const me = await admin(t.app);
    const names = async (query: string) => {
      const { body } = await getJson<Listed<StudyHelper>>(t.app, me, `/api/study-helpers?${query}`);
      return { total: body.total, skip: body.skip, limit: body.limit, names: body.items.map((h) => h.name) };
    };
    expect(await names('name=SMITH')).toEqual({ total: 2, skip: 0, limit: 10, names: ['Anna Smith', 'Bea Smith'] });
    expect(await names(`congregation=${b}`)).toEqual({ total: 2, skip: 0, limit: 10, names: ['Bea Smith', 'Dan Brown'] });
    expect(await names(`congregation=${b}&name=smith`)).toEqual({ total: 1, skip: 0, limit: 10, names: ['Bea Smith'] });
    expect(await names('skip=1&limit=2')).toEqual({ total: 4, skip: 1, limit: 2, names: ['Bea Smith', 'Carl Jones'] });
    expect(await names('name=_')).toEqual({ total: 0, skip: 0, limit: 10, names: [] });
  });

  it("shows a coordinator only its own congregation's helpers, and refuses another congregation", async () => {
    const { a, b } = await twoCongregations();
    const me = await coordinator(t.app, a);
    const own = await getJson<Listed<StudyHelper>>(t.app, me, '/api/study-helpers?name=smith');
    expect(own.body.total).toBe(1);
    expect(own.body.items.map((h) => h.name)).toEqual(['Anna Smith']);
    const explicit = await getJson<Listed<StudyHelper>>(t.app, me, `/api/study-helpers?congregation=${a}`);
    expect(explicit.body.items.map((h) => h.name)).toEqual(['Anna Smith', 'Carl Jones']);
    expect(await getJson(t.app, me, `/api/study-helpers?congregation=${b}`)).toEqual({ status: 403, body: { detail: 'Forbidden' } });
  });
});

describe('GET /api/study-helpers/{id}', () => {
  it('returns the helper with its student count and last activity', async () => {
    const a = await insertCongregation(t.db, 'US 1111');
    const helper = await insertStudyHelper(t.db, a, 'Anna Smith', { lastActiveAt: daysAgo(4) });
    await insertStudent(t.db, { congregationId: a, studyHelperId: helper });
    await insertStudent(t.db, { congregationId: a, studyHelperId: helper });
    await insertStudent(t.db, { congregationId: a });
    const { status, body } = await getJson<StudyHelper>(t.app, await coordinator(t.app, a), `/api/study-helpers/${helper}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ id: helper, name: 'Anna Smith', student_count: 2, last_active_at: daysAgo(4).toISOString() });
  });

  it("answers 404 for an unknown helper and for another congregation's helper", async () => {
    const { a, helpers } = await twoCongregations();
    const notFound = { status: 404, body: { detail: 'Study helper not found' } };
    expect(await getJson(t.app, await coordinator(t.app, a), `/api/study-helpers/${helpers.bea}`)).toEqual(notFound);
    expect(await getJson(t.app, await admin(t.app), `/api/study-helpers/${MISSING}`)).toEqual(notFound);
    expect((await getJson(t.app, await admin(t.app), `/api/study-helpers/${helpers.bea}`)).status).toBe(200);
  });
});

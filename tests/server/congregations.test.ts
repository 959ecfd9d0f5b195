// Congregations: admin list and creation (WBS rule, duplicates), a coordinator's own record,
// dashboard counts and study helpers.
import { describe, expect, it } from 'vitest';
import {
  admin,
  call,
  coordinator,
  daysAgo,
  getJson,
  insertAnswerSheet,
  insertCongregation,
  insertFile,
  insertStudent,
  insertStudyHelper,
  useRouteTests,
} from './support';
import { wbsCodeProblem } from '../../server/routes/congregations';

const t = useRouteTests();
const MISSING = '00000000-0000-4000-8000-000000000000';

interface Listed<T> {
  items: T[];
  total: number;
  skip: number;
  limit: number;
}
type Congregation = { id: string; wbs_code: string; display_name: string; created_at: string };
type StudyHelper = { id: string; name: string; email: string; student_count: number; created_at: string; last_active_at: string | null };

describe('GET /api/congregations', () => {
  it('lists by WBS code with ISO dates, paged', async () => {
    const me = await admin(t.app);
    const tx = await insertCongregation(t.db, 'TX 40213', 'Abilene', daysAgo(5));
    await insertCongregation(t.db, 'AL 35801', 'Huntsville', daysAgo(1));
    await insertCongregation(t.db, 'OK 73120', 'Oklahoma City', daysAgo(3));
    const { status, body } = await getJson<Listed<Congregation>>(t.app, me, '/api/congregations');
    expect(status).toBe(200);
    expect(body).toMatchObject({ total: 3, skip: 0, limit: 10 });
    expect(body.items.map((c) => c.wbs_code)).toEqual(['AL 35801', 'OK 73120', 'TX 40213']);
    expect(body.items[2]).toEqual({ id: tx, wbs_code: 'TX 40213', display_name: 'Abilene', created_at: daysAgo(5).toISOString() });
    const page = await getJson<Listed<Congregation>>(t.app, me, '/api/congregations?skip=2&limit=5');
    expect(page.body).toMatchObject({ total: 3, skip: 2, limit: 5 });
    expect(page.body.items.map((c) => c.wbs_code)).toEqual(['TX 40213']);
  });

  it('sorts by wbs_code, display_name or created_at in either direction', async () => {
    const me = await admin(t.app);
    await insertCongregation(t.db, 'TX 40213', 'Bravo', daysAgo(5));
    await insertCongregation(t.db, 'AL 35801', 'Charlie', daysAgo(1));
    await insertCongregation(t.db, 'OK 73120', 'alpha', daysAgo(3));
    const codes = async (query: string) =>
      (await getJson<Listed<Congregation>>(t.app, me, `/api/congregations?${query}`)).body.items.map((c) => c.wbs_code);
    expect(await codes('order_by=wbs_code&order_direction=desc')).toEqual(['TX 40213', 'OK 73120', 'AL 35801']);
    expect(await codes('order_by=display_name')).toEqual(['OK 73120', 'TX 40213', 'AL 35801']);
    expect(await codes('order_by=display_name&order_direction=desc')).toEqual(['AL 35801', 'TX 40213', 'OK 73120']);
    expect(await codes('order_by=created_at')).toEqual(['AL 35801', 'OK 73120', 'TX 40213']);
    expect(await codes('order_by=created_at&order_direction=asc')).toEqual(['TX 40213', 'OK 73120', 'AL 35801']);
  });

  it('filters by part of the WBS code, case-insensitively', async () => {
    const me = await admin(t.app);
    await insertCongregation(t.db, 'TX 40213');
    await insertCongregation(t.db, 'tx 99999');
    await insertCongregation(t.db, 'AL 35801');
    const { body } = await getJson<Listed<Congregation>>(t.app, me, '/api/congregations?wbs_code=Tx');
    expect(body.total).toBe(2);
    expect(body.items.map((c) => c.wbs_code)).toEqual(['TX 40213', 'tx 99999']);
    const middle = await getJson<Listed<Congregation>>(t.app, me, '/api/congregations?wbs_code=358');
    expect(middle.body.items.map((c) => c.wbs_code)).toEqual(['AL 35801']);
  });

  it('is refused to a coordinator', async () => {
    const congregation = await insertCongregation(t.db, 'US 1234');
    expect(await getJson(t.app, await coordinator(t.app, congregation), '/api/congregations')).toEqual({
      status: 403,
      body: { detail: 'Forbidden' },
    });
  });
});

describe('POST /api/congregations', () => {
  it('creates a congregation and answers 201 with it', async () => {
    const me = await admin(t.app);
    const response = await call(t.app, me, 'POST', '/api/congregations', { wbs_code: 'US 1234', display_name: ' Springfield ' });
    expect(response.status).toBe(201);
    const created = response.body as Congregation;
    expect(created).toMatchObject({ wbs_code: 'US 1234', display_name: 'Springfield' });
    expect(new Date(created.created_at).toISOString()).toBe(created.created_at);
    expect((await getJson(t.app, me, `/api/congregations/${created.id}`)).body).toEqual(created);
  });

  it.each([
    ['US 12', 'WBS code must be longer than 5 characters.'],
    ['US1234', 'WBS code must contain exactly one space.'],
    ['US 12 34', 'WBS code must contain exactly one space.'],
    [' US1234', 'The space in a WBS code must not be in the first two positions.'],
    ['U S1234', 'The space in a WBS code must not be in the first two positions.'],
  ])('refuses WBS code %j with a clear message', async (wbsCode, message) => {
    const me = await admin(t.app);
    const response = await call(t.app, me, 'POST', '/api/congregations', { wbs_code: wbsCode, display_name: 'X' });
    expect(response.status).toBe(400);
    const detail = (response.body as { detail: { error_type: string; message: string } }).detail;
    expect(detail.error_type).toBe('VALIDATION_ERROR');
    // Codes of 5 characters or fewer are already refused by the contract's minLength.
    if (wbsCode.length > 5) expect(detail.message).toBe(message);
    const { total } = await t.db.one<{ total: number }>('SELECT count(*) AS total FROM congregations');
    expect(total).toBe(0);
  });

  it('follows the spec rule exactly', () => {
    expect(wbsCodeProblem('US 1234')).toBeNull();
    expect(wbsCodeProblem('USA 12')).toBeNull();
    expect(wbsCodeProblem('AB CDE')).toBeNull();
    expect(wbsCodeProblem('AB CD')).toBe('WBS code must be longer than 5 characters.');
    expect(wbsCodeProblem('ABCDEF')).toBe('WBS code must contain exactly one space.');
    expect(wbsCodeProblem('A BCDEF')).toBe('The space in a WBS code must not be in the first two positions.');
  });

  it('answers 409 CONFLICT for a WBS code that exists', async () => {
    const me = await admin(t.app);
    await insertCongregation(t.db, 'US 1234', 'First');
    const response = await call(t.app, me, 'POST', '/api/congregations', { wbs_code: 'US 1234', display_name: 'Second' });
    expect(response).toMatchObject({
      status: 409,
      body: { detail: { error_type: 'CONFLICT', message: 'A congregation with WBS code "US 1234" already exists.' } },
    });
  });

  it('is refused to a coordinator', async () => {
    const congregation = await insertCongregation(t.db, 'US 1234');
    const response = await call(t.app, await coordinator(t.app, congregation), 'POST', '/api/congregations', {
      wbs_code: 'US 9999',
      display_name: 'X',
    });
    expect(response.status).toBe(403);
  });
});

describe('GET /api/congregations/{id}', () => {
  it('lets a coordinator read its own congregation only', async () => {
    const mine = await insertCongregation(t.db, 'US 1111', 'Mine', daysAgo(1));
    const theirs = await insertCongregation(t.db, 'US 2222', 'Theirs');
    const me = await coordinator(t.app, mine);
    expect(await getJson(t.app, me, `/api/congregations/${mine}`)).toEqual({
      status: 200,
      body: { id: mine, wbs_code: 'US 1111', display_name: 'Mine', created_at: daysAgo(1).toISOString() },
    });
    expect(await getJson(t.app, me, `/api/congregations/${theirs}`)).toEqual({ status: 403, body: { detail: 'Forbidden' } });
  });

  it('answers 404 to an admin for an unknown congregation', async () => {
    expect(await getJson(t.app, await admin(t.app), `/api/congregations/${MISSING}`)).toEqual({
      status: 404,
      body: { detail: 'Congregation not found' },
    });
  });
});

describe('GET /api/congregations/{id}/stats', () => {
  it('counts files ready to print and files sent with sheets assigned to the congregation', async () => {
    const mine = await insertCongregation(t.db, 'US 1111');
    const other = await insertCongregation(t.db, 'US 2222');
    const sent = daysAgo(1);
    const files = [];
    for (let i = 0; i < 5; i += 1) files.push(await insertFile(t.db, `file ${i}`, { sentAt: i < 4 ? sent : null }));
    const [f0, f1, f2, f3, f4] = files as [string, string, string, string, string];
    // Sent to mine: f0 unprinted, f1 unprinted, f2 grading; f3 unprinted but sent only to the other; f4 not sent yet.
    const link = (file: string, congregation: string, status: string) =>
      t.db.query('INSERT INTO file_congregations (file_id, congregation_id, status) VALUES ($1, $2, $3)', [file, congregation, status]);
    await link(f0, mine, 'unprinted');
    await link(f1, mine, 'unprinted');
    await link(f2, mine, 'grading');
    await link(f3, other, 'unprinted');
    await link(f4, mine, 'unprinted');
    // Sheets assigned to mine in f0 (two), f2 and f4; to the other in f3.
    await insertAnswerSheet(t.db, f0, { assignedGroup: mine });
    await insertAnswerSheet(t.db, f0, { assignedGroup: mine });
    await insertAnswerSheet(t.db, f2, { assignedGroup: mine });
    await insertAnswerSheet(t.db, f4, { assignedGroup: mine });
    await insertAnswerSheet(t.db, f3, { assignedGroup: other });
    await insertAnswerSheet(t.db, f1, { assignedGroup: null });

    const me = await coordinator(t.app, mine);
    expect(await getJson(t.app, me, `/api/congregations/${mine}/stats`)).toEqual({
      status: 200,
      body: { ready_to_print_count: 2, all_files_count: 3 },
    });
    expect((await getJson(t.app, await admin(t.app), `/api/congregations/${other}/stats`)).body).toEqual({
      ready_to_print_count: 1,
      all_files_count: 1,
    });
    expect(await getJson(t.app, me, `/api/congregations/${other}/stats`)).toEqual({ status: 403, body: { detail: 'Forbidden' } });
    expect((await getJson(t.app, await admin(t.app), `/api/congregations/${MISSING}/stats`)).status).toBe(404);
  });
});

describe('study helpers of a congregation', () => {
  it('lists them by name with student counts, filtered and paged', async () => {
    const mine = await insertCongregation(t.db, 'US 1111');
    const other = await insertCongregation(t.db, 'US 2222');
    const linda = await insertStudyHelper(t.db, mine, 'Linda Carter', { lastActiveAt: daysAgo(2) });
    await insertStudyHelper(t.db, mine, 'robert Hughes');
    await insertStudyHelper(t.db, mine, 'Susan Carter');
    await insertStudyHelper(t.db, other, 'Outside Carter');
    await insertStudent(t.db, { congregationId: mine, studyHelperId: linda });
    await insertStudent(t.db, { congregationId: mine, studyHelperId: linda });
    const me = await coordinator(t.app, mine);

    const { status, body } = await getJson<Listed<StudyHelper>>(t.app, me, `/api/congregations/${mine}/study-helpers`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ total: 3, skip: 0, limit: 10 });
    expect(body.items.map((h) => [h.name, h.student_count])).toEqual([
      ['Linda Carter', 2],
      ['robert Hughes', 0],
      ['Susan Carter', 0],
    ]);
    expect(body.items[0]).toMatchObject({ id: linda, email: 'linda.carter@example.org', last_active_at: daysAgo(2).toISOString() });
    expect(body.items[1]?.last_active_at).toBeNull();

    const filtered = await getJson<Listed<StudyHelper>>(t.app, me, `/api/congregations/${mine}/study-helpers?name=carter&skip=1&limit=1`);
    expect(filtered.body).toMatchObject({ total: 2, skip: 1, limit: 1 });
    expect(filtered.body.items.map((h) => h.name)).toEqual(['Susan Carter']);
  });

  it('creates a study helper in the congregation', async () => {
    const mine = await insertCongregation(t.db, 'US 1111');
    const me = await coordinator(t.app, mine);
    const response = await call(t.app, me, 'POST', `/api/congregations/${mine}/study-helpers`, {
      name: 'Sister Mary Jones',
      email: 'study-helper@example.org',
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      name: 'Sister Mary Jones',
      email: 'study-helper@example.org',
      student_count: 0,
      last_active_at: null,
      congregation: { id: mine, wbs_code: 'US 1111' },
    });
    const row = await t.db.one<{ congregation_id: string }>('SELECT congregation_id FROM study_helpers WHERE id = $1', [
      (response.body as { id: string }).id,
    ]);
    expect(row.congregation_id).toBe(mine);
  });

  it("keeps a coordinator out of another congregation's helpers", async () => {
    const mine = await insertCongregation(t.db, 'US 1111');
    const other = await insertCongregation(t.db, 'US 2222');
    await insertStudyHelper(t.db, other, 'Outside');
    const me = await coordinator(t.app, mine);
    expect(await getJson(t.app, me, `/api/congregations/${other}/study-helpers`)).toEqual({ status: 403, body: { detail: 'Forbidden' } });
    const create = await call(t.app, me, 'POST', `/api/congregations/${other}/study-helpers`, { name: 'Sneaky', email: 'x@example.org' });
    expect(create).toMatchObject({ status: 403, body: { detail: 'Forbidden' } });
    const { total } = await t.db.one<{ total: number }>('SELECT count(*) AS total FROM study_helpers WHERE congregation_id = $1', [other]);
    expect(total).toBe(1);
  });

  it('answers 404 to an admin for an unknown congregation and 400 for a bad body', async () => {
    const me = await admin(t.app);
    expect(await getJson(t.app, me, `/api/congregations/${MISSING}/study-helpers`)).toEqual({
      status: 404,
      body: { detail: 'Congregation not found' },
    });
    expect(await call(t.app, me, 'POST', `/api/congregations/${MISSING}/study-helpers`, { name: 'X', email: '' })).toMatchObject({
      status: 404,
    });
    const mine = await insertCongregation(t.db, 'US 1111');
    expect((await call(t.app, me, 'POST', `/api/congregations/${mine}/study-helpers`, { name: 'No email' })).status).toBe(400);
  });
});

describe('a congregation\'s e-mail addresses', () => {
  type Email = { id: string; email: string; created_at: string };

  it('are listed by address, added in lower case and deleted, by an admin or the own coordinator', async () => {
    const congregation = await insertCongregation(t.db, 'US 1234');
    const me = await coordinator(t.app, congregation);
    const added = await call(t.app, await admin(t.app), 'POST', `/api/congregations/${congregation}/emails`, { email: ' Zed@Example.org ' });
    expect(added.status).toBe(201);
    expect(added.body).toEqual({ id: expect.any(String), email: 'zed@example.org' });
    expect((await call(t.app, me, 'POST', `/api/congregations/${congregation}/emails`, { email: 'amy@example.org' })).status).toBe(201);
    const listed = await getJson<Email[]>(t.app, me, `/api/congregations/${congregation}/emails`);
    expect(listed.body.map((e) => e.email)).toEqual(['amy@example.org', 'zed@example.org']);
    const zed = (added.body as Email).id;
    expect((await call(t.app, me, 'DELETE', `/api/congregations/${congregation}/emails/${zed}`)).status).toBe(204);
    expect((await call(t.app, me, 'DELETE', `/api/congregations/${congregation}/emails/${zed}`)).status).toBe(404);
    expect((await getJson<Email[]>(t.app, me, `/api/congregations/${congregation}/emails`)).body.map((e) => e.email)).toEqual(['amy@example.org']);
  });

  it('refuse what is no address, or one the congregation has already (400), and another congregation\'s coordinator (403)', async () => {
    const congregation = await insertCongregation(t.db, 'US 1234');
    const other = await insertCongregation(t.db, 'US 9876');
    const me = await coordinator(t.app, congregation);
    const url = `/api/congregations/${congregation}/emails`;
    for (const email of ['not an address', 'two@@example.org', 'nodomain@', 'a@b', 'x@example.org, y@example.org']) {
      const refused = await call(t.app, me, 'POST', url, { email });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({ detail: { error_type: 'VALIDATION_ERROR', message: expect.stringContaining('is not an e-mail address') } });
    }
    expect((await call(t.app, me, 'POST', url, { email: 'same@example.org' })).status).toBe(201);
    const duplicate = await call(t.app, me, 'POST', url, { email: 'SAME@example.org' });
    expect(duplicate).toMatchObject({ status: 400, body: { detail: { error_type: 'VALIDATION_ERROR' } } });
    expect((await getJson<Email[]>(t.app, me, url)).body).toHaveLength(1);
    const stranger = await coordinator(t.app, other);
    expect((await getJson(t.app, stranger, url)).status).toBe(403);
    expect((await call(t.app, stranger, 'POST', url, { email: 'intruder@example.org' })).status).toBe(403);
    const id = (await getJson<Email[]>(t.app, me, url)).body[0]!.id;
    expect((await call(t.app, stranger, 'DELETE', `${url}/${id}`)).status).toBe(403);
    // Addressed through another congregation, an address is not found.
    expect((await call(t.app, await admin(t.app), 'DELETE', `/api/congregations/${other}/emails/${id}`)).status).toBe(404);
    expect((await getJson(t.app, await admin(t.app), `/api/congregations/${MISSING}/emails`)).status).toBe(404);
  });
});

// Uploads: the list (sorts, congregation filter, paging, coordinator scoping, an admin's service
// center files beside graded uploads), a service center file's report, and who may withdraw.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { admin, call, coordinator, daysAgo, getJson, insertAnswerSheet, insertCongregation, insertFile, insertStudent, useRouteTests } from './support';

const t = useRouteTests();

interface Listed<T> {
  items: T[];
  total: number;
  skip: number;
  limit: number;
}
type Upload = { id: string; name: string; created_at: string; kind: string; process_status: string; is_intro: boolean };

async function insertUpload(congregationId: string, name: string, createdAt: Date, isIntro = false) {
  const sha = randomBytes(32).toString('hex');
  const row = await t.db.one<{ id: string }>(
    `INSERT INTO graded_uploads (name, congregation_id, is_intro, blob_key, sha256, created_at)
     VALUES ($1, $2, $3, $4, $4, $5) RETURNING id`,
    [name, congregationId, isIntro, sha, createdAt],
  );
  return row.id;
}

async function setUp() {
  const a = await insertCongregation(t.db, 'US 1111');
  const b = await insertCongregation(t.db, 'US 2222');
  const first = await insertUpload(a, 'bravo.pdf', daysAgo(3), true);
  await insertUpload(a, 'Alpha.pdf', daysAgo(1));
  await insertUpload(b, 'charlie.pdf', daysAgo(2));
  return { a, b, first };
}

async function names(query: string, who?: Awaited<ReturnType<typeof admin>>) {
  const { status, body } = await getJson<Listed<Upload>>(t.app, who ?? (await admin(t.app)), `/api/uploads/?${query}`);
  expect(status).toBe(200);
  return { total: body.total, skip: body.skip, limit: body.limit, names: body.items.map((upload) => upload.name) };
}

describe('GET /api/uploads/', () => {
  it('lists newest first by default, with the item fields', async () => {
    const { a, first } = await setUp();
    expect(await names('')).toEqual({ total: 3, skip: 0, limit: 10, names: ['Alpha.pdf', 'charlie.pdf', 'bravo.pdf'] });
    const { body } = await getJson<Listed<Upload>>(t.app, await admin(t.app), `/api/uploads?group_id=${a}`);
    // Still pending, nothing read yet: the counts are all zero.
    expect(body.items[1]).toEqual({
      id: first,
      name: 'bravo.pdf',
      created_at: daysAgo(3).toISOString(),
      kind: 'graded',
      process_status: 'pending',
      is_intro: true,
      summary: { pages_read: 0, matched: 0, not_matched: 0, blank_dropped: 0 },
    });
  });

  it('sorts by name or created_at in either direction', async () => {
    await setUp();
    expect((await names('order_by=name')).names).toEqual(['Alpha.pdf', 'bravo.pdf', 'charlie.pdf']);
    expect((await names('order_by=name&order_direction=desc')).names).toEqual(['charlie.pdf', 'bravo.pdf', 'Alpha.pdf']);
    expect((await names('order_by=created_at&order_direction=asc')).names).toEqual(['bravo.pdf', 'charlie.pdf', 'Alpha.pdf']);
    expect((await getJson(t.app, await admin(t.app), '/api/uploads/?order_by=size')).status).toBe(400);
  });

  it('filters by congregation and pages', async () => {
    const { a } = await setUp();
    expect(await names(`group_id=${a}`)).toEqual({ total: 2, skip: 0, limit: 10, names: ['Alpha.pdf', 'bravo.pdf'] });
    expect(await names('skip=1&limit=1')).toEqual({ total: 3, skip: 1, limit: 1, names: ['charlie.pdf'] });
    expect(await names(`group_id=${a}&order_by=name&skip=1`)).toEqual({ total: 2, skip: 1, limit: 10, names: ['bravo.pdf'] });
  });

  it("shows a coordinator only its congregation's uploads and refuses another congregation", async () => {
    const { a, b } = await setUp();
    const me = await coordinator(t.app, a);
    expect(await names('', me)).toEqual({ total: 2, skip: 0, limit: 10, names: ['Alpha.pdf', 'bravo.pdf'] });
    expect(await names(`group_id=${a}`, me)).toMatchObject({ total: 2 });
    expect(await getJson(t.app, me, `/api/uploads/?group_id=${b}`)).toEqual({ status: 403, body: { detail: 'Forbidden' } });
  });
});

/** A service center's file of five pages: matched, flagged, of no sheet, ignored, a blank back. */
async function insertScannedFile() {
  const id = await insertFile(t.db, 'Accra scan.pdf');
  await t.db.query('UPDATE files SET created_at = $2 WHERE id = $1', [id, daysAgo(2.5)]);
  const student = await insertStudent(t.db);
  const sheet = await insertAnswerSheet(t.db, id, { studentId: student.id });
  const page = async (n: number, sheetId: string | null, set = 'ignored = false') => {
    await t.db.query('INSERT INTO pages (file_id, page_number, answer_sheet_id) VALUES ($1, $2, $3)', [id, n, sheetId]);
    await t.db.query(`UPDATE pages SET ${set} WHERE file_id = $1 AND page_number = $2`, [id, n]);
  };
  await page(1, sheet);
  await page(2, sheet, `flag = 'unreadable', code_prefix = 's', code_id = 'AB12CD34'`);
  await page(3, null);
  await page(4, sheet, 'ignored = true');
  await page(5, sheet, 'ignored = true, blank = true');
  // The batch's cover sheet comes first in a real scan; here it is the sixth page.
  await page(6, null, `code_prefix = 'c', code_id = 'KG4TST3E'`);
  await t.db.query('UPDATE files SET cover_page_id = (SELECT id FROM pages WHERE file_id = $1 AND page_number = 6) WHERE id = $1', [id]);
  return { id, student };
}

describe('service center files as uploads', () => {
  it("lists them for an admin beside the graded uploads, never for a coordinator or a congregation's list", async () => {
    const { a } = await setUp();
    const { id } = await insertScannedFile();
    expect((await names('')).names).toEqual(['Alpha.pdf', 'charlie.pdf', 'Accra scan.pdf', 'bravo.pdf']);
    expect((await names('order_by=name&skip=1&limit=2'))).toEqual({ total: 4, skip: 1, limit: 2, names: ['Alpha.pdf', 'bravo.pdf'] });
    const { body } = await getJson<Listed<Upload & { summary: unknown }>>(t.app, await admin(t.app), '/api/uploads/');
    expect(body.items.find((item) => item.id === id)).toMatchObject({
      kind: 'service_center',
      is_intro: false,
      summary: { pages_read: 6, matched: 2, not_matched: 3, blank_dropped: 1 },
    });
    expect((await names(`group_id=${a}`)).names).toEqual(['Alpha.pdf', 'bravo.pdf']);
    expect((await names('', await coordinator(t.app, a))).names).toEqual(['Alpha.pdf', 'bravo.pdf']);
  });

  it('reports each page of a service center file to an admin, and is no upload to a coordinator', async () => {
    const { a } = await setUp();
    const { id, student } = await insertScannedFile();
    const { status, body } = await getJson<{ kind: string; summary: unknown; pages: Record<string, unknown>[] }>(t.app, await admin(t.app), `/api/uploads/${id}`);
    expect(status).toBe(200);
    expect(body.kind).toBe('service_center');
    expect(body.pages.map((page) => [page.page_number, page.result, page.reason])).toEqual([
      [1, 'matched', null],
      [2, 'not_matched', 'in_review'],
      [3, 'not_matched', 'in_review'],
      [4, 'not_matched', 'ignored'],
      [5, 'blank_dropped', null],
      [6, 'matched', null],
    ]);
    expect(body.pages[5]).toMatchObject({ code: 'C-KG4TST3E', detail: "The batch's cover sheet: it names the service center.", answer_sheet: null });
    expect(body.pages[0]).toMatchObject({ kept: true, file: { id, name: 'Accra scan.pdf' }, answer_sheet: { student_human_id: student.human_id } });
    expect(body.pages[1]).toMatchObject({ code: 'S-AB12CD34', detail: 'Flagged: code unreadable. Mend it on its response in Review.', file: null });
    expect(body.pages[2]!.detail).toBe('Not on any answer sheet yet. Place it on a response in Review.');
    expect((await getJson(t.app, await coordinator(t.app, a), `/api/uploads/${id}`)).status).toBe(404);
    expect((await getJson(t.app, await admin(t.app), `/api/uploads/${id}/pages/1/image`)).status).toBe(404);
  });
});

describe('DELETE /api/uploads/{id}', () => {
  it("lets a coordinator withdraw its own congregation's upload, not another's", async () => {
    const { a, b } = await setUp();
    await t.db.query(`UPDATE graded_uploads SET process_status = 'success'`);
    const ours = (await t.db.one<{ id: string }>(`SELECT id FROM graded_uploads WHERE name = 'Alpha.pdf'`)).id;
    const theirs = (await t.db.one<{ id: string }>(`SELECT id FROM graded_uploads WHERE name = 'charlie.pdf'`)).id;
    const me = await coordinator(t.app, a);
    expect((await call(t.app, me, 'DELETE', `/api/uploads/${theirs}`)).status).toBe(403);
    expect((await call(t.app, me, 'DELETE', `/api/uploads/${ours}`)).status).toBe(204);
    expect((await names('')).names).toEqual(['charlie.pdf', 'bravo.pdf']);
    expect((await call(t.app, await coordinator(t.app, b), 'DELETE', `/api/uploads/${theirs}`)).status).toBe(204);
  });
});

// Graded-packet uploads list: sorts, congregation filter, paging and coordinator scoping.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { admin, coordinator, daysAgo, getJson, insertCongregation, useRouteTests } from './support';

const t = useRouteTests();

interface Listed<T> {
  items: T[];
  total: number;
  skip: number;
  limit: number;
}
type Upload = { id: string; name: string; created_at: string; process_status: string; is_intro: boolean };

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

// Random Review mends on random files (intro files and files split by codes, responses of one to
// three pages with duplex backs, flagged and ignored pages, a cover page): after every mend, no
// page is lost (each page on a response stays on exactly one, a cover or set-aside page stays off
// them unless moved onto one), no response is empty, responses keep their order, a moved page's
// blank back went with it, duplicates point at the first response of their student and lesson,
// every kept intro response has a student, and no student the file made is left without a reason
// to exist (a kept page, a code printed for them, a baptism request). A mend that is refused is
// a 400 in words and changes nothing. Runs on PGlite (and PostgreSQL with DATABASE_URL);
// MEND_RUNS and MEND_SEED change how many files and which.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database';
import { HttpError } from '../../server/http-error';
import { newCodeId } from '../../server/domain/codes';
import { joinPrevious, movePage, setIgnored, setTemplate, startSheetAt, typeCode } from '../../server/workflow/review-mends';
import { createTestDb } from '../helpers/test-db';
import { insertCongregation, insertCourse, insertFile } from './support';

const RUNS = Number(process.env.MEND_RUNS ?? 40);
const SEED = Number(process.env.MEND_SEED ?? 20_261_127);
const BY = { email: 'admin@test.local' };

let db: Database;
beforeAll(async () => {
  db = await createTestDb();
  programme = await makeProgramme();
});
afterAll(async () => {
  await db?.close();
});

const pageArb = fc.record({
  code: fc.constantFrom('student', 'template', 'none'),
  back: fc.boolean(),
  flag: fc.option(fc.constantFrom('no_code_found', 'out_of_order', 'stray_page'), { freq: 3 }),
  ignored: fc.nat(4).map((n) => n === 0),
});
const sheetArb = fc.record({ student: fc.nat(3), lesson: fc.nat(1), pages: fc.array(pageArb, { minLength: 1, maxLength: 3 }) });
const worldArb = fc.record({
  intro: fc.boolean(),
  cover: fc.boolean(),
  baptism: fc.boolean(),
  sheets: fc.array(sheetArb, { minLength: 1, maxLength: 5 }),
});
const opArb = fc.record({
  kind: fc.constantFrom('move', 'new_sheet', 'join', 'code', 'ignore', 'unignore', 'template'),
  page: fc.nat(40),
  sheet: fc.nat(10),
  code: fc.constantFrom('student', 'template', 'bad'),
  student: fc.nat(7),
  template: fc.nat(3),
});
type ValueOf<A> = A extends fc.Arbitrary<infer T> ? T : never;
type World = ValueOf<typeof worldArb>;
type Op = ValueOf<typeof opArb>;

interface Programme {
  lessonIds: string[];
  templates: string[];
  templateCodes: string[];
  congregation: string;
}
let programme: Programme;

/** One course (two lessons of two pages, each page with a T code) and a congregation for every file. */
async function makeProgramme(): Promise<Programme> {
  const { lessonIds } = await insertCourse(db, 'Good News', ['One', 'Two'], 2);
  const templates = (
    await db.query<{ id: string }>(
      'SELECT pt.id FROM page_templates pt JOIN lessons l ON l.id = pt.lesson_id WHERE pt.lesson_id = ANY($1::uuid[]) ORDER BY l.number, pt.page_number',
      [lessonIds],
    )
  ).map((row) => row.id);
  const templateCodes = templates.map(() => newCodeId());
  await db.query(`INSERT INTO printed_codes (code_id, prefix, target_id) SELECT unnest($1::text[]), 't', unnest($2::uuid[])`, [templateCodes, templates]);
  return { lessonIds, templates, templateCodes, congregation: await insertCongregation(db, 'GH 0001') };
}

interface Made {
  fileId: string;
  /** Per student (the programme's four): the S code of each template. */
  studentCodes: string[][];
}

/**
 * Writes a world as the pipeline would leave it; the programme's students predate the file. Each
 * run adds its file and students to the one database (emptying it costs more than a run).
 */
async function makeWorld(world: World): Promise<Made> {
  const { lessonIds, templates, templateCodes, congregation } = programme;
  const studentIds = (
    await db.query<{ id: string }>(
      `INSERT INTO students (congregation_id, created_at) SELECT unnest($1::uuid[]), now() - interval '30 days' RETURNING id`,
      [[congregation, null, congregation, null]],
    )
  ).map((row) => row.id);
  const studentCodes = studentIds.map(() => templates.map(() => newCodeId()));
  await db.query(
    `INSERT INTO printed_codes (code_id, prefix, target_id, student_id) SELECT unnest($1::text[]), 's', unnest($2::uuid[]), unnest($3::uuid[])`,
    [studentCodes.flat(), studentIds.flatMap(() => templates), studentIds.flatMap((id) => templates.map(() => id))],
  );
  const fileId = await insertFile(db, 'Random batch');
  await db.query('UPDATE files SET answer_sheet_page_length = $2 WHERE id = $1', [fileId, world.intro ? 2 : 0]);
  const rows: { sheet: string | null; template: string | null; prefix: string | null; code: string | null; blank: boolean; ignored: boolean; flag: string | null }[] = [];
  if (world.cover) rows.push({ sheet: null, template: null, prefix: null, code: null, blank: false, ignored: false, flag: null });
  // An intro sheet makes its student (after the file); a code file's sheet is a programme student's.
  const introStudents = world.intro
    ? (await db.query<{ id: string }>('INSERT INTO students (created_at) SELECT now() FROM generate_series(1, $1::int) RETURNING id', [world.sheets.length])).map((row) => row.id)
    : [];
  if (world.intro && world.baptism) await db.query('INSERT INTO baptism_requests (student_id) VALUES ($1)', [introStudents[0]]);
  const firstOf = new Map<string, string>();
  const sheets = world.sheets.map((sheet, sequence) => {
    const id = randomUUID();
    const student = world.intro ? introStudents[sequence]! : studentIds[sheet.student]!;
    // A second sheet of a student and lesson is a duplicate of the first, as the pipeline writes it.
    const pair = `${student}/${sheet.lesson}`;
    const duplicateOf = firstOf.get(pair) ?? null;
    if (duplicateOf === null) firstOf.set(pair, id);
    for (const [at, page] of sheet.pages.entries()) {
      const templateIndex = sheet.lesson * 2 + Math.min(at, 1);
      const code =
        page.code === 'none' ? null : page.code === 'student' && !world.intro ? { prefix: 's', id: studentCodes[sheet.student]![templateIndex]! } : { prefix: 't', id: templateCodes[templateIndex]! };
      // A sheet's first page is kept: the pipeline makes no sheet of ignored pages alone.
      rows.push({ sheet: id, template: code === null ? null : templates[templateIndex]!, prefix: code?.prefix ?? null, code: code?.id ?? null, blank: false, ignored: page.ignored && at > 0, flag: page.flag });
      if (page.back) rows.push({ sheet: id, template: null, prefix: null, code: null, blank: true, ignored: true, flag: null });
    }
    const group = world.intro || sheet.student % 2 === 1 ? null : congregation;
    return { id, student, lesson: lessonIds[sheet.lesson]!, group, duplicateOf };
  });
  // Sheets made one after another, as the pipeline's one transaction would order them.
  await db.query(
    `INSERT INTO answer_sheets (id, file_id, sequence, student_id, lesson_id, assigned_group, duplicate_of, created_at)
     SELECT s.id, $1, s.n - 1, s.student_id, s.lesson_id, s.assigned_group, s.duplicate_of, now() + s.n * interval '1 millisecond'
     FROM unnest($2::uuid[], $3::uuid[], $4::uuid[], $5::uuid[], $6::uuid[]) WITH ORDINALITY AS s (id, student_id, lesson_id, assigned_group, duplicate_of, n)`,
    [fileId, sheets.map((x) => x.id), sheets.map((x) => x.student), sheets.map((x) => x.lesson), sheets.map((x) => x.group), sheets.map((x) => x.duplicateOf)],
  );
  await db.query(
    `INSERT INTO pages (file_id, page_number, answer_sheet_id, template_id, code_prefix, code_id, blank, ignored, flag)
     SELECT $1, p.n, p.sheet, p.template, p.prefix, p.code, p.blank, p.ignored, p.flag
     FROM unnest($2::uuid[], $3::uuid[], $4::text[], $5::text[], $6::boolean[], $7::boolean[], $8::text[]) WITH ORDINALITY AS p (sheet, template, prefix, code, blank, ignored, flag, n)`,
    [fileId, rows.map((r) => r.sheet), rows.map((r) => r.template), rows.map((r) => r.prefix), rows.map((r) => r.code), rows.map((r) => r.blank), rows.map((r) => r.ignored), rows.map((r) => r.flag)],
  );
  return { fileId, studentCodes };
}

interface PageRow {
  id: string;
  page_number: number;
  answer_sheet_id: string | null;
  ignored: boolean;
  blank: boolean;
  flag: string | null;
}
interface SheetRow {
  id: string;
  sequence: number;
  student_id: string | null;
  lesson_id: string | null;
  duplicate_of: string | null;
  made: string;
}
interface Snapshot {
  pages: PageRow[];
  sheets: SheetRow[];
}

async function snapshot(fileId: string): Promise<Snapshot> {
  return {
    pages: await db.query<PageRow>('SELECT id, page_number, answer_sheet_id, ignored, blank, flag FROM pages WHERE file_id = $1 ORDER BY page_number', [fileId]),
    sheets: await db.query<SheetRow>(
      `SELECT id, sequence, student_id, lesson_id, duplicate_of, to_char(created_at AT TIME ZONE 'UTC', 'YYYYMMDDHH24MISSUS') AS made
       FROM answer_sheets WHERE file_id = $1 ORDER BY sequence`,
      [fileId],
    ),
  };
}

/** Students the file made (created after it) with nothing that keeps them. */
const studentsWithoutReason = (fileId: string) =>
  db.query<{ id: string }>(
    `SELECT s.id FROM students s, files f
     WHERE f.id = $1 AND s.created_at >= f.created_at
       AND NOT EXISTS (SELECT 1 FROM answer_sheets a JOIN pages p ON p.answer_sheet_id = a.id WHERE a.student_id = s.id AND NOT p.ignored)
       AND NOT EXISTS (SELECT 1 FROM printed_codes pc WHERE pc.student_id = s.id)
       AND NOT EXISTS (SELECT 1 FROM baptism_requests b WHERE b.student_id = s.id)`,
    [fileId],
  );

/** The mend an op names, on the file as it is now; returns the page it mended (when one). */
async function apply(op: Op, made: Made, before: Snapshot): Promise<{ page: PageRow | null }> {
  const page = before.pages[op.page % before.pages.length]!;
  const sheet = before.sheets[op.sheet % before.sheets.length]!;
  switch (op.kind) {
    case 'move':
      await movePage(db, page.id, sheet.id, BY);
      return { page };
    case 'new_sheet':
      await startSheetAt(db, page.id, BY);
      return { page };
    case 'join':
      await joinPrevious(db, sheet.id, BY);
      return { page: null };
    case 'code': {
      const codes = made.studentCodes;
      const text =
        op.code === 'student'
          ? `S-${codes[op.student % codes.length]![op.template]}`
          : op.code === 'template'
            ? `T-${programme.templateCodes[op.template]}`
            : 'S-ZZZZ2345';
      await typeCode(db, page.id, text, BY);
      return { page };
    }
    case 'ignore':
    case 'unignore':
      await setIgnored(db, page.id, op.kind === 'ignore', BY);
      return { page: null };
    case 'template':
      await setTemplate(db, page.id, programme.templates[op.template]!, BY);
      return { page: null };
  }
}

/** The duplex back a page had: the ignored blank page right after it on the same sheet. */
function blankBack(snap: Snapshot, page: PageRow): PageRow | null {
  if (page.answer_sheet_id === null || page.blank) return null;
  const next = snap.pages.find((other) => other.page_number === page.page_number + 1);
  return next && next.answer_sheet_id === page.answer_sheet_id && next.blank && next.ignored ? next : null;
}

async function checkAfter(op: Op, intro: boolean, fileId: string, before: Snapshot, after: Snapshot, mended: PageRow | null) {
  const where = JSON.stringify(op);
  // No page lost: the same pages; one on a sheet stays on one; one off the sheets stays off unless moved.
  expect(after.pages.map((page) => page.id), where).toEqual(before.pages.map((page) => page.id));
  for (const [index, page] of after.pages.entries()) {
    const was = before.pages[index]!;
    if (was.answer_sheet_id !== null) expect(page.answer_sheet_id, where).not.toBeNull();
    else if (!(op.kind === 'move' && mended?.id === page.id)) expect(page.answer_sheet_id, where).toBeNull();
  }
  // No empty sheet, and the sheets that stay keep their order.
  for (const sheet of after.sheets) expect(after.pages.some((page) => page.answer_sheet_id === sheet.id), where).toBe(true);
  const stayed = before.sheets.filter((sheet) => after.sheets.some((other) => other.id === sheet.id)).map((sheet) => sheet.id);
  expect(after.sheets.filter((sheet) => stayed.includes(sheet.id)).map((sheet) => sheet.id), where).toEqual(stayed);
  expect(after.sheets.every((sheet) => sheet.sequence >= 0), where).toBe(true);
  // A moved page's blank back went with it; a mended page's flag is cleared.
  if (mended !== null && (op.kind === 'move' || op.kind === 'code')) {
    const now = after.pages.find((page) => page.id === mended.id)!;
    const back = blankBack(before, mended);
    if (back !== null) expect(after.pages.find((page) => page.id === back.id)!.answer_sheet_id, where).toBe(now.answer_sheet_id);
    expect(now.flag, where).toBeNull();
  }
  // In an intro file every sheet with a kept page is a student's.
  if (intro) {
    for (const sheet of after.sheets) {
      if (after.pages.some((page) => page.answer_sheet_id === sheet.id && !page.ignored)) expect(sheet.student_id, where).not.toBeNull();
    }
  }
  expect(await studentsWithoutReason(fileId), where).toEqual([]);
  // Each sheet of a student and lesson points at the first of them (by time, then place in the file).
  const order = (sheet: SheetRow) => `${sheet.made}/${String(sheet.sequence).padStart(6, '0')}`;
  for (const sheet of after.sheets) {
    const same = after.sheets
      .filter((other) => sheet.student_id !== null && sheet.lesson_id !== null && other.student_id === sheet.student_id && other.lesson_id === sheet.lesson_id)
      .sort((a, b) => order(a).localeCompare(order(b)));
    const first = same[0];
    expect(sheet.duplicate_of, where).toBe(first === undefined || first.id === sheet.id ? null : first.id);
  }
}

describe('Review mends, at random', () => {
  it('leave no page lost, no empty response and no student without a reason, whatever the file and the mends', async () => {
    await fc.assert(
      fc.asyncProperty(worldArb, fc.array(opArb, { minLength: 1, maxLength: 8 }), async (world, ops) => {
        const made = await makeWorld(world);
        for (const op of ops) {
          const before = await snapshot(made.fileId);
          if (before.sheets.length === 0) break;
          let mended: PageRow | null = null;
          try {
            ({ page: mended } = await apply(op, made, before));
          } catch (error) {
            // A refusal is a 400 in words, and nothing changed.
            if (!(error instanceof HttpError)) throw error;
            expect(error.statusCode, JSON.stringify({ op, detail: error.detail })).toBe(400);
            expect(error.detail).toMatchObject({ error_type: 'VALIDATION_ERROR', message: expect.stringMatching(/\w+ \w+ \w+/) });
            expect(await snapshot(made.fileId)).toEqual(before);
            continue;
          }
          await checkAfter(op, world.intro, made.fileId, before, await snapshot(made.fileId), mended);
        }
      }),
      { numRuns: RUNS, seed: SEED },
    );
  });
});

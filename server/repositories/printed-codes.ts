// Printed codes: what a scanned `s`, `p` or `c` code leads to, and a service center's one `c`
// code for its cover sheets.
import type { Database } from '../db/database';
import { issuePrintedCode } from '../db/printed-codes';

/** The student a personalised sheet page's `s` code names, when the student still exists. */
export async function studentOfSheetCode(db: Database, codeId: string): Promise<string | null> {
  const row = await db.maybeOne<{ student_id: string | null }>(
    `SELECT pc.student_id FROM printed_codes pc JOIN students s ON s.id = pc.student_id WHERE pc.prefix = 's' AND pc.code_id = $1`,
    [codeId],
  );
  return row?.student_id ?? null;
}

/** The received page a `p` code names, when the page still exists. */
export async function pageOfPageCode(db: Database, codeId: string): Promise<string | null> {
  const row = await db.maybeOne<{ page_id: string }>(
    `SELECT p.id AS page_id FROM printed_codes pc JOIN pages p ON p.id = pc.target_id WHERE pc.prefix = 'p' AND pc.code_id = $1`,
    [codeId],
  );
  return row?.page_id ?? null;
}

/** The service center a cover sheet's `c` code names, when the center still exists. */
export async function serviceCenterOfCoverCode(db: Database, codeId: string): Promise<string | null> {
  const row = await db.maybeOne<{ id: string }>(
    `SELECT sc.id FROM printed_codes pc JOIN service_centers sc ON sc.id = pc.target_id WHERE pc.prefix = 'c' AND pc.code_id = $1`,
    [codeId],
  );
  return row?.id ?? null;
}

/** The center's `c` code, issued on its first cover sheet: every cover sheet it prints is the same. */
export async function coverSheetCodeOfServiceCenter(tx: Database, serviceCenterId: string): Promise<string> {
  await tx.query(`SELECT pg_advisory_xact_lock(hashtext('cover-code:' || $1))`, [serviceCenterId]);
  const existing = await tx.maybeOne<{ code_id: string }>(
    `SELECT code_id FROM printed_codes WHERE prefix = 'c' AND target_id = $1 ORDER BY created_at LIMIT 1`,
    [serviceCenterId],
  );
  return existing?.code_id ?? (await issuePrintedCode(tx, { prefix: 'c', targetId: serviceCenterId }));
}

export interface PacketPageCandidateRow {
  page_id: string;
  code_id: string;
  human_id: number;
  lesson_number: number;
  sheet_page: number;
  sheet_pages: number;
}

/**
 * Packet pages of the congregation's files being graded that have no feedback yet, for these
 * students, numbered within their sheet as the packet prints them; pages whose code is among
 * `codesRead` are taken already.
 */
export async function packetPagesAwaitingGrading(db: Database, congregationId: string, humanIds: number[], codesRead: string[]): Promise<PacketPageCandidateRow[]> {
  return db.query<PacketPageCandidateRow>(
    `WITH sheet_pages AS (
       SELECT p.id AS page_id, st.human_id, l.number AS lesson_number,
              row_number() OVER (PARTITION BY a.id ORDER BY p.page_number)::int AS sheet_page,
              count(*) OVER (PARTITION BY a.id)::int AS sheet_pages
       FROM answer_sheets a
       JOIN pages p ON p.answer_sheet_id = a.id AND NOT p.ignored
       JOIN files f ON f.id = a.file_id
       JOIN students st ON st.id = a.student_id
       JOIN lessons l ON l.id = a.lesson_id
       WHERE a.assigned_group = $1 AND st.human_id = ANY($2::bigint[])
         AND f.sent_at IS NOT NULL AND f.file_status IS DISTINCT FROM 'archived' AND f.file_status IS DISTINCT FROM 'downloaded')
     SELECT sp.page_id, pc.code_id, sp.human_id, sp.lesson_number, sp.sheet_page, sp.sheet_pages
     FROM sheet_pages sp JOIN printed_codes pc ON pc.prefix = 'p' AND pc.target_id = sp.page_id
     WHERE NOT EXISTS (SELECT 1 FROM feedback fb WHERE fb.page_id = sp.page_id)
       AND NOT EXISTS (SELECT 1 FROM printed_codes r WHERE r.prefix = 'p' AND r.target_id = sp.page_id AND r.code_id = ANY($3::text[]))
     ORDER BY pc.code_id`,
    [congregationId, humanIds, codesRead],
  );
}

export interface IssuedSheetPageRow {
  code_id: string;
  student_id: string;
  template_id: string;
  human_id: number;
  lesson_number: number;
  page_number: number;
  page_count: number;
}

/** Sheet pages issued to these students (`s` codes of next-lesson sheets). */
export async function sheetPagesIssuedTo(db: Database, humanIds: number[]): Promise<IssuedSheetPageRow[]> {
  return db.query<IssuedSheetPageRow>(
    `SELECT pc.code_id, pc.student_id, pt.id AS template_id, st.human_id, l.number AS lesson_number, pt.page_number,
            (SELECT count(*) FROM page_templates x WHERE x.lesson_id = pt.lesson_id)::int AS page_count
     FROM printed_codes pc
     JOIN page_templates pt ON pt.id = pc.target_id
     JOIN lessons l ON l.id = pt.lesson_id
     JOIN students st ON st.id = pc.student_id
     WHERE pc.prefix = 's' AND st.human_id = ANY($1::bigint[]) AND l.number IS NOT NULL
     ORDER BY pc.code_id`,
    [humanIds],
  );
}

/** The template page a `t` or `s` code names (with the student an `s` code was issued to). */
export interface SheetPageCodeRow {
  code_id: string;
  prefix: 't' | 's';
  template_id: string;
  lesson_id: string;
  page_number: number;
  student_id: string | null;
  course_id: string;
}

/** What these `t` codes name: templates carry their t code themselves; printed_codes may also record it. */
export async function templateCodeMeanings(db: Database, codeIds: string[]): Promise<SheetPageCodeRow[]> {
  return db.query<SheetPageCodeRow>(
    `SELECT pt.code_id, 't' AS prefix, pt.id AS template_id, pt.lesson_id, pt.page_number, NULL::uuid AS student_id, l.course_id
     FROM page_templates pt JOIN lessons l ON l.id = pt.lesson_id WHERE pt.code_id = ANY($1::text[])
     UNION
     SELECT pc.code_id, 't', pt.id, pt.lesson_id, pt.page_number, NULL::uuid, l.course_id
     FROM printed_codes pc JOIN page_templates pt ON pt.id = pc.target_id JOIN lessons l ON l.id = pt.lesson_id
     WHERE pc.prefix = 't' AND pc.code_id = ANY($1::text[])`,
    [codeIds],
  );
}

/** What these `s` codes name: a template page issued to one student. */
export async function issuedCodeMeanings(db: Database, codeIds: string[]): Promise<SheetPageCodeRow[]> {
  return db.query<SheetPageCodeRow>(
    `SELECT pc.code_id, 's' AS prefix, pt.id AS template_id, pt.lesson_id, pt.page_number, pc.student_id, l.course_id
     FROM printed_codes pc JOIN page_templates pt ON pt.id = pc.target_id JOIN lessons l ON l.id = pt.lesson_id
     WHERE pc.prefix = 's' AND pc.code_id = ANY($1::text[])`,
    [codeIds],
  );
}

/** The service centers these `c` (cover) codes name. */
export async function coverCodeMeanings(db: Database, codeIds: string[]): Promise<{ code_id: string; service_center_id: string }[]> {
  return db.query<{ code_id: string; service_center_id: string }>(
    `SELECT pc.code_id, sc.id AS service_center_id
     FROM printed_codes pc JOIN service_centers sc ON sc.id = pc.target_id
     WHERE pc.prefix = 'c' AND pc.code_id = ANY($1::text[])`,
    [codeIds],
  );
}

export interface PrintedCodeRow {
  target_id: string;
  student_id: string | null;
  code_id: string;
}

/**
 * The first code issued to each of these targets: with `withoutStudent`, the ones for no student
 * (pages), else those for one of `studentIds`.
 */
export async function printedCodesOfTargets(
  db: Database,
  prefix: 'p' | 's',
  targetIds: readonly string[],
  withoutStudent: boolean,
  studentIds: readonly string[],
): Promise<PrintedCodeRow[]> {
  return db.query<PrintedCodeRow>(
    `SELECT DISTINCT ON (target_id, student_id) target_id, student_id, code_id FROM printed_codes
     WHERE prefix = $1 AND target_id = ANY($2::uuid[])
       AND ($3::boolean AND student_id IS NULL OR student_id = ANY($4::uuid[]))
     ORDER BY target_id, student_id, created_at, code_id`,
    [prefix, targetIds, withoutStudent, studentIds],
  );
}

/** Inserts these new codes; a code id already taken is skipped (not returned). */
export async function insertPrintedCodesIfFree(db: Database, prefix: 'p' | 's', codes: readonly PrintedCodeRow[]): Promise<PrintedCodeRow[]> {
  return db.query<PrintedCodeRow>(
    `INSERT INTO printed_codes (code_id, prefix, target_id, student_id)
     SELECT v.code_id, $1, v.target_id, v.student_id FROM unnest($2::text[], $3::uuid[], $4::uuid[]) AS v(code_id, target_id, student_id)
     ON CONFLICT (code_id) DO NOTHING
     RETURNING target_id, student_id, code_id`,
    [prefix, codes.map((code) => code.code_id), codes.map((code) => code.target_id), codes.map((code) => code.student_id)],
  );
}

/** The page a packet page's `p` code names, with what grading needs to know of it. */
export interface PacketPageTarget {
  code_id: string;
  page_id: string;
  /** The congregation the page's answer sheet is assigned to. */
  congregation_id: string | null;
  /** The page's file was sent (and not archived), the page kept and on a sheet. */
  open_for_grading: boolean;
  archived: boolean;
}

export async function packetPageTargets(db: Database, codeIds: readonly string[]): Promise<PacketPageTarget[]> {
  return db.query<PacketPageTarget>(
    `SELECT pc.code_id, p.id AS page_id, a.assigned_group AS congregation_id,
            (f.sent_at IS NOT NULL AND f.file_status IS DISTINCT FROM 'archived' AND NOT p.ignored AND a.id IS NOT NULL) AS open_for_grading,
            f.file_status IS NOT DISTINCT FROM 'archived' AS archived
     FROM printed_codes pc JOIN pages p ON p.id = pc.target_id JOIN files f ON f.id = p.file_id
     LEFT JOIN answer_sheets a ON a.id = p.answer_sheet_id
     WHERE pc.prefix = 'p' AND pc.code_id = ANY($1::text[])`,
    [codeIds],
  );
}

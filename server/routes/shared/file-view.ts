// A file as the contract shows it (File), its counts (FileStats), and who may see it: an admin
// sees every file; a coordinator only files sent to its congregation, with that congregation's
// own state of the file, its own sheet count, and no other congregation named.
import type { FastifyRequest } from 'fastify';
import { congregationScope } from '../../auth/session';
import type { Schemas } from '../../contract/types';
import type { Database } from '../../db/database';
import { lookupSql } from '../../db/lookup-sql';
import { FILE_NOT_FOUND, forbidden, notFound } from '../../http-error';
import type { PageFlag } from '../../domain/split';
import { flaggedPageSql, keptSheetSql, mismatchedPageSql, undecidedDuplicateSql, unrecognizedPageSql } from '../../workflow/file-steps';


/**
 * Select list over `files f`, as seen by a congregation (`viewerParam` names the parameter that
 * holds its id: a coordinator, or an admin looking at one congregation) or by an admin looking
 * at whole files (null). Callers append WHERE (by id: lists choose their page's ids first, see
 * rowsOfPage).
 *
 * Two statements rather than one with `$viewer IS NULL` tests in it: with those, PostgreSQL
 * found every call's own plan cheaper than a reusable one (it leaves out the branch the
 * parameter rules out), so it planned the statement anew on every call, 0.4-0.5 ms of the ~1.6
 * ms a page of files cost it. Each of the two keeps its generic plan (planning ~0.03 ms).
 */
export function fileSelect(viewerParam: string | null): string {
  // Names by lookupSql, not joins (see there why).
  const name = (table: string, column: string, value: string) => lookupSql(table, column, value);
  return `
  SELECT f.id, f.name, f.process_status, f.failure_reason, f.file_status, f.grading_complete, f.printed,
         ${viewerParam === null ? 'f.page_count' : congregationPages(viewerParam)} AS page_count, f.answer_sheet_page_length, f.scanned_at, f.uploaded_at, f.created_at, f.sent_at,
         f.service_center_id, ${name('service_centers', 'name', 'f.service_center_id')} AS service_center_name,
         ${name('service_centers', 'country_iso', 'f.service_center_id')} AS service_center_country,
         (SELECT co.display_name FROM countries co
          WHERE co.iso_code = ${name('service_centers', 'country_iso', 'f.service_center_id')}) AS service_center_country_name,
         f.recruiting_point_id, ${name('recruiting_points', 'name', 'f.recruiting_point_id')} AS recruiting_point_name,
         f.recruiter_id, ${name('recruiters', 'name', 'f.recruiter_id')} AS recruiter_name,
         f.contact_person_id, ${name('contact_persons', 'name', 'f.contact_person_id')} AS contact_person_name,
         ${viewerParam === null ? wholeFileKeptSheets : congregationKeptSheets(viewerParam)} AS responses_count,
         -- The congregations with sheets in the file: its rows of file_groups (kept by a trigger on
         -- answer_sheets), not every sheet of the file. A congregation's view names only itself.
         (SELECT coalesce(json_agg(json_build_object('id', g.id, 'wbs_code', g.wbs_code, 'display_name', g.display_name) ORDER BY g.wbs_code), '[]'::json)
          FROM file_groups fg JOIN congregations g ON g.id = fg.congregation_id
          WHERE fg.file_id = f.id${viewerParam === null ? '' : ` AND fg.congregation_id = ${viewerParam}::uuid`}) AS congregations,
         (SELECT coalesce(json_agg(json_build_object('id', c.id, 'name', c.name) ORDER BY c.name), '[]'::json)
          FROM courses c
          WHERE c.id IN (SELECT l.course_id FROM answer_sheets a JOIN lessons l ON l.id = a.lesson_id
                         WHERE a.file_id = f.id${viewerParam === null ? '' : ` AND a.assigned_group = ${viewerParam}::uuid`})) AS courses,
         ${
           viewerParam === null
             ? 'NULL::text'
             : `(SELECT fc.status FROM file_congregations fc WHERE fc.file_id = f.id AND fc.congregation_id = ${viewerParam}::uuid)`
         } AS congregation_file_status
  FROM files f`;
}

/** A congregation's pages of the file: those of its sheets (other congregations' are not its to count). */
function congregationPages(viewerParam: string): string {
  return `(SELECT count(*)::int FROM pages vp JOIN answer_sheets va ON va.id = vp.answer_sheet_id
           WHERE vp.file_id = f.id AND va.assigned_group = ${viewerParam}::uuid)`;
}

// Kept sheets (see keptSheetSql), counted from their kept pages: one index range per file
// instead of one lookup per sheet. DISTINCT in a subquery reads in the index's order, with no
// sort (count(DISTINCT) sorts).
const wholeFileKeptSheets = `(SELECT count(*) FROM (SELECT DISTINCT kp.answer_sheet_id FROM pages kp
   WHERE kp.file_id = f.id AND NOT kp.ignored AND kp.answer_sheet_id IS NOT NULL) kept)`;

/** A congregation's kept sheets of the file: its sheets (one index range) with a kept page. */
function congregationKeptSheets(viewerParam: string): string {
  return `(SELECT count(*) FROM answer_sheets a
   WHERE a.assigned_group = ${viewerParam}::uuid AND a.file_id = f.id
     AND EXISTS (SELECT 1 FROM pages kp WHERE kp.file_id = f.id AND kp.answer_sheet_id = a.id AND NOT kp.ignored))`;
}

export interface FileRow {
  id: string;
  name: string;
  process_status: Schemas['ProcessStatus'];
  failure_reason: string | null;
  file_status: Schemas['FileStatus'] | null;
  grading_complete: boolean;
  printed: boolean;
  page_count: number | null;
  answer_sheet_page_length: number;
  scanned_at: Date | null;
  uploaded_at: Date;
  created_at: Date;
  sent_at: Date | null;
  service_center_id: string | null;
  service_center_name: string | null;
  service_center_country: string | null;
  service_center_country_name: string | null;
  recruiting_point_id: string | null;
  recruiting_point_name: string | null;
  recruiter_id: string | null;
  recruiter_name: string | null;
  contact_person_id: string | null;
  contact_person_name: string | null;
  responses_count: number;
  congregations: Schemas['CongregationRef'][];
  courses: Schemas['NamedRef'][];
  congregation_file_status: Schemas['CongregationFileStatus'] | null;
}

const named = (id: string | null, name: string | null) => (id === null ? null : { id, name: name ?? '' });

export function fileOf(row: FileRow): Schemas['File'] {
  return {
    id: row.id,
    name: row.name,
    process_status: row.process_status,
    failure_reason: row.failure_reason,
    file_status: row.file_status,
    grading_complete: row.grading_complete,
    printed: row.printed,
    responses_count: Number(row.responses_count),
    ...(row.page_count === null ? {} : { page_count: row.page_count }),
    answer_sheet_page_length: Number(row.answer_sheet_page_length) as Schemas['AnswerSheetPageLength'],
    service_center:
      row.service_center_id === null
        ? null
        : {
            id: row.service_center_id,
            name: row.service_center_name ?? '',
            ...(row.service_center_country === null
              ? {}
              : { country: { iso_code: row.service_center_country, display_name: row.service_center_country_name ?? row.service_center_country } }),
          },
    recruiting_point: named(row.recruiting_point_id, row.recruiting_point_name),
    recruiter: named(row.recruiter_id, row.recruiter_name),
    service_center_contact_person: named(row.contact_person_id, row.contact_person_name),
    congregations: row.congregations,
    courses: row.courses,
    scanned_at: row.scanned_at === null ? null : new Date(row.scanned_at).toISOString(),
    uploaded_at: new Date(row.uploaded_at).toISOString(),
    created_at: new Date(row.created_at).toISOString(),
    sent_at: row.sent_at === null ? null : new Date(row.sent_at).toISOString(),
    congregation_file_status: row.congregation_file_status,
  };
}

/** Visible to a coordinator of `congregationId` (null: an admin): the file was sent to it. */
export function fileVisibleSql(file: string, scopeParam: string): string {
  return `(${scopeParam}::uuid IS NULL OR ${sentToSql(`${file}.id`, scopeParam)})`;
}

/**
 * The file (its id in `fileId`) was sent to the congregation: Send made its row of
 * file_congregations, Take Back removes it. A file still in Review, or taken back, is the
 * admins' work: its congregations see nothing of it.
 */
export function sentToSql(fileId: string, congregationParam: string): string {
  return `EXISTS (SELECT 1 FROM file_congregations sent WHERE sent.file_id = ${fileId} AND sent.congregation_id = ${congregationParam}::uuid)`;
}

/**
 * The caller's scope for one file: 404 when the file does not exist, 403 when it was not sent to
 * a coordinator's congregation. Returns the scope (null for an admin).
 */
export async function fileScope(db: Database, request: FastifyRequest, fileId: string): Promise<string | null> {
  const scope = congregationScope(request);
  const row = await db.maybeOne<{ visible: boolean }>(`SELECT ${fileVisibleSql('f', '$2')} AS visible FROM files f WHERE f.id = $1`, [
    fileId,
    scope,
  ]);
  if (row === null) throw notFound(FILE_NOT_FOUND);
  if (!row.visible) throw forbidden();
  return scope;
}

export async function loadFile(db: Database, fileId: string, scope: string | null): Promise<Schemas['File']> {
  const row = await db.maybeOne<FileRow>(
    `${fileSelect(scope === null ? null : '$2')} WHERE f.id = $1`,
    scope === null ? [fileId] : [fileId, scope],
  );
  if (row === null) throw notFound(FILE_NOT_FOUND);
  return fileOf(row);
}

/**
 * The file's counts; with a congregation (a coordinator's scope), those of its sheets and their
 * pages alone: pages of no sheet and unassigned sheets are the admins' work, not its.
 */
export async function loadFileStats(db: Database, fileId: string, scope: string | null): Promise<Schemas['FileStats']> {
  // `a` is a sheet, `p` a page: each count is narrowed to the congregation's when scoped.
  const sheetOf = scope === null ? '' : ' AND a.assigned_group = $2';
  const pageOf = scope === null ? '' : ' AND EXISTS (SELECT 1 FROM answer_sheets s WHERE s.id = p.answer_sheet_id AND s.assigned_group = $2)';
  const row = await db.one<Record<Exclude<keyof Schemas['FileStats'], 'reasons' | 'flagged'>, number> & { flags: Record<string, number> | null; duplicate_sheet: number; blank_back: number; no_sheet: number; too_blurred: number }>(
    `SELECT
       (SELECT count(*) FROM pages p WHERE p.file_id = $1${pageOf}) AS pages,
       (SELECT count(*) FROM answer_sheets a WHERE a.file_id = $1 AND ${keptSheetSql('a')}${sheetOf}) AS sheets,
       (SELECT count(*) FROM pages p WHERE p.file_id = $1 AND ${unrecognizedPageSql('p')}${pageOf}) AS unrecognized,
       (SELECT count(*) FROM pages p JOIN answer_sheets a ON a.id = p.answer_sheet_id WHERE p.file_id = $1 AND ${mismatchedPageSql('p', 'a')}${sheetOf}) AS mismatched,
       (SELECT count(*) FROM pages p WHERE p.file_id = $1 AND p.ignored${pageOf}) AS ignored,
       (SELECT count(*) FROM answer_sheets a WHERE a.file_id = $1 AND a.assigned_group IS NULL AND ${keptSheetSql('a')}${sheetOf}) AS unassigned,
       (SELECT count(*) FROM answer_sheets a WHERE a.file_id = $1 AND ${undecidedDuplicateSql('a')}${sheetOf}) AS duplicates,
       (SELECT count(*) FROM answer_sheets a WHERE a.file_id = $1 AND a.student_id IS NULL AND ${keptSheetSql('a')}${sheetOf}) AS missing_student,
       (SELECT count(*) FROM answer_sheets a WHERE a.file_id = $1 AND a.lesson_id IS NULL AND ${keptSheetSql('a')}${sheetOf}) AS missing_lesson,
       (SELECT json_object_agg(flag, n) FROM (SELECT p.flag, count(*) AS n FROM pages p WHERE p.file_id = $1 AND ${flaggedPageSql('p')}${pageOf} GROUP BY p.flag) f) AS flags,
       (SELECT count(*) FROM pages p JOIN answer_sheets a ON a.id = p.answer_sheet_id
        WHERE p.file_id = $1 AND NOT p.ignored AND p.flag IS NULL AND a.duplicate_of IS NOT NULL AND NOT a.duplicate_kept${sheetOf}) AS duplicate_sheet,
       (SELECT count(*) FROM pages p WHERE p.file_id = $1 AND p.blank AND p.ignored${pageOf}) AS blank_back,
       -- Photos that could not be read are on no sheet: counted apart (they hold no file in Review).
       (SELECT count(*) FROM pages p WHERE p.file_id = $1 AND NOT p.ignored AND p.flag = 'no_sheet'${pageOf}) AS no_sheet,
       (SELECT count(*) FROM pages p WHERE p.file_id = $1 AND NOT p.ignored AND p.flag = 'too_blurred'${pageOf}) AS too_blurred`,
    scope === null ? [fileId] : [fileId, scope],
  );
  const flags = row.flags ?? {};
  const flagCount = (flag: PageFlag) => Number(flags[flag] ?? 0);
  const reasons: Schemas['FileStats']['reasons'] = {
    no_code_found: flagCount('no_code_found'),
    unreadable: flagCount('unreadable'),
    unknown_code: flagCount('unknown_code'),
    too_complex: flagCount('too_complex'),
    out_of_order: flagCount('out_of_order'),
    stray_page: flagCount('stray_page'),
    another_course: flagCount('another_course'),
    duplicate_sheet: Number(row.duplicate_sheet),
    blank_back: Number(row.blank_back),
    ambiguous_position: flagCount('ambiguous_position'),
    page_missing: flagCount('page_missing'),
    scanned_twice: flagCount('scanned_twice'),
    already_uploaded: flagCount('already_uploaded'),
    no_sheet: Number(row.no_sheet),
    too_blurred: Number(row.too_blurred),
  };
  return {
    pages: Number(row.pages),
    sheets: Number(row.sheets),
    unrecognized: Number(row.unrecognized),
    mismatched: Number(row.mismatched),
    ignored: Number(row.ignored),
    unassigned: Number(row.unassigned),
    duplicates: Number(row.duplicates),
    missing_student: Number(row.missing_student),
    missing_lesson: Number(row.missing_lesson),
    flagged: Object.values(flags).reduce((sum, n) => sum + Number(n), 0),
    reasons,
    repeat_of: scope === null ? await repeatedFile(db, fileId) : null,
  };
}

/**
 * The earlier file most of this one's paper was seen in (a batch scanned again): pages keep the
 * file their paper was first seen in (flag_detail), whatever Review did with their flags since.
 */
async function repeatedFile(db: Database, fileId: string): Promise<Schemas['RepeatedFile'] | null> {
  const row = await db.maybeOne<{ file_id: string; name: string; pages: number; content: number }>(
    `SELECT seen.file_id, f.name, seen.pages,
            (SELECT count(*)::int FROM pages c WHERE c.file_id = $1 AND NOT c.blank) AS content
     FROM (SELECT (p.flag_detail ->> 'copy_file_id')::uuid AS file_id, count(*)::int AS pages
           FROM pages p WHERE p.file_id = $1 AND p.flag_detail ? 'copy_file_id' AND p.flag_detail ->> 'copy_file_id' <> $1::text
           GROUP BY 1 ORDER BY 2 DESC LIMIT 1) seen
     JOIN files f ON f.id = seen.file_id`,
    [fileId],
  );
  if (row === null || row.pages * 2 < row.content) return null;
  return { file_id: row.file_id, name: row.name, pages: row.pages };
}

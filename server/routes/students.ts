// Students: the filtered, sorted, paged list; one student; changing its attributes, its
// congregation (admin only; its sheets not sent yet follow it) or its study helper; its answer
// sheets; a study helper's students. A coordinator sees and changes only its own congregation's
// students (others are "not found"), and none of their sheets assigned to another congregation.
import type { FastifyInstance } from 'fastify';
import { congregationScope, requireAdmin } from '../auth/session';
import type { ReplyOf, Route, Schemas } from '../contract/types';
import type { Database } from '../db/database';
import { notFound, validationError } from '../http-error';
import { keptSheetSql, sentOrSendingSql } from '../repositories/sql/file-steps';
import { cachedTotal } from '../repositories/sql/count-cache';
import { SHEET_SELECT, sheetOf, type SheetRow } from './shared/answer-sheet-view';
import { STUDY_HELPER_NOT_FOUND, studentNotFound } from './shared/errors';
import { sentToSql } from './shared/file-view';
import { pageOf, paged } from './shared/paging';
import { orderClause, sortDirection, type Page, type SortColumn } from '../repositories/sql/paging';
import { rowsOfPage, type Statement } from './shared/page-rows';
import { listCongregation } from './shared/scope';
import { NEWEST_ANSWER_SHEETS_FIRST, studentOf, STUDENT_SELECT, studentVisible, type StudentRow } from './shared/student';
import { Where, humanIdRanges, prefixPattern } from '../repositories/sql/where';

const SORT: Record<'human_id' | 'created_at', SortColumn> = {
  human_id: { sql: 's.human_id', defaultDirection: 'asc' },
  created_at: { sql: 's.created_at', defaultDirection: 'desc' },
};

type StudentPatch = Route<'updateStudent'>['Body'];

const STUDENTS_BY_IDS = `${STUDENT_SELECT} WHERE s.id = ANY($1::uuid[])`;
const VISIBLE_STUDENT_BY_ID = `${STUDENT_SELECT} WHERE s.id = $1 AND ${studentVisible('$2')}`;

/**
 * One page of students matching `where` (conditions on `s`), with the total count. `byPrefix`,
 * when given, selects the page's ids and counts them instead of `where` (see humanIdPrefixPage).
 */
async function pageOfStudents(
  db: Database,
  where: Where,
  order: string,
  page: Page,
  byPrefix?: { ids?: Statement; count: Statement },
): Promise<ReplyOf<'listStudents'>> {
  const count = byPrefix?.count ?? { sql: `SELECT count(*) AS total FROM students s ${where.sql}`, params: where.params };
  const total = await cachedTotal(db, count.sql, count.params);
  const rows = await rowsOfPage<StudentRow>(
    db,
    byPrefix?.ids ?? { sql: `SELECT s.id FROM students s ${where.sql} ${order} LIMIT ${where.param(page.limit)} OFFSET ${where.param(page.skip)}`, params: where.params },
    STUDENTS_BY_IDS,
  );
  return paged(rows.map(studentOf), total, page);
}

/**
 * The students whose ID starts with `prefix`, among those `others` (the list's other conditions)
 * select, as ranges of IDs (humanIdRanges) read in the index on human_id: `from` joins each
 * range with its students, under `conditions`.
 */
function inHumanIdRanges(prefix: string, others: Where): { from: string; conditions: string } {
  const ranges = humanIdRanges(prefix);
  const lo = others.param(ranges.map((range) => range.lo));
  const hi = others.param(ranges.map((range) => range.hi));
  const inRange = `s.human_id BETWEEN id_range.lo AND id_range.hi`;
  return {
    from: `unnest(${lo}::bigint[], ${hi}::bigint[]) AS id_range (lo, hi)`,
    conditions: others.sql === '' ? `WHERE ${inRange}` : `${others.sql} AND ${inRange}`,
  };
}

/**
 * The ids of a page of students whose ID starts with `prefix`, in ID order, each range of IDs
 * read in the order of the index on human_id, as far as the page reaches. Matching the digits as
 * text instead read the index from its start up to the page's last match: "45" found its 20th
 * student at 4508 of 100 000, and "4521" at 45 219.
 */
function humanIdPrefixPage(prefix: string, others: Where, direction: 'ASC' | 'DESC', page: Page): Statement {
  const { from, conditions } = inHumanIdRanges(prefix, others);
  const order = (table: string) => `ORDER BY ${table}.human_id ${direction}, ${table}.id ${direction}`;
  return {
    sql: `SELECT r.id FROM ${from}
          CROSS JOIN LATERAL (SELECT s.id, s.human_id FROM students s ${conditions} ${order('s')} LIMIT ${others.param(page.skip + page.limit)}) r
          ${order('r')} LIMIT ${others.param(page.limit)} OFFSET ${others.param(page.skip)}`,
    params: others.params,
  };
}

/**
 * How many students have an ID starting with `prefix`, counted in its ranges of IDs. Counted as
 * text, every match was read from the table (the text index cannot answer alone): 2.2 ms for the
 * 1100 students of "45" in 100 000, while the ranges are counted from the index on human_id.
 */
export function humanIdPrefixCount(prefix: string, others: Where): Statement {
  const { from, conditions } = inHumanIdRanges(prefix, others);
  return {
    sql: `SELECT count(*) AS total FROM ${from} CROSS JOIN LATERAL (SELECT FROM students s ${conditions}) matching`,
    params: others.params,
  };
}

export async function findStudent(db: Database, id: string, scope: string | null): Promise<Schemas['Student']> {
  const row = await db.maybeOne<StudentRow>(VISIBLE_STUDENT_BY_ID, [id, scope]);
  if (row === null) throw studentNotFound();
  return studentOf(row);
}

/** Splits an attributes patch into fields to set and fields to clear (sent as null). */
function attributeChanges(attributes: Schemas['StudentAttributes']): { set: Record<string, unknown>; clear: string[] } {
  const set: Record<string, unknown> = {};
  const clear: string[] = [];
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined) continue;
    if (value === null) clear.push(key);
    else set[key] = value;
  }
  return { set, clear };
}

/**
 * The student's sheets not sent yet follow the student to its new congregation: those assigned
 * elsewhere, and unassigned ones that are kept. Sheets of files sent or being sent keep theirs.
 * Their files' rows are locked shared first (in id order), so a Send under way is waited for and
 * its file left alone.
 */
async function moveUnsentSheets(tx: Database, studentId: string, congregationId: string): Promise<void> {
  const files = await tx.query<{ id: string }>(
    `SELECT f.id FROM files f
     WHERE f.id IN (SELECT a.file_id FROM answer_sheets a WHERE a.student_id = $1) AND NOT ${sentOrSendingSql('f')}
     ORDER BY f.id FOR SHARE`,
    [studentId],
  );
  if (files.length === 0) return;
  await tx.query(
    `UPDATE answer_sheets a SET assigned_group = $2::uuid
     WHERE a.student_id = $1 AND a.file_id = ANY($3::uuid[]) AND a.assigned_group IS DISTINCT FROM $2::uuid
       AND (a.assigned_group IS NOT NULL OR ${keptSheetSql('a')})`,
    [studentId, congregationId, files.map((file) => file.id)],
  );
}

async function applyPatch(tx: Database, student: { id: string; congregation_id: string | null }, body: StudentPatch): Promise<void> {
  if ('attributes' in body) {
    const { set, clear } = attributeChanges(body.attributes);
    await tx.query('UPDATE students SET attributes = (attributes || $2::jsonb) - $3::text[] WHERE id = $1', [
      student.id,
      JSON.stringify(set),
      clear,
    ]);
    return;
  }
  if ('congregation' in body) {
    if (body.congregation !== null) {
      const exists = await tx.maybeOne('SELECT id FROM congregations WHERE id = $1', [body.congregation]);
      if (exists === null) throw validationError('Unknown congregation.');
    }
    // A study helper belongs to one congregation: moving the student ends that link.
    await tx.query(
      `UPDATE students SET congregation_id = $2::uuid,
              study_helper_id = CASE WHEN congregation_id IS NOT DISTINCT FROM $2::uuid THEN study_helper_id END
       WHERE id = $1`,
      [student.id, body.congregation],
    );
    if (body.congregation !== null) await moveUnsentSheets(tx, student.id, body.congregation);
    return;
  }
  if (body.study_helper !== null) {
    const helper = await tx.maybeOne<{ congregation_id: string }>('SELECT congregation_id FROM study_helpers WHERE id = $1', [
      body.study_helper,
    ]);
    if (helper === null) throw validationError('Unknown study helper.');
    if (helper.congregation_id !== student.congregation_id) {
      throw validationError("The study helper must belong to the student's congregation.");
    }
  }
  await tx.query('UPDATE students SET study_helper_id = $2 WHERE id = $1', [student.id, body.study_helper]);
}

export async function studentRoutes(app: FastifyInstance) {
  const db = app.db;

  app.get<Route<'listStudents'>>('/api/students', async (request): Promise<ReplyOf<'listStudents'>> => {
    const query = request.query;
    const congregation = listCongregation(request, query.congregation);
    // The list's conditions, with or without the ID prefix's (humanIdPrefixPage reads it as ranges).
    const conditions = (withPrefix: boolean) =>
      new Where()
        .addIf(congregation, (p) => `s.congregation_id = ${p}`)
        // Matches the expression index students_human_id_text_idx (text_pattern_ops).
        .addIf(withPrefix && query.human_id_prefix ? prefixPattern(query.human_id_prefix) : undefined, (p) => `(s.human_id::text) LIKE ${p}`)
        .addIf(query.country, (p) => `s.country_iso = ${p}`)
        .addIf(query.study_helper, (p) => `s.study_helper_id = ${p}`);
    const orderBy = query.order_by ?? 'human_id';
    const order = orderClause(SORT, orderBy, query.order_direction, 's.id');
    const page = pageOf(query);
    const prefix = query.human_id_prefix;
    const byPrefix = prefix
      ? {
          ids: orderBy === 'human_id' ? humanIdPrefixPage(prefix, conditions(false), sortDirection(SORT, orderBy, query.order_direction), page) : undefined,
          count: humanIdPrefixCount(prefix, conditions(false)),
        }
      : undefined;
    return pageOfStudents(db, conditions(true), order, page, byPrefix);
  });

  app.get<Route<'getStudent'>>('/api/students/:id', async (request): Promise<ReplyOf<'getStudent'>> => {
    return findStudent(db, request.params.id, congregationScope(request));
  });

  app.patch<Route<'updateStudent'>>('/api/students/:id', async (request): Promise<ReplyOf<'updateStudent'>> => {
    const body = request.body;
    if ('congregation' in body) requireAdmin(request);
    const scope = congregationScope(request);
    await db.transaction(async (tx) => {
      const student = await tx.maybeOne<{ id: string; congregation_id: string | null }>(
        `SELECT s.id, s.congregation_id FROM students s WHERE s.id = $1 AND ${studentVisible('$2')} FOR UPDATE`,
        [request.params.id, scope],
      );
      if (student === null) throw studentNotFound();
      await applyPatch(tx, student, body);
    });
    return findStudent(db, request.params.id, scope);
  });

  app.get<Route<'listStudentAnswerSheets'>>(
    '/api/students/:id/answer-sheets',
    async (request): Promise<ReplyOf<'listStudentAnswerSheets'>> => {
      const scope = congregationScope(request);
      const student = await db.maybeOne(`SELECT s.id FROM students s WHERE s.id = $1 AND ${studentVisible('$2')}`, [
        request.params.id,
        scope,
      ]);
      if (student === null) throw studentNotFound();
      // A coordinator sees the student's sheets sent to its congregation: not those of another
      // congregation (the student's earlier one), nor those still in Review.
      const rows = await db.query<SheetRow>(
        `${SHEET_SELECT} WHERE a.student_id = $1 AND ($2::uuid IS NULL OR (a.assigned_group = $2::uuid AND ${sentToSql('a.file_id', '$2')}))
         ORDER BY ${NEWEST_ANSWER_SHEETS_FIRST}`,
        [request.params.id, scope],
      );
      return rows.map(sheetOf);
    },
  );

  app.get<Route<'listStudyHelperStudents'>>(
    '/api/study-helper/:id/students',
    async (request): Promise<ReplyOf<'listStudyHelperStudents'>> => {
      const scope = congregationScope(request);
      const helper = await db.maybeOne(
        'SELECT id FROM study_helpers WHERE id = $1 AND ($2::uuid IS NULL OR congregation_id = $2::uuid)',
        [request.params.id, scope],
      );
      if (helper === null) throw notFound(STUDY_HELPER_NOT_FOUND);
      const where = new Where().add((p) => `s.study_helper_id = ${p}`, request.params.id).addIf(scope, (p) => `s.congregation_id = ${p}`);
      return pageOfStudents(db, where, orderClause(SORT, 'human_id', undefined, 's.id'), pageOf(request.query));
    },
  );
}

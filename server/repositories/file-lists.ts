// File lists: a page of files for the files tables, with their filters and sort, whole (an
// admin's view) or as one congregation sees them (a coordinator's, or an admin looking at one).
import type { QueryOf } from '../contract/types';
import type { Database } from '../db/database';
import { fileStateSql } from './sql/file-steps';
import { cachedTotal } from './sql/count-cache';
import { orderClause, type Page, type SortColumn } from './sql/paging';
import { rowsOfPage } from './sql/rows-of-page';
import { Where, containsPattern } from './sql/where';
import { fileSelect, sentToSql, type FileRow } from './files';

type FilesQuery = QueryOf<'listFiles'>;
type FilesOrder = NonNullable<FilesQuery['order_by']>;

const SORT: Record<FilesOrder, SortColumn> = {
  created_at: { sql: 'f.created_at', defaultDirection: 'desc' },
  uploaded_at: { sql: 'f.uploaded_at', defaultDirection: 'desc' },
  name: { sql: 'lower(f.name)', defaultDirection: 'asc' },
};

/** The same order over a viewer's rows of file_groups joined with their files. */
const VIEWER_SORT: typeof SORT = { ...SORT, created_at: { ...SORT.created_at, sql: 'vg.file_created_at' } };

/** A page's files by id: whole (an admin's view), or as the congregation in $1 sees them. */
const FILES_BY_IDS = `${fileSelect(null)} WHERE f.id = ANY($1::uuid[])`;
const VIEWERS_FILES_BY_IDS = `${fileSelect('$1')} WHERE f.id = ANY($2::uuid[])`;

export interface FilesListView {
  /** The coordinator's congregation, or null for an admin. */
  scope: string | null;
  /** The congregation whose view this is (the coordinator's, or one an admin looks at), or null: whole files. */
  viewerId: string | null;
}

/** A page of files matching the list's filters, in its order, with how many match in all. */
export async function filesPageForList(
  db: Database,
  view: FilesListView,
  query: FilesQuery,
  page: Page,
): Promise<{ total: number; rows: FileRow[] }> {
  const params = new Where();
  const p = (value: unknown) => params.param(value);
  // The viewer's conditions are left out rather than tested against null in SQL, so PostgreSQL's
  // plans need not cover both cases.
  const viewer = view.viewerId === null ? null : p(view.viewerId);
  // A viewer's files are those with its sheets (group_id, when given, is the viewer): its rows
  // of file_groups, which also hold each file's created_at, so its newest files are one index
  // range (migration 009) rather than a walk through every file.
  const from = viewer === null ? 'files f' : 'file_groups vg JOIN files f ON f.id = vg.file_id';
  const conditions = viewer === null ? [] : [`vg.congregation_id = ${viewer}::uuid`];
  // A coordinator's files are those sent to it (an admin looking at one congregation sees them all).
  if (view.scope !== null && viewer !== null) conditions.push(sentToSql('f.id', viewer));
  conditions.push(...filterConditions(query, viewer, p));
  const where = conditions.length === 0 ? '' : `WHERE ${conditions.join(' AND ')}`;
  const order =
    viewer === null
      ? orderClause(SORT, query.order_by ?? 'created_at', query.order_direction, 'f.id')
      : orderClause(VIEWER_SORT, query.order_by ?? 'created_at', query.order_direction, 'vg.file_id');
  const total = await cachedTotal(db, `SELECT count(*) AS total FROM ${from} ${where}`, params.params);
  const rows = await rowsOfPage<FileRow>(
    db,
    { sql: `SELECT f.id FROM ${from} ${where} ${order} LIMIT ${p(page.limit)} OFFSET ${p(page.skip)}`, params: params.params },
    view.viewerId === null ? FILES_BY_IDS : VIEWERS_FILES_BY_IDS,
    view.viewerId === null ? [] : [view.viewerId],
  );
  return { total: Number(total), rows };
}

/** The list's optional filters over `files f`; a viewer's (its placeholder) narrows the sheet-level ones to its sheets. */
function filterConditions(query: FilesQuery, viewer: string | null, p: (value: unknown) => string): string[] {
  const conditions: string[] = [];
  const viewersSheet = (sheet: string) => (viewer === null ? '' : `AND ${sheet} = ${viewer}::uuid`);
  if (query.file_state !== undefined) conditions.push(fileStateSql('f', query.file_state));
  const name = query.query_name?.trim();
  if (name) conditions.push(`lower(f.name) LIKE ${p(containsPattern(name))}`);
  if (query.country !== undefined) {
    conditions.push(`EXISTS (SELECT 1 FROM service_centers csc WHERE csc.id = f.service_center_id AND csc.country_iso = ${p(query.country)})`);
  }
  if (query.graded !== undefined) conditions.push(`f.grading_complete = ${p(query.graded)}`);
  if (query.study_helper !== undefined) {
    conditions.push(
      `EXISTS (SELECT 1 FROM answer_sheets sa JOIN students ss ON ss.id = sa.student_id
               WHERE sa.file_id = f.id AND ss.study_helper_id = ${p(query.study_helper)}::uuid ${viewersSheet('sa.assigned_group')})`,
    );
  }
  if (query.congregation_file_state !== undefined) {
    conditions.push(
      `EXISTS (SELECT 1 FROM file_congregations sfc WHERE sfc.file_id = f.id AND sfc.status = ${p(query.congregation_file_state)}
               ${viewersSheet('sfc.congregation_id')})`,
    );
  }
  return conditions;
}

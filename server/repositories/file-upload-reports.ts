// A service center's file read as an upload (the Uploads list and its report): each page's
// outcome (matched, the batch's cover, in Review, ignored, blank and dropped) and their summary.
import type { Schemas } from '../contract/types';
import type { Database } from '../db/database';
import type { PageFlagColumn } from './pages';

type Outcome = 'matched' | 'cover' | 'in_review' | 'ignored' | 'blank';

/** One page's outcome, over pages aliased `page`; the batch's cover sheet is read, not waiting. */
const outcomeSql = (page: string) =>
  `CASE WHEN ${page}.ignored AND ${page}.blank THEN 'blank' WHEN ${page}.ignored THEN 'ignored'
        WHEN ${page}.id = (SELECT cf.cover_page_id FROM files cf WHERE cf.id = ${page}.file_id) THEN 'cover'
        WHEN ${page}.answer_sheet_id IS NULL OR ${page}.flag IS NOT NULL THEN 'in_review' ELSE 'matched' END`;

/** The summary columns (as uploadSummaryJoin's) for files aliased `alias`, as one LATERAL join. */
export function fileUploadSummaryJoin(alias: string): string {
  return `LEFT JOIN LATERAL (
      SELECT count(*)::int AS pages_read,
             (count(*) FILTER (WHERE fo.o IN ('matched', 'cover')))::int AS matched,
             (count(*) FILTER (WHERE fo.o IN ('in_review', 'ignored')))::int AS not_matched,
             (count(*) FILTER (WHERE fo.o = 'blank'))::int AS blank_dropped
      FROM (SELECT ${outcomeSql('fp')} AS o FROM pages fp WHERE fp.file_id = ${alias}.id) fo) summary ON true`;
}

export interface FilePageRow {
  page_number: number;
  outcome: Outcome;
  flag: PageFlagColumn | null;
  code_prefix: string | null;
  code_id: string | null;
  identified_by: Schemas['IdentifiedBy'] | null;
  has_image: boolean;
  sheet_id: string | null;
  student_human_id: number | null;
  lesson: string | null;
}

export interface FileUploadHeadRow {
  id: string;
  name: string;
  created_at: Date;
  process_status: Schemas['ProcessStatus'];
  failure_reason: string | null;
  pages_read: number;
  matched: number;
  not_matched: number;
  blank_dropped: number;
}

/** The file with its upload summary, or null when no file has that id. */
export async function fileUploadHead(db: Database, fileId: string): Promise<FileUploadHeadRow | null> {
  return db.maybeOne<FileUploadHeadRow>(
    `SELECT f.id, f.name, f.created_at, f.process_status, f.failure_reason, summary.* FROM files f ${fileUploadSummaryJoin('f')} WHERE f.id = $1`,
    [fileId],
  );
}

/** The file's pages in order, each with its outcome and the sheet it was matched to. */
export async function fileUploadPages(db: Database, fileId: string): Promise<FilePageRow[]> {
  return db.query<FilePageRow>(
    `SELECT p.page_number, ${outcomeSql('p')} AS outcome, p.flag, p.code_prefix, p.code_id, p.identified_by, p.image_blob_key IS NOT NULL AS has_image,
            a.id AS sheet_id, st.human_id AS student_human_id, l.name AS lesson
     FROM pages p
     LEFT JOIN answer_sheets a ON a.id = p.answer_sheet_id
     LEFT JOIN students st ON st.id = a.student_id
     LEFT JOIN lessons l ON l.id = a.lesson_id
     WHERE p.file_id = $1 ORDER BY p.page_number`,
    [fileId],
  );
}// A service center's file read as an upload (the Uploads list and its report): each page's
// outcome (matched, the batch's cover, in Review, ignored, blank and dropped) and their summary.

export type FilePageOutcome = 'matched' | 'cover' | 'in_review' | 'ignored' | 'blank';

/** One page's outcome, over pages aliased `page`; the batch's cover sheet is read, not waiting. */
export const filePageOutcomeSql = (page: string): string =>
  `CASE WHEN ${page}.ignored AND ${page}.blank THEN 'blank' WHEN ${page}.ignored THEN 'ignored'
        WHEN ${page}.id = (SELECT cf.cover_page_id FROM files cf WHERE cf.id = ${page}.file_id) THEN 'cover'
        WHEN ${page}.answer_sheet_id IS NULL OR ${page}.flag IS NOT NULL THEN 'in_review' ELSE 'matched' END`;

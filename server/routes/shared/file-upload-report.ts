// A service center's file read as an upload, for the Uploads list and its report (the Feedback
// Upload Page): a page is matched once it sits on an answer sheet with nothing left to mend, not
// matched while it waits in Review or after a person ignored it, and dropped when blank and set
// aside. The file page stays where it is mended; this only says what the reading made of it.
import type { Schemas } from '../../contract/types';
import type { Database } from '../../db/database';
import { isPhotoReason } from '../../domain/page-reasons';
import type { PageFlag } from '../../domain/split';

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

const FLAG_WORDS: Record<PageFlag, string> = {
  no_code_found: 'no code found',
  unreadable: 'code unreadable',
  unknown_code: 'unknown code',
  out_of_order: 'out of order',
  stray_page: 'stray page',
  another_course: 'another course',
  ambiguous_position: 'could belong to more than one sheet',
  page_missing: 'a page of its response is missing',
  scanned_twice: 'scanned twice (a copy of another page of this file)',
  already_uploaded: 'already uploaded in an earlier file',
  too_complex: 'too large or too complex to read (check the scan and upload it again, or ignore the page)',
  no_sheet: 'No sheet found in the photo',
  too_blurred: 'Too blurred',
};

interface FilePageRow {
  page_number: number;
  outcome: Outcome;
  flag: PageFlag | null;
  code_prefix: string | null;
  code_id: string | null;
  identified_by: Schemas['IdentifiedBy'] | null;
  has_image: boolean;
  sheet_id: string | null;
  student_human_id: number | null;
  lesson: string | null;
}

function pageOf(file: { id: string; name: string }, row: FilePageRow): Schemas['UploadReportPage'] {
  const matched = row.outcome === 'matched' || row.outcome === 'cover';
  // A photo that could not be read is on no sheet: its own reason, not Review's.
  const photo = row.outcome === 'in_review' && isPhotoReason(row.flag) ? row.flag : null;
  return {
    page_number: row.page_number,
    result: matched ? 'matched' : row.outcome === 'blank' ? 'blank_dropped' : 'not_matched',
    reason: photo ?? (row.outcome === 'in_review' ? 'in_review' : row.outcome === 'ignored' ? 'ignored' : null),
    kept: matched,
    detail:
      photo !== null
        ? `${FLAG_WORDS[photo]}: the photo is kept beside its page, on no answer sheet.`
        : row.outcome === 'cover'
        ? "The batch's cover sheet: it names the service center."
        : row.outcome !== 'in_review'
        ? null
        : row.flag !== null
          ? `Flagged: ${FLAG_WORDS[row.flag]}. Mend it on its response in Review.`
          : 'Not on any answer sheet yet. Place it on a response in Review.',
    code: row.code_prefix !== null && row.code_id !== null ? `${row.code_prefix.toUpperCase()}-${row.code_id}` : null,
    identified_by: row.code_id === null ? null : (row.identified_by ?? 'code'),
    file: matched ? file : null,
    answer_sheet:
      matched && row.sheet_id !== null
        ? { id: row.sheet_id, student_human_id: row.student_human_id === null ? null : Number(row.student_human_id), lesson: row.lesson }
        : null,
    has_image: row.has_image,
  };
}

/** The report of a service center's file, or null when no file has that id. */
export async function fileUploadReport(db: Database, fileId: string): Promise<Schemas['UploadReport'] | null> {
  const file = await db.maybeOne<{
    id: string;
    name: string;
    created_at: Date;
    process_status: Schemas['ProcessStatus'];
    failure_reason: string | null;
    pages_read: number;
    matched: number;
    not_matched: number;
    blank_dropped: number;
  }>(`SELECT f.id, f.name, f.created_at, f.process_status, f.failure_reason, summary.* FROM files f ${fileUploadSummaryJoin('f')} WHERE f.id = $1`, [fileId]);
  if (file === null) return null;
  const pages = await db.query<FilePageRow>(
    `SELECT p.page_number, ${outcomeSql('p')} AS outcome, p.flag, p.code_prefix, p.code_id, p.identified_by, p.image_blob_key IS NOT NULL AS has_image,
            a.id AS sheet_id, st.human_id AS student_human_id, l.name AS lesson
     FROM pages p
     LEFT JOIN answer_sheets a ON a.id = p.answer_sheet_id
     LEFT JOIN students st ON st.id = a.student_id
     LEFT JOIN lessons l ON l.id = a.lesson_id
     WHERE p.file_id = $1 ORDER BY p.page_number`,
    [fileId],
  );
  return {
    id: file.id,
    name: file.name,
    created_at: new Date(file.created_at).toISOString(),
    kind: 'service_center',
    process_status: file.process_status,
    is_intro: false,
    failure_reason: file.failure_reason,
    summary: { pages_read: file.pages_read, matched: file.matched, not_matched: file.not_matched, blank_dropped: file.blank_dropped },
    pages: pages.map((row) => pageOf(file, row)),
  };
}

/** The image of one page of a service center's file, or null. */
export async function filePageImageKey(db: Database, fileId: string, pageNumber: number): Promise<string | null> {
  const row = await db.maybeOne<{ image_blob_key: string | null }>('SELECT image_blob_key FROM pages WHERE file_id = $1 AND page_number = $2', [fileId, pageNumber]);
  return row?.image_blob_key ?? null;
}

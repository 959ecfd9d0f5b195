// A service center's file read as an upload, for the Uploads list and its report (the Feedback
// Upload Page): a page is matched once it sits on an answer sheet with nothing left to mend, not
// matched while it waits in Review or after a person ignored it, and dropped when blank and set
// aside. The file page stays where it is mended; this only says what the reading made of it.
import { enumWords } from '../../../generated/limits.js';
import type { Schemas } from '../../contract/types';
import type { Database } from '../../db/database';
import { isPhotoReason } from '../../domain/page-reasons';
import type { PageFlag } from '../../domain/split';
import { fileUploadHead, fileUploadPages, type FilePageRow } from '../../repositories/file-upload-reports';
import { imageKeyOfFilePage } from '../../repositories/pages';

/** The report's words for a flag: the contract's (ReviewReason's x-enum-words). */
const FLAG_WORDS: Record<PageFlag, string> = enumWords.ReviewReason;

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
  const file = await fileUploadHead(db, fileId);
  if (file === null) return null;
  const pages = await fileUploadPages(db, fileId);
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
  return imageKeyOfFilePage(db, fileId, pageNumber);
}

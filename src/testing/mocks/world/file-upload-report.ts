// A service center's file read as an upload, for the Uploads list and its report, as the server
// tells it (server/routes/shared/file-upload-report.ts): a page is matched once it sits on a sheet
// with nothing left to mend, not matched while it waits in Review or after a person ignored it,
// and dropped when blank and set aside.
import { enumWords } from '../../../../generated/limits';
import type { components } from '../../../../generated/api-types';
import type { FileRow, PageFlag, PageRow, World } from './world';

type S = components['schemas'];
type Outcome = 'matched' | 'in_review' | 'ignored' | 'blank';

/** A flag as the report says it to the uploader. */
/** The report's words for a flag: the contract's (ReviewReason's x-enum-words). */
const FLAG_WORDS: Record<PageFlag, string> = enumWords.ReviewReason;

function outcomeOf(page: PageRow): Outcome {
  if (page.ignored) return page.blank ? 'blank' : 'ignored';
  return page.sheetId === null || page.flag !== null ? 'in_review' : 'matched';
}

function reportPage(file: FileRow, page: PageRow): S['UploadReportPage'] {
  const outcome = outcomeOf(page);
  const matched = outcome === 'matched';
  const inReview = page.flag !== null ? `Flagged: ${FLAG_WORDS[page.flag]}. Mend it on its response in Review.` : 'Not on any answer sheet yet. Place it on a response in Review.';
  return {
    page_number: page.page_number,
    result: matched ? 'matched' : outcome === 'blank' ? 'blank_dropped' : 'not_matched',
    reason: outcome === 'in_review' || outcome === 'ignored' ? outcome : null,
    kept: matched,
    detail: outcome === 'in_review' ? inReview : null,
    code: null,
    file: matched ? { id: file.id, name: file.name } : null,
    answer_sheet: null,
    has_image: false,
  };
}

export function fileUpload(world: World, file: FileRow): { head: S['UploadListItem']; report: S['UploadReport'] } {
  const pages = world.pages.filter((page) => page.fileId === file.id).sort((a, b) => a.page_number - b.page_number);
  const count = (...outcomes: Outcome[]) => pages.filter((page) => outcomes.includes(outcomeOf(page))).length;
  const summary = { pages_read: pages.length, matched: count('matched'), not_matched: count('in_review', 'ignored'), blank_dropped: count('blank') };
  const head = { id: file.id, name: file.name, created_at: file.uploaded_at, kind: 'service_center' as const, process_status: file.process_status, is_intro: false, summary };
  return { head, report: { ...head, failure_reason: file.failure_reason, pages: pages.map((page) => reportPage(file, page)) } };
}

// A service center's file read as an upload, for the Uploads list and its report, as the server
// tells it (server/routes/shared/file-upload-report.ts): a page is matched once it sits on a sheet
// with nothing left to mend, not matched while it waits in Review or after a person ignored it,
// and dropped when blank and set aside.
import type { components } from '../../../../generated/api-types';
import type { FileRow, PageFlag, PageRow, World } from './world';

type S = components['schemas'];
type Outcome = 'matched' | 'in_review' | 'ignored' | 'blank';

/** A flag as the report says it to the uploader. */
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

// What Review shows for a page that was not placed with certainty (DESIGN §4 "Identity"): the
// reason in the words, and what a person can do about it.
import type { ReviewReason } from '../../../generated/hooks/model';

export const REVIEW_REASON_LABEL: Record<ReviewReason, string> = {
  no_code_found: 'No code found',
  unreadable: 'Code unreadable',
  unknown_code: 'Unknown code',
  out_of_order: 'Out of order',
  stray_page: 'Stray page',
  another_course: 'Another course',
  duplicate_sheet: 'Duplicate of an earlier sheet',
  blank_back: 'Blank back',
  ambiguous_position: 'Could belong to more than one sheet',
  page_missing: 'Page missing',
  scanned_twice: 'Scanned twice',
  already_uploaded: 'Already uploaded',
  too_complex: 'Too large or too complex to read',
  no_sheet: 'No sheet found in the photo',
  too_blurred: 'Too blurred',
};

export const REVIEW_REASON_HINT: Record<ReviewReason, string> = {
  no_code_found: 'Turn the page upright if it lies sideways, then type the code printed beside the QR code, choose the page template, or move the page to its response.',
  unreadable: 'Turn the page upright if it lies sideways, then type the code printed beside the QR code, choose the page template, or move the page to its response.',
  unknown_code: 'This code was not printed by this programme: type the code beside the QR code, or ignore the page.',
  out_of_order: 'Its page number does not follow the page before: move it to the response it belongs to, or keep it here.',
  stray_page: 'No response expects this page: ignore it if it is no answer sheet, join it to the response before it, or move it.',
  another_course: 'This page is of another course than the responses before it: keep it as its own response, or move it.',
  duplicate_sheet: 'The same student and lesson were received before: keep this response, or ignore its pages to drop it.',
  blank_back: 'A blank back of a double-sided scan: ignored, nothing to do.',
  ambiguous_position:
    'An earlier response is still short of this page, so its place is a guess: compare the handwriting, then move it to the response it belongs to, or keep it here.',
  page_missing:
    'This response is short of pages: find the missing page in the file and move it here, or keep the response as it is (its study helper grades what came).',
  scanned_twice:
    'The same paper as another page of this file (fed twice): ignore this copy. It made no student.',
  already_uploaded:
    'This paper was uploaded before: ignore the page if it is a rescan. It made no new student; its response is the earlier student’s. If it is other paper, give its response a New Student.',
  too_complex:
    'This page is too large or too complex to read. Check the scan and upload it again, or Ignore Page.',
  no_sheet:
    'No sheet of paper was found in this photo, and no code read on it: compare the photo as taken, then ignore the page or photograph the sheet again. It is on no response.',
  too_blurred:
    'The sheet in this photo is too blurred for its code to read: photograph it again, holding the phone still, or type the code printed beside the QR code. It is on no response.',
};

/** The order Action Items list them in: what holds the file first. */
export const REVIEW_REASONS: readonly ReviewReason[] = [
  'no_code_found',
  'unreadable',
  'unknown_code',
  'too_complex',
  'out_of_order',
  'stray_page',
  'another_course',
  'ambiguous_position',
  'scanned_twice',
  'already_uploaded',
  'no_sheet',
  'too_blurred',
  'page_missing',
  'duplicate_sheet',
  'blank_back',
];

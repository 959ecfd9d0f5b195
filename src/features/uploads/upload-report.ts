// How an upload's report reads: the label of each reason a page was not matched (one source for
// the upload page and its tests), what kind of upload it is, and the list's counts.
import type { UploadKind, UploadPageReason, UploadReportPage, UploadSummary } from '../../../generated/hooks/model';

export const REASON_LABELS: Record<UploadPageReason, string> = {
  no_code: 'No code found',
  unreadable: 'Code unreadable',
  unknown_code: 'Unknown code',
  other_congregation: "Another congregation's code",
  already_graded: 'Already graded',
  file_archived: 'File archived',
  not_sent: 'File not being graded',
  not_packet_page: 'Not a packet page',
  return_downloaded: 'Return file already downloaded',
  in_review: 'Waits in Review',
  ignored: 'Ignored',
  too_complex: 'Too large or too complex to read',
  no_sheet: 'No sheet found in the photo',
  too_blurred: 'Too blurred',
};

/** What an upload is, in the list's Kind column. */
export function kindLabel(upload: { kind: UploadKind; is_intro?: boolean }): string {
  if (upload.kind === 'service_center') return 'Service center file';
  return upload.is_intro ? 'Intro sheets' : 'Graded pages';
}

/** The reason as the upload page says it; already graded says whether this newer scan was kept. */
export function reasonLabel(page: Pick<UploadReportPage, 'reason' | 'kept'>): string {
  if (page.reason === null) return '';
  if (page.reason === 'already_graded') return page.kept ? 'Already graded — newer scan kept' : 'Already graded — a newer scan was kept instead';
  return REASON_LABELS[page.reason];
}

/** "9 matched / 1 not matched" for the uploads list. */
export function countsText(summary: UploadSummary | undefined): string {
  if (!summary) return '—';
  return `${summary.matched} matched / ${summary.not_matched} not matched`;
}

// An upload's report in the words the uploader reads (GET /api/uploads/{id}, the list's counts):
// each recorded page outcome becomes matched / not matched / blank and dropped, with the reason a
// page was not taken. One table of outcomes, used by the SQL counts (repositories/sql/upload-summary)
// and the page list alike.
import type { Schemas } from '../contract/types';

type Result = Schemas['UploadPageResult'];
type Reason = Schemas['UploadPageReason'];

interface OutcomeMeaning {
  result: Result;
  reason: Reason | null;
  /** This scan was kept (as feedback, or as an intro sheet's page). */
  kept: boolean;
}

/** Every outcome the matching (and intro files) records, and what it means to the uploader. */
export const OUTCOME_MEANINGS: Record<string, OutcomeMeaning> = {
  matched: { result: 'matched', reason: null, kept: true },
  back: { result: 'matched', reason: null, kept: true },
  intro: { result: 'matched', reason: null, kept: true },
  // Graded before: this newer scan replaced the earlier one.
  replaced: { result: 'matched', reason: 'already_graded', kept: true },
  // Graded again later (in this upload or a newer one): this scan was not kept.
  superseded: { result: 'not_matched', reason: 'already_graded', kept: false },
  blank_back: { result: 'blank_dropped', reason: null, kept: false },
  blank: { result: 'blank_dropped', reason: null, kept: false },
  wrong_congregation: { result: 'not_matched', reason: 'other_congregation', kept: false },
  file_archived: { result: 'not_matched', reason: 'file_archived', kept: false },
  return_downloaded: { result: 'not_matched', reason: 'return_downloaded', kept: false },
  not_sent: { result: 'not_matched', reason: 'not_sent', kept: false },
  unknown_code: { result: 'not_matched', reason: 'unknown_code', kept: false },
  other_kind: { result: 'not_matched', reason: 'not_packet_page', kept: false },
  unrecognized: { result: 'not_matched', reason: 'no_code', kept: false },
  unreadable: { result: 'not_matched', reason: 'unreadable', kept: false },
  too_complex: { result: 'not_matched', reason: 'too_complex', kept: false },
  // Photos nothing could be read on: kept (with the photo as taken), on no sheet.
  no_sheet: { result: 'not_matched', reason: 'no_sheet', kept: false },
  too_blurred: { result: 'not_matched', reason: 'too_blurred', kept: false },
};

/** A page still being read (no outcome yet) is read, nothing more. */
export function meaningOf(outcome: string | null): OutcomeMeaning | null {
  return outcome === null ? null : (OUTCOME_MEANINGS[outcome] ?? { result: 'not_matched', reason: null, kept: false });
}

/** The outcomes recorded for pages the uploader reads as `result`. */
export const outcomesOf = (result: Result): string[] => Object.keys(OUTCOME_MEANINGS).filter((outcome) => OUTCOME_MEANINGS[outcome]!.result === result);

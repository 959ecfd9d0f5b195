// The business constants and limits of spec §9 (and §4/§5) for the web side, in one place.
// The screens and the machines import these; the server keeps its own copy on its side. Lists of
// the contract's values (workflow steps, page lengths) and its limits come from the generated contract.
import { propertyLimits, schemaLimits } from '../generated/limits';
import { AnswerSheetPageLength, DeletableStep, WorkflowStep } from '../generated/hooks/model';

/** Largest file a user may upload: 1.5 GB. A larger file is skipped and flagged "File too Large". */
export const MAX_UPLOAD_BYTES = 1_500_000_000;

/** Photos of pages one upload may carry (the contract's UploadedPages): one page each, in order. */
export const MAX_PHOTOS_PER_UPLOAD = schemaLimits.UploadedPages.maxItems;
/** Longest name of a file or a graded upload (the contract's FileUpload, FilePatch, StudyHelperFileUpload). */
export const FILE_NAME_MAX_LENGTH = propertyLimits.FilePatch.name.maxLength;
/** The photos a page may be: JPEG, PNG, HEIC/HEIF (a phone's camera), by type or, when a browser names none, by extension. */
export const PHOTO_TYPES: readonly string[] = ['image/jpeg', 'image/png', 'image/heic', 'image/heif', 'image/heic-sequence', 'image/heif-sequence'];
export const PHOTO_EXTENSIONS: readonly string[] = ['.jpg', '.jpeg', '.png', '.heic', '.heif'];

/** How long the result banner takes to fade out. */
export const BANNER_FADE_MS = 500;
/** The Send link of the workflow's Send step stays disabled this long after a click. */
export const SEND_LOCK_MS = 5_000;
/** How long a "saved" indicator stays visible. */
export const SAVED_INDICATOR_MS = 2_000;
/** How long the baptism-request success message stays before it fades. */
export const BAPTISM_SUCCESS_FADE_MS = 5_000;
/** Interval of the packet existence check (repolled until `exists` is true). */
export const PACKET_POLL_MS = 1_000;
/** Refetch interval of the admin all-files table. */
export const ADMIN_FILES_REFETCH_MS = 2_000;

/** A progress stream is done once completed/count exceeds this (strictly greater). */
export const PROGRESS_DONE_THRESHOLD = 0.999;

/** The workflow steps of a file, in order (the server's `step` field). */
export const WORKFLOW_STEPS: readonly WorkflowStep[] = Object.values(WorkflowStep);
export type { WorkflowStep };
/** The step assumed when the server's answer has none. */
export const DEFAULT_WORKFLOW_STEP: WorkflowStep = 'review';
/** The stepper's labels for each step. */
export const WORKFLOW_STEP_LABELS: Readonly<Record<WorkflowStep, string>> = {
  robot: 'System Checks',
  review: 'Review',
  assign: 'Assign',
  send: 'Send',
  grading: 'Grading',
  return: 'Return',
};
/** "Delete File" is offered only at these steps (steps 0 to 3, robot through send): the contract's DeletableStep. */
export const DELETE_ALLOWED_STEPS: readonly WorkflowStep[] = Object.values(DeletableStep);

/** answer_sheet_page_length of a service-center upload: 0 = split by QR code, 1/2 = one- or two-page intro sheets. */
export const ANSWER_SHEET_PAGE_LENGTHS: readonly AnswerSheetPageLength[] = Object.values(AnswerSheetPageLength);
export type { AnswerSheetPageLength };
export const DEFAULT_ANSWER_SHEET_PAGE_LENGTH: AnswerSheetPageLength = 0;
export const ANSWER_SHEET_PAGE_LENGTH_LABELS: Readonly<Record<AnswerSheetPageLength, string>> = {
  0: 'QR code',
  1: 'Single-page intro',
  2: 'Two-page intro',
};

/** Default list page size (skip/limit); the print list uses skip 0, limit 10. */
export const DEFAULT_PAGE_SIZE = 10;
/** Student search by id: limit 20, and 0 when the search box is empty. */
export const STUDENT_SEARCH_LIMIT = 20;
/** Thumbnail sizes: lists use the small one, page items the large one. */
export const THUMBNAIL_SIZE_LIST = 500;
export const THUMBNAIL_SIZE_PAGE_ITEM = 1_000;
/** A congregation WBS code must be longer than this. */
export const WBS_CODE_MIN_LENGTH_EXCLUSIVE = propertyLimits.CongregationCreate.wbs_code.minLength - 1;

/** Request cache: duplicate requests merged within 2 s, error retry on a 5 s base, focus refresh throttled to 5 s. */
export const REQUEST_DEDUPE_MS = 2_000;
export const REQUEST_ERROR_RETRY_BASE_MS = 5_000;
export const REQUEST_FOCUS_THROTTLE_MS = 5_000;

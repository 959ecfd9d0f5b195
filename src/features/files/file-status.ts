// How a file's state reads in the files tables (spec §4): the admin's status icon and the
// coordinator's congregation file state. Pure functions, in the spec's order of rules.
import type { File, FileStateFilter } from '../../../generated/hooks/model';

export type Severity = 'success' | 'info' | 'warning' | 'danger';

export interface AdminFileStatus {
  key: 'processing' | 'failed' | 'downloaded' | 'archived' | 'grading' | 'graded' | 'printed' | 'ready_to_send';
  label: string;
  /** A PrimeIcons class. */
  icon: string;
  severity: Severity;
}

type StatusFields = Pick<File, 'process_status' | 'file_status' | 'grading_complete' | 'printed'>;

const ADMIN_STATUSES = {
  processing: { key: 'processing', label: 'Processing', icon: 'pi-spin pi-spinner', severity: 'info' },
  failed: { key: 'failed', label: 'Failed', icon: 'pi-times-circle', severity: 'danger' },
  downloaded: { key: 'downloaded', label: 'Downloaded', icon: 'pi-download', severity: 'success' },
  archived: { key: 'archived', label: 'Archived', icon: 'pi-box', severity: 'info' },
  grading: { key: 'grading', label: 'Grading', icon: 'pi-pencil', severity: 'warning' },
  graded: { key: 'graded', label: 'All responses graded', icon: 'pi-check-circle', severity: 'success' },
  printed: { key: 'printed', label: 'Printed but not returned', icon: 'pi-print', severity: 'warning' },
  ready_to_send: { key: 'ready_to_send', label: 'Ready to send', icon: 'pi-send', severity: 'info' },
} as const satisfies Record<AdminFileStatus['key'], AdminFileStatus>;

/**
 * The admin table's status icon, first rule that applies: process_status pending → Processing;
 * failed; file_status downloaded, archived, grading; grading_complete → all responses graded;
 * printed → printed but not returned; otherwise ready to send.
 */
export function adminFileStatus(file: StatusFields): AdminFileStatus {
  if (file.process_status === 'pending') return ADMIN_STATUSES.processing;
  if (file.process_status === 'failed') return ADMIN_STATUSES.failed;
  if (file.file_status === 'downloaded') return ADMIN_STATUSES.downloaded;
  if (file.file_status === 'archived') return ADMIN_STATUSES.archived;
  if (file.file_status === 'grading') return ADMIN_STATUSES.grading;
  if (file.grading_complete) return ADMIN_STATUSES.graded;
  if (file.printed) return ADMIN_STATUSES.printed;
  return ADMIN_STATUSES.ready_to_send;
}

export interface CongregationFileState {
  label: string;
  severity: Severity;
  /** The alert a failed file carries beside its label. */
  alert?: string;
}

export const FAILED_TO_PROCESS_ALERT = 'Failed to process correctly';

const CONGREGATION_STATES = {
  unprinted: { label: 'Unprinted', severity: 'warning' },
  grading: { label: 'Grading', severity: 'warning' },
  partially_graded: { label: 'Partially Graded', severity: 'danger' },
  graded: { label: 'Graded', severity: 'success' },
  returned: { label: 'Returned', severity: 'success' },
} as const satisfies Record<NonNullable<File['congregation_file_status']>, CongregationFileState>;

/**
 * The coordinator's label of a file: Processing (warning) while pending; "Incomplete" with the
 * alert "Failed to process correctly" when processing failed; "Completed" once downloaded,
 * archived or fully graded; otherwise the congregation's state: Unprinted and Grading warnings,
 * Partially Graded an error, Graded and Returned successes.
 */
export function congregationFileState(
  file: StatusFields & Pick<File, 'congregation_file_status'>,
): CongregationFileState {
  if (file.process_status === 'pending') return { label: 'Processing', severity: 'warning' };
  if (file.process_status === 'failed') return { label: 'Incomplete', severity: 'danger', alert: FAILED_TO_PROCESS_ALERT };
  if (file.file_status === 'downloaded' || file.file_status === 'archived' || file.grading_complete) {
    return { label: 'Completed', severity: 'success' };
  }
  const state = file.congregation_file_status ?? 'unprinted';
  return CONGREGATION_STATES[state];
}

/** The admin status filter's choices (spec §4), sent as file_state. */
export const FILE_STATE_FILTER_OPTIONS: readonly { value: FileStateFilter; label: string }[] = [
  { value: 'processing', label: 'Processing' },
  { value: 'failed', label: 'Failed' },
  { value: 'review', label: 'Review' },
  { value: 'ready_to_send', label: 'Ready to Send' },
  { value: 'grading', label: 'Grading' },
  { value: 'return', label: 'Return' },
  { value: 'downloaded', label: 'Downloaded' },
  { value: 'archived', label: 'Archived' },
];

export function isFileStateFilter(value: string | undefined): value is FileStateFilter {
  return FILE_STATE_FILTER_OPTIONS.some((option) => option.value === value);
}

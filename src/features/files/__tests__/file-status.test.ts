// The files tables' state rules (spec §4): the admin's status icon, in the spec's order, and the
// coordinator's congregation file states with their labels and severities.
import { describe, expect, it } from 'vitest';
import type { File } from '../../../../generated/hooks/model';
import {
  FAILED_TO_PROCESS_ALERT,
  FILE_STATE_FILTER_OPTIONS,
  adminFileStatus,
  congregationFileState,
  isFileStateFilter,
} from '../file-status';

type Fields = Pick<File, 'process_status' | 'file_status' | 'grading_complete' | 'printed' | 'congregation_file_status'>;
const base: Fields = { process_status: 'success', file_status: null, grading_complete: false, printed: false, congregation_file_status: null };
const file = (overrides: Partial<Fields>): Fields => ({ ...base, ...overrides });

describe('adminFileStatus', () => {
  it.each([
    [{ process_status: 'pending' }, 'processing', 'Processing'],
    [{ process_status: 'failed' }, 'failed', 'Failed'],
    [{ file_status: 'downloaded' }, 'downloaded', 'Downloaded'],
    [{ file_status: 'archived' }, 'archived', 'Archived'],
    [{ file_status: 'grading' }, 'grading', 'Grading'],
    [{ grading_complete: true }, 'graded', 'All responses graded'],
    [{ printed: true }, 'printed', 'Printed but not returned'],
    [{}, 'ready_to_send', 'Ready to send'],
  ] as const)('%o → %s', (overrides, key, label) => {
    expect(adminFileStatus(file(overrides))).toMatchObject({ key, label });
  });

  it('applies the rules in the spec\'s order', () => {
    // pending wins over everything after it.
    expect(adminFileStatus(file({ process_status: 'pending', file_status: 'archived', grading_complete: true, printed: true })).key).toBe('processing');
    expect(adminFileStatus(file({ process_status: 'failed', file_status: 'downloaded' })).key).toBe('failed');
    // file_status before grading_complete, grading_complete before printed.
    expect(adminFileStatus(file({ file_status: 'grading', grading_complete: true, printed: true })).key).toBe('grading');
    expect(adminFileStatus(file({ grading_complete: true, printed: true })).key).toBe('graded');
  });
});

describe('congregationFileState', () => {
  it.each([
    [{ congregation_file_status: 'unprinted' }, 'Unprinted', 'warning'],
    [{ congregation_file_status: 'grading' }, 'Grading', 'warning'],
    [{ congregation_file_status: 'partially_graded' }, 'Partially Graded', 'danger'],
    [{ congregation_file_status: 'graded' }, 'Graded', 'success'],
    [{ congregation_file_status: 'returned' }, 'Returned', 'success'],
    [{ process_status: 'pending', congregation_file_status: 'graded' }, 'Processing', 'warning'],
    [{ process_status: 'failed' }, 'Incomplete', 'danger'],
    [{ file_status: 'downloaded', congregation_file_status: 'grading' }, 'Completed', 'success'],
    [{ file_status: 'archived' }, 'Completed', 'success'],
    [{ grading_complete: true, congregation_file_status: 'partially_graded' }, 'Completed', 'success'],
  ] as const)('%o → %s (%s)', (overrides, label, severity) => {
    expect(congregationFileState(file(overrides))).toMatchObject({ label, severity });
  });

  it('gives a failed file the alert "Failed to process correctly", and no other file', () => {
    expect(congregationFileState(file({ process_status: 'failed' })).alert).toBe(FAILED_TO_PROCESS_ALERT);
    expect(FAILED_TO_PROCESS_ALERT).toBe('Failed to process correctly');
    expect(congregationFileState(file({ congregation_file_status: 'graded' })).alert).toBeUndefined();
  });
});

describe('the admin status filter', () => {
  it('offers the eight values of spec §4, in order', () => {
    expect(FILE_STATE_FILTER_OPTIONS.map((option) => option.value)).toEqual([
      'processing',
      'failed',
      'review',
      'ready_to_send',
      'grading',
      'return',
      'downloaded',
      'archived',
    ]);
    expect(isFileStateFilter('review')).toBe(true);
    expect(isFileStateFilter('printed')).toBe(false);
    expect(isFileStateFilter(undefined)).toBe(false);
  });
});

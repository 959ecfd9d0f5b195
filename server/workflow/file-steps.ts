// Where a file stands in its workflow (spec §4): the step's names, the steps at which a file may
// still be deleted, and the /steps answer. The step itself is decided in SQL, in one place:
// server/repositories/sql/file-steps.ts (its header says what each step means).
import type { Schemas } from '../contract/types';
import type { FileStepRow } from '../repositories/sql/file-steps';

export type FileStepName = Schemas['WorkflowStep'];
export type FileStateFilter = Schemas['FileStateFilter'];

/** Steps at which a file may still be deleted (spec §9: steps 0 to 3). */
export const DELETABLE_STEPS: readonly FileStepName[] = ['robot', 'review', 'assign', 'send'];

/** The /steps answer for one file: its step and the Grading step's n of m. */
export function fileStepOf(row: FileStepRow): Schemas['FileStep'] {
  return {
    step: row.step,
    complete: Number(row.complete),
    total: Number(row.total),
    prepped: row.prepped,
    downloaded: row.downloaded === true,
    file_status: row.file_status,
  };
}

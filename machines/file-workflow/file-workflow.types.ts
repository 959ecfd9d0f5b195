// The file workflow's types: its input, context and events, and what its actors take (the
// hierarchy is described in file-workflow.machine.ts). FileStep and ProgressMessage come from the contract.
import type { WorkflowStep } from '../constants';
import type { FileStatus, FileStep, ProgressMessage } from '../../generated/hooks/model';

export type { WorkflowStep } from '../constants';
/** The answer of GET /api/file/{file_id}/steps, and one message of a progress stream. */
export type { FileStep, ProgressMessage };

export interface FileWorkflowInput {
  fileId: string;
}

export interface FileWorkflowContext {
  fileId: string;
  /** The server's step (review until the first answer). */
  currentStep: WorkflowStep;
  /** The step the stepper shows: the current one, or an earlier one chosen with VIEW_STEP. */
  viewedStep: WorkflowStep;
  /** Graded responses and all responses, for "n of m responses graded". */
  complete: number;
  total: number;
  /** The return file is generated: DOWNLOAD and REGENERATE are enabled. */
  prepped: boolean;
  /** The return file was downloaded: ARCHIVE is enabled. */
  downloaded: boolean;
  fileStatus: FileStatus | null;
  /** The last progress message of the current step's job; null before one arrives. */
  progress: ProgressMessage | null;
  /** The error of the last failed call (already logged); null otherwise. */
  error: unknown;
}

export type FileWorkflowEvent =
  | { type: 'REFRESH' }
  | { type: 'RETRY' }
  | { type: 'VIEW_STEP'; step: WorkflowStep }
  | ({ type: 'PROGRESS' } & ProgressMessage)
  | { type: 'SEND' }
  /** sides 'one': the return file's one-sided variant (default: made for double-sided printers). */
  | { type: 'DOWNLOAD'; sides?: 'two' | 'one' }
  | { type: 'REGENERATE' }
  | { type: 'ARCHIVE' };

/** Input of every actor of this machine. */
export interface FileActorInput {
  fileId: string;
  /** downloadReturnFile: which layout of the return file. */
  sides?: 'two' | 'one';
}

// The file workflow's rules as pure functions: which step the server means, how the stepper
// draws each step, when a file may be deleted and when a progress stream is done.
import {
  DEFAULT_WORKFLOW_STEP,
  DELETE_ALLOWED_STEPS,
  PROGRESS_DONE_THRESHOLD,
  WORKFLOW_STEPS,
  type WorkflowStep,
} from '../constants';
import type { ProgressMessage } from './file-workflow.types';

export const SEND_READY_MESSAGE = 'Ready to send to study helpers!';

/** "n of m responses graded" of the Grading step. */
export function gradingProgressText(complete: number, total: number): string {
  return `${complete} of ${total} responses graded`;
}

/** The server's step, or review when it is missing or unknown. */
export function resolveWorkflowStep(step: unknown): WorkflowStep {
  return (WORKFLOW_STEPS as readonly unknown[]).includes(step) ? (step as WorkflowStep) : DEFAULT_WORKFLOW_STEP;
}

/** How the stepper draws `step` when the file is at `current`: earlier steps show as completed. */
export function stepState(current: WorkflowStep, step: WorkflowStep): 'completed' | 'current' | 'upcoming' {
  const difference = WORKFLOW_STEPS.indexOf(step) - WORKFLOW_STEPS.indexOf(current);
  if (difference < 0) return 'completed';
  return difference === 0 ? 'current' : 'upcoming';
}

/** "Delete File" is offered only at robot, review, assign and send. */
export function canDeleteFile(step: WorkflowStep): boolean {
  return DELETE_ALLOWED_STEPS.includes(step);
}

/** A progress stream is done when completed/count exceeds 0.999. */
export function isProgressDone(progress: Pick<ProgressMessage, 'completed' | 'count'>): boolean {
  return progress.count > 0 && progress.completed / progress.count > PROGRESS_DONE_THRESHOLD;
}

// The six-step stepper of the file detail (spec §4): System Checks, Review, Assign, Send, Grading,
// Return, drawn from the file-workflow machine's state, with the current step's panel below.
// Steps before the current one show as completed and can be looked at again.
import { useState } from 'react';
import { ConfirmDialog } from 'primereact/confirmdialog';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Message } from 'primereact/message';
import { ProgressBar } from 'primereact/progressbar';
import { ProgressSpinner } from 'primereact/progressspinner';
import { useAssignFileAnswerSheets } from '../../../generated/hooks/answer-sheets/answer-sheets';
import type { FileStats } from '../../../generated/hooks/model';
import {
  SEND_READY_MESSAGE,
  gradingProgressText,
  stepState,
} from '../../../machines/file-workflow/file-workflow.rules';
import type { FileWorkflowEvent } from '../../../machines/file-workflow/file-workflow.types';
import { WORKFLOW_STEPS, WORKFLOW_STEP_LABELS, type WorkflowStep } from '../../../machines/constants';
import { CongregationPicker } from '../../components/pickers/congregation-picker';
import { StatusTag } from '../../components/status-tag/status-tag';
import { progressPercent } from '../../components/progress/progress-stream';
import { FILE_CONGREGATIONS_FIXED, isSheetAlreadySent } from '../../lib/sent-response';
import { ActionItemLinks, actionItems } from './action-items';
import { invalidateAnswerSheetsAndFiles } from '../../lib/queries';
import { downloadPdf } from '../../lib/api-client';
import { getDownloadGradedFileUrl } from '../../../generated/hooks/files/files';
import type { FileWorkflowSnapshot, ReturnNotice } from './use-file-workflow';

export const STEPS_LOAD_FAILED = "The file's steps could not be loaded.";
export const SEND_FAILED = 'Sending failed. Please try again.';
export const SENT_TEXT = 'Sent to study helpers.';
export const ARCHIVED_TEXT = 'Archived';
export const RETURN_PREPARING = 'Preparing the return file…';
export const ASSIGN_TEXT = 'Assign every response of this file to a congregation.';
export const ASSIGN_WAITING_TEXT = 'Waiting for the responses to be assigned.';
export const REVIEW_TEXT = 'Check these warnings on the responses:';
export const REVIEW_DONE_TEXT = 'Nothing left to review.';
export const GRADING_TEXT = 'The study helpers are grading.';
export const REGENERATING_TEXT = 'Making the return file again…';
export const REGENERATED_TEXT = 'The return file was made again: download it to have the newest.';
export const REGENERATE_FAILED_TEXT = 'The return file could not be made again. Please try again.';
export const ARCHIVE_QUESTION =
  'Archive this file? Its work is done: it leaves the files in progress and nothing more can be done to it. Its return file can still be downloaded.';
export const ARCHIVED_NOW_TEXT = 'The file is archived. Its return file can still be downloaded here.';
export const DOWNLOAD_FAILED_TEXT = 'The return file could not be downloaded. Please try again.';

const NOTICE_MESSAGE: Record<Exclude<ReturnNotice, null | 'archived'>, { severity: 'info' | 'success' | 'error'; text: string }> = {
  regenerating: { severity: 'info', text: REGENERATING_TEXT },
  regenerated: { severity: 'success', text: REGENERATED_TEXT },
  regenerate_failed: { severity: 'error', text: REGENERATE_FAILED_TEXT },
};

/** What an earlier step says when it is looked at again. */
const COMPLETED_STEP_TEXT: Readonly<Record<WorkflowStep, string>> = {
  robot: 'System checks finished.',
  review: 'Review finished.',
  assign: 'Every response was assigned.',
  send: 'Sent to study helpers.',
  grading: 'Grading finished.',
  return: 'Return file ready.',
};

/** Once the file is sent (grading on), looking at Assign again also says why it cannot change. */
function completedStepText(step: WorkflowStep, currentStep: WorkflowStep, archived: boolean): string {
  const sent = archived || currentStep === 'grading' || currentStep === 'return';
  return step === 'assign' && sent ? `${COMPLETED_STEP_TEXT.assign} ${FILE_CONGREGATIONS_FIXED}` : COMPLETED_STEP_TEXT[step];
}

type Send = (event: FileWorkflowEvent) => void;

function JobProgress({ progress, label }: { progress: FileWorkflowSnapshot['context']['progress']; label: string }) {
  if (!progress) return null;
  return (
    <div className="step-progress">
      <span>{`${label}: ${progress.completed} of ${progress.count}`}</span>
      <ProgressBar value={progressPercent(progress)} aria-label={label} style={{ height: '8px' }} showValue={false} />
    </div>
  );
}

function AssignPanel({ fileId, send }: { fileId: string; send: Send }) {
  const queryClient = useQueryClient();
  const [congregation, setCongregation] = useState<string | undefined>(undefined);
  const assign = useAssignFileAnswerSheets();
  // Sent meanwhile (another tab or admin): the server refused, and nothing here may change now.
  const fixed = isSheetAlreadySent(assign.error);
  return (
    <div className="step-panel-body">
      <p>{ASSIGN_TEXT}</p>
      <div className="step-assign">
        <CongregationPicker value={congregation} onChange={setCongregation} placeholder="Choose a congregation" disabled={fixed} />
        <Button
          type="button"
          label="Assign"
          disabled={!congregation || assign.isPending || fixed}
          loading={assign.isPending}
          onClick={() =>
            congregation &&
            assign.mutate(
              { data: { assigned_group: congregation }, params: { file: fileId } },
              {
                onSuccess: () => {
                  void invalidateAnswerSheetsAndFiles(queryClient);
                  send({ type: 'REFRESH' });
                },
                // A 409 SHEET_ALREADY_SENT stays on screen (the line below) until the steps are read again.
                onError: (error) => console.error('assign:', error),
              },
            )
          }
        />
      </div>
      {fixed && <p className="step-assign-fixed">{FILE_CONGREGATIONS_FIXED}</p>}
    </div>
  );
}

function ReturnPanel({ snapshot, send, notice }: { snapshot: FileWorkflowSnapshot; send: Send; notice: ReturnNotice }) {
  const { prepped, downloaded, progress } = snapshot.context;
  const busy = !snapshot.matches({ return: 'idle' });
  const [asking, setAsking] = useState(false);
  const said = notice !== null && notice !== 'archived' ? NOTICE_MESSAGE[notice] : null;
  return (
    <div className="step-panel-body">
      {said && <Message severity={said.severity} text={said.text} role="status" />}
      {!prepped && (
        <>
          <p>{RETURN_PREPARING}</p>
          <JobProgress progress={progress} label="Return file" />
        </>
      )}
      <div className="form-actions step-actions">
        <Button
          type="button"
          label="Download"
          icon="pi pi-download"
          disabled={!prepped || busy}
          loading={snapshot.matches({ return: 'downloading' })}
          onClick={() => send({ type: 'DOWNLOAD' })}
          title="Made for double-sided printers: every student starts on a new sheet"
        />
        <Button
          type="button"
          label="Download one-sided"
          icon="pi pi-file"
          outlined
          disabled={!prepped || busy}
          onClick={() => send({ type: 'DOWNLOAD', sides: 'one' })}
        />
        <Button
          type="button"
          label="Regenerate"
          icon="pi pi-refresh"
          outlined
          disabled={!prepped || busy}
          loading={snapshot.matches({ return: 'regenerating' })}
          onClick={() => send({ type: 'REGENERATE' })}
        />
        <Button
          type="button"
          label="Archive"
          icon="pi pi-box"
          severity="secondary"
          disabled={!downloaded || busy}
          loading={snapshot.matches({ return: 'archiving' })}
          onClick={() => setAsking(true)}
        />
      </div>
      <ConfirmDialog
        visible={asking}
        onHide={() => setAsking(false)}
        header="Archive File"
        message={ARCHIVE_QUESTION}
        icon="pi pi-box"
        acceptLabel="Archive"
        rejectLabel="Cancel"
        accept={() => send({ type: 'ARCHIVE' })}
      />
    </div>
  );
}

/** An archived file: its return file stays downloadable (the server keeps it archived). */
function ArchivedPanel({ fileId, notice, readOnly }: { fileId: string; notice: ReturnNotice; readOnly: boolean }) {
  const [failed, setFailed] = useState(false);
  const download = (sides?: 'one') => {
    setFailed(false);
    downloadPdf(getDownloadGradedFileUrl(fileId, sides ? { sides } : undefined), fileId).catch((error: unknown) => {
      console.error('download failed:', error);
      setFailed(true);
    });
  };
  return (
    <div className="step-panel-body">
      <StatusTag value={ARCHIVED_TEXT} severity="info" className="step-archived" />
      {notice === 'archived' && <Message severity="success" text={ARCHIVED_NOW_TEXT} role="status" />}
      {!readOnly && (
        <div className="form-actions step-actions">
          <Button type="button" label="Download" icon="pi pi-download" onClick={() => download()} />
          <Button type="button" label="Download one-sided" icon="pi pi-file" outlined onClick={() => download('one')} />
        </div>
      )}
      {failed && <Message severity="error" text={DOWNLOAD_FAILED_TEXT} />}
    </div>
  );
}

function SendPanel({ snapshot, send }: { snapshot: FileWorkflowSnapshot; send: Send }) {
  const locked = snapshot.matches({ send: { button: 'sendLocked' } });
  const sending = snapshot.matches({ send: { request: 'sending' } });
  return (
    <div className="step-panel-body">
      <p className="step-send-ready">{SEND_READY_MESSAGE}</p>
      <Button type="button" label="Send" icon="pi pi-send" link disabled={locked || sending} loading={sending} onClick={() => send({ type: 'SEND' })} />
      {snapshot.matches({ send: { request: 'sent' } }) && <Message severity="success" text={SENT_TEXT} />}
      {snapshot.matches({ send: { request: 'failed' } }) && <Message severity="error" text={SEND_FAILED} />}
      <JobProgress progress={snapshot.context.progress} label="Sending" />
    </div>
  );
}

function CurrentStepPanel({
  snapshot,
  send,
  stats,
  readOnly,
  notice,
}: {
  snapshot: FileWorkflowSnapshot;
  send: Send;
  stats: FileStats | undefined;
  readOnly: boolean;
  notice: ReturnNotice;
}) {
  const { fileId, complete, total, progress } = snapshot.context;
  if (snapshot.matches('loading')) {
    return (
      <div className="step-panel-body" role="status" aria-label="Loading steps">
        <ProgressSpinner style={{ width: '2rem', height: '2rem' }} />
      </div>
    );
  }
  if (snapshot.matches('loadFailed')) {
    return (
      <div className="step-panel-body">
        <Message severity="error" text={STEPS_LOAD_FAILED} />
        <Button type="button" label="Try again" text onClick={() => send({ type: 'RETRY' })} />
      </div>
    );
  }
  if (snapshot.matches('robot')) {
    return (
      <div className="step-panel-body">
        <p>Checking the file's pages…</p>
        <JobProgress progress={progress} label="Pages checked" />
      </div>
    );
  }
  if (snapshot.matches('review')) {
    const hasWarnings = stats !== undefined && actionItems(stats).some((item) => item.severity === 'warning');
    return (
      <div className="step-panel-body">
        <p>{stats && !hasWarnings ? REVIEW_DONE_TEXT : REVIEW_TEXT}</p>
        <ActionItemLinks fileId={fileId} stats={stats} label="Review warnings" />
      </div>
    );
  }
  if (snapshot.matches('assign')) {
    return readOnly ? <p className="step-panel-body">{ASSIGN_WAITING_TEXT}</p> : <AssignPanel fileId={fileId} send={send} />;
  }
  if (snapshot.matches('send')) {
    return readOnly ? <p className="step-panel-body">{SEND_READY_MESSAGE}</p> : <SendPanel snapshot={snapshot} send={send} />;
  }
  if (snapshot.matches('grading')) {
    return (
      <div className="step-panel-body">
        <p>{GRADING_TEXT}</p>
        <p className="step-grading-count">{gradingProgressText(complete, total)}</p>
        <ProgressBar
          value={total > 0 ? Math.round((complete / total) * 100) : 0}
          showValue={false}
          aria-label="Grading progress"
          style={{ height: '8px' }}
        />
      </div>
    );
  }
  if (snapshot.matches('return')) {
    return readOnly ? <p className="step-panel-body">{gradingProgressText(complete, total)}</p> : <ReturnPanel snapshot={snapshot} send={send} notice={notice} />;
  }
  return <ArchivedPanel fileId={fileId} notice={notice} readOnly={readOnly} />;
}

export interface FileWorkflowStepperProps {
  snapshot: FileWorkflowSnapshot;
  send: Send;
  stats: FileStats | undefined;
  /** Without the step actions (assign, send, download, regenerate, archive): non-admins. */
  readOnly?: boolean;
  /** What the last Return action did. */
  notice?: ReturnNotice;
}

export function FileWorkflowStepper({ snapshot, send, stats, readOnly = false, notice = null }: FileWorkflowStepperProps) {
  const { currentStep, viewedStep } = snapshot.context;
  const archived = snapshot.matches('archived');
  return (
    <section className="file-workflow" aria-label="Workflow">
      <div className="file-workflow-header">
        <ol className="file-steps">
          {WORKFLOW_STEPS.map((step, index) => {
            const state = archived ? 'completed' : stepState(currentStep, step);
            return (
              <li key={step} className={`file-step file-step-${state}${step === viewedStep ? ' file-step-viewed' : ''}`} data-state={state}>
                <button
                  type="button"
                  className="file-step-button"
                  aria-label={`${WORKFLOW_STEP_LABELS[step]} step`}
                  aria-current={step === currentStep ? 'step' : undefined}
                  aria-pressed={step === viewedStep}
                  disabled={state === 'upcoming'}
                  onClick={() => send({ type: 'VIEW_STEP', step })}
                >
                  <span className="file-step-marker" aria-hidden="true">
                    {state === 'completed' ? <span className="pi pi-check" /> : index + 1}
                  </span>
                  <span className="file-step-label">{WORKFLOW_STEP_LABELS[step]}</span>
                </button>
              </li>
            );
          })}
        </ol>
        <Button
          type="button"
          icon="pi pi-refresh"
          text
          rounded
          aria-label="Refresh steps"
          disabled={snapshot.matches('loading')}
          onClick={() => send({ type: 'REFRESH' })}
        />
      </div>
      {viewedStep !== currentStep && (
        <div className="file-step-viewed-note" role="note">
          <span>{`${WORKFLOW_STEP_LABELS[viewedStep]}: ${completedStepText(viewedStep, currentStep, archived)}`}</span>
          <Button type="button" label="Back to current step" text size="small" onClick={() => send({ type: 'VIEW_STEP', step: currentStep })} />
        </div>
      )}
      <div className="file-step-panel">
        <h2 className="file-step-title">{WORKFLOW_STEP_LABELS[currentStep]}</h2>
        <CurrentStepPanel snapshot={snapshot} send={send} stats={stats} readOnly={readOnly} notice={notice} />
      </div>
    </section>
  );
}

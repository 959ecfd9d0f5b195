// Runs the file-workflow machine for one file (spec §4 "File workflow step"): supplies its actors
// (the HTTP calls of spec §7) and feeds it the progress streams of the current step's job. The
// machine decides what happens; this hook only does the calls and passes their results on.
import { useCallback, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useActorRef, useSelector } from '@xstate/react';
import { fromPromise, type SnapshotFrom } from 'xstate';
import {
  archiveFile,
  getDownloadGradedFileUrl,
  getFileSteps,
  regenerateReturnFile,
  sendFile,
} from '../../../generated/hooks/files/files';
import type { FileStep, JobType, ProgressMessage } from '../../../generated/hooks/model';
import { fileWorkflowMachine } from '../../../machines/file-workflow/file-workflow.machine';
import type { FileActorInput } from '../../../machines/file-workflow/file-workflow.types';
import { isProgressFinished, progressStreamUrl, useProgressStream } from '../../components/progress/progress-stream';
import { downloadPdf } from '../../lib/api-client';
import { invalidateFile } from '../../lib/queries';

export type FileWorkflowSnapshot = SnapshotFrom<typeof fileWorkflowMachine>;

/** What the last Return action did, for its message: every action ends with one (issue 31). */
export type ReturnNotice = 'regenerating' | 'regenerated' | 'regenerate_failed' | 'archived' | null;

/** The job whose progress a step follows. */
const STEP_JOBS: Partial<Record<string, JobType>> = {
  send: 'send_to_study_helpers',
  return: 'generate_return_file_requested',
};

export function useFileWorkflow(fileId: string) {
  const queryClient = useQueryClient();
  // The run a step's job reports under: the started job's run_id, the file id before one starts.
  const [runs, setRuns] = useState<{ send: string; return: string; attempt: number }>({
    send: fileId,
    return: fileId,
    attempt: 0,
  });
  const [notice, setNotice] = useState<ReturnNotice>(null);

  const actor = useActorRef(
    fileWorkflowMachine.provide({
      actors: {
        // No abort signal: React's strict mode stops and restarts the actor at mount, and an
        // aborted first request would otherwise land as a failed load.
        fetchSteps: fromPromise<FileStep, FileActorInput>(({ input }) => getFileSteps(input.fileId)),
        sendFile: fromPromise<unknown, FileActorInput>(async ({ input }) => {
          const job = await sendFile(input.fileId);
          setRuns((current) => ({ ...current, send: job.run_id || input.fileId, attempt: current.attempt + 1 }));
          void invalidateFile(queryClient, input.fileId);
          return job;
        }),
        downloadReturnFile: fromPromise<unknown, FileActorInput>(async ({ input }) => {
          const name = await downloadPdf(getDownloadGradedFileUrl(input.fileId, input.sides === 'one' ? { sides: 'one' } : undefined), input.fileId);
          void invalidateFile(queryClient, input.fileId);
          return name;
        }),
        regenerateFile: fromPromise<unknown, FileActorInput>(async ({ input }) => {
          setNotice('regenerating');
          const job = await regenerateReturnFile(input.fileId).catch((error: unknown) => {
            setNotice('regenerate_failed');
            throw error;
          });
          setRuns((current) => ({ ...current, return: job.run_id || input.fileId, attempt: current.attempt + 1 }));
          void invalidateFile(queryClient, input.fileId);
          return job;
        }),
        archiveFile: fromPromise<unknown, FileActorInput>(async ({ input }) => {
          const file = await archiveFile(input.fileId);
          setNotice('archived');
          void invalidateFile(queryClient, input.fileId);
          return file;
        }),
      },
    }),
    { input: { fileId } },
  );
  const snapshot = useSelector(actor, (state) => state);

  // The stream follows the server's step (which stays put while steps reload), so a refresh
  // does not reopen it; a newly started job reopens it.
  const step = snapshot.context.currentStep;
  const job = STEP_JOBS[step];
  const runId = step === 'send' ? runs.send : runs.return;
  const forward = useCallback(
    (message: ProgressMessage) => {
      actor.send({ type: 'PROGRESS', ...message });
      // The job itself changed the file (sent date, return file): what was loaded when it
      // started is out of date now.
      if (isProgressFinished(message)) {
        void invalidateFile(queryClient, fileId);
        setNotice((current) => (current !== 'regenerating' ? current : message.status === 'failed' ? 'regenerate_failed' : 'regenerated'));
      }
    },
    [actor, queryClient, fileId],
  );
  useProgressStream(job ? progressStreamUrl(job, runId) : null, forward, runs.attempt);

  return { actor, snapshot, send: actor.send, notice };
}

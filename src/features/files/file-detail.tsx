// /file/{file_id}/ (spec §2, §4, §5): back link "Back to All Files"; the six-step workflow
// stepper; left column: file menu, "Action Items" (the file's warnings, linking to its responses),
// the file's facts, "Delete File" (only while the step allows it) and "Take Back" (a sent file
// not printed yet goes back to the Send step); right column: the editable
// name, the service center pickers and the cover sheet (or the processing state). Admins edit;
// others read.
import { useCallback, useState } from 'react';
import { useParams } from 'react-router-dom';
import { useQueryClient, useQuery } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Message } from 'primereact/message';
import type { File, ProgressMessage } from '../../../generated/hooks/model';
import { canDeleteFile } from '../../../machines/file-workflow/file-workflow.rules';
import { isProgressFinished, progressStreamUrl, useProgressStream } from '../../components/progress/progress-stream';
import { Loading } from '../../components/ui/loading';
import { PageHeader } from '../../components/ui/page-header';
import { routes } from '../../config/paths';
import { ApiError } from '../../lib/api-client';
import { isRefused, notAvailable } from '../../lib/refusal';
import { isScanningAdmin, useCurrentUser } from '../../lib/auth';
import { ActionItemLinks, actionPhaseOf } from './action-items';
import { BackToFiles } from './back-to-files';
import { DeleteFileDialog } from './delete-file-dialog';
import { FileFacts } from './file-facts';
import { FileNameForm } from './file-name-form';
import { FileOrganisationForm } from './file-organisation-form';
import { FileProcessing } from './file-processing';
import { FileTabs } from '../../components/file-tabs/file-tabs';
import { ReviewComplete } from '../../components/review-complete/review-complete';
import { fileQueries, invalidateFile } from '../../lib/queries';
import { FileWorkflowStepper } from './file-workflow-stepper';
import { offersPacket, PrintPacketButton } from './print-packet-button';
import { TakeBackFile } from './take-back-file';
import { useFileWorkflow } from './use-file-workflow';
import './files.css';

export const FILE_NOT_FOUND = '404 not found';

function FileDetailContent({ fileId, file }: { fileId: string; file: File }) {
  const user = useCurrentUser();
  const admin = isScanningAdmin(user);
  const queryClient = useQueryClient();
  const stats = useQuery({ ...fileQueries.stats(fileId), enabled: file.process_status === 'success' });
  const workflow = useFileWorkflow(fileId);
  const [deleting, setDeleting] = useState(false);
  const { snapshot, send } = workflow;

  // Processing (System Checks) reports on the upload job's stream; when it is done the file is
  // read again and the stepper hears of it.
  const processing = file.process_status === 'pending' || snapshot.context.currentStep === 'robot';
  const onProcessMessage = useCallback(
    (message: ProgressMessage) => {
      send({ type: 'PROGRESS', ...message });
      if (isProgressFinished(message)) void invalidateFile(queryClient, fileId);
    },
    [send, queryClient, fileId],
  );
  const progress = useProgressStream(
    processing ? progressStreamUrl('process_service_center_upload', fileId) : null,
    onProcessMessage,
  );

  const loaded = !snapshot.matches('loading') && !snapshot.matches('loadFailed');
  const deletable = admin && loaded && !snapshot.matches('archived') && canDeleteFile(snapshot.context.currentStep);
  const actionPhase = actionPhaseOf(loaded, snapshot.matches('archived'), snapshot.context.currentStep);
  const takeBack = admin && loaded && snapshot.context.currentStep === 'grading' && !file.printed;

  return (
    <>
      <BackToFiles />
      <PageHeader title={routes.file.title} subtitle={file.name} />
      {admin && <ReviewComplete fileId={fileId} linkToFile={false} step={loaded ? snapshot.context.currentStep : null} />}
      <FileWorkflowStepper snapshot={snapshot} send={send} stats={stats.data} readOnly={!admin} notice={workflow.notice} />
      <div className="file-detail-columns">
        <aside className="file-detail-left">
          <FileTabs fileId={fileId} />
          {!admin && offersPacket(file) && (
            <section className="file-card" aria-labelledby="packet-title">
              <h2 id="packet-title">Packet</h2>
              <PrintPacketButton file={file} />
            </section>
          )}
          <section className="file-card" aria-labelledby="action-items-title">
            <h2 id="action-items-title">Action Items</h2>
            {file.process_status === 'success' ? (
              <ActionItemLinks fileId={fileId} stats={stats.data} label="Action Items" phase={actionPhase} />
            ) : (
              <p className="action-items-none">No action items</p>
            )}
          </section>
          <section className="file-card" aria-labelledby="file-facts-title">
            <h2 id="file-facts-title">Details</h2>
            <FileFacts file={file} stats={stats.data} />
          </section>
          {deletable && (
            <Button type="button" label="Delete File" icon="pi pi-trash" severity="danger" outlined onClick={() => setDeleting(true)} />
          )}
          {takeBack && <TakeBackFile fileId={fileId} onTakenBack={() => send({ type: 'REFRESH' })} />}
        </aside>
        <div className="file-detail-right">
          {admin ? <FileNameForm file={file} /> : <h2 className="file-name">{file.name}</h2>}
          {admin && <FileOrganisationForm file={file} />}
          <FileProcessing file={file} progress={progress} onDelete={() => setDeleting(true)} canDelete={admin} />
        </div>
      </div>
      {admin && <DeleteFileDialog fileId={fileId} visible={deleting} onHide={() => setDeleting(false)} />}
    </>
  );
}

export default function FileDetail() {
  const fileId = useParams().file_id ?? '';
  const file = useQuery(fileQueries.detail(fileId));
  if (file.error) {
    const notFound = file.error instanceof ApiError && file.error.status === 404;
    return (
      <>
        <BackToFiles />
        {notFound ? (
          <PageHeader title={FILE_NOT_FOUND} />
        ) : isRefused(file.error) ? (
          <PageHeader title={notAvailable('file')} />
        ) : (
          <Message severity="error" text="The file could not be loaded. Please try again." />
        )}
      </>
    );
  }
  if (!file.data) return <Loading />;
  // A new file id starts a new workflow.
  return <FileDetailContent key={fileId} fileId={fileId} file={file.data} />;
}

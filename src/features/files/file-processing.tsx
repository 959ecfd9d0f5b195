// The right column's picture of a file's processing (spec §2 "/file/{file_id}/"): the cover sheet
// once processing succeeded; "Processing File" with the job's progress while pending; "Processing
// Failed" with a way to delete the file when it failed.
import { useState } from 'react';
import { Button } from 'primereact/button';
import { Message } from 'primereact/message';
import { ProgressBar } from 'primereact/progressbar';
import { getGetFileCoverUrl } from '../../../generated/hooks/files/files';
import type { File, ProgressMessage } from '../../../generated/hooks/model';
import { progressPercent } from '../../components/progress/progress-stream';

export const PROCESSING_FILE = 'Processing File';
export const PROCESSING_FAILED = 'Processing Failed';
export const NO_COVER_SHEET = 'This file has no cover sheet.';

export interface FileProcessingProps {
  file: File;
  progress: ProgressMessage | null;
  onDelete: () => void;
  /** Whether the user may delete the file (admins). */
  canDelete: boolean;
}

function CoverSheet({ file }: { file: File }) {
  // A file whose first page is an answer sheet has no cover sheet (the server answers 404).
  const [missing, setMissing] = useState(false);
  if (missing) return <p className="file-cover-missing">{NO_COVER_SHEET}</p>;
  return (
    <figure className="file-cover">
      <img src={getGetFileCoverUrl(file.id)} alt={`Cover sheet of ${file.name}`} loading="lazy" onError={() => setMissing(true)} />
    </figure>
  );
}

export function FileProcessing({ file, progress, onDelete, canDelete }: FileProcessingProps) {
  if (file.process_status === 'success') return <CoverSheet key={file.id} file={file} />;
  if (file.process_status === 'pending') {
    return (
      <div className="file-processing" role="status" aria-label={PROCESSING_FILE}>
        <h2>{PROCESSING_FILE}</h2>
        <ProgressBar
          value={progressPercent(progress)}
          mode={progress ? 'determinate' : 'indeterminate'}
          aria-label="Processing progress"
          style={{ height: '10px' }}
        />
        {progress && <p>{`${progress.completed} of ${progress.count} pages`}</p>}
      </div>
    );
  }
  return (
    <div className="file-processing-failed">
      <h2>{PROCESSING_FAILED}</h2>
      {file.failure_reason && <Message severity="error" text={file.failure_reason} />}
      {canDelete && (
        <>
          <p>Delete this file and upload it again.</p>
          <Button type="button" label="Delete this file" icon="pi pi-trash" severity="danger" outlined onClick={onDelete} />
        </>
      )}
    </div>
  );
}

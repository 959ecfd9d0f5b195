// The upload dialog as the upload-dialog machine's state says (both variants): the intro-file
// question, the choosing step (page length or study helper, drop area or camera, chosen files and
// photos, why they cannot go together), the offer
// to continue an unfinished upload of the same file, the upload in progress (bytes sent, percent,
// time left, Pause/Resume, Cancel, a dropped connection's retry), the server's processing, and
// the outcome (a cancelled upload says nothing of it was stored): success only when everything matched, a warning with the counts and the next step
// otherwise. It renders state and sends events; nothing else.
import { useEffect, useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import { Message } from 'primereact/message';
import { ProgressBar } from 'primereact/progressbar';
import { RadioButton } from 'primereact/radiobutton';
import {
  canUpload,
  isPhoto,
  isPhotoSelection,
  photosLabel,
  retrySecondsLeft,
  selectionProblem,
  uploadPercent,
  uploadSecondsLeft,
} from '../../../machines/upload-dialog/upload-dialog.rules';
import type { UploadDialogEvent } from '../../../machines/upload-dialog/upload-dialog.types';
import {
  ANSWER_SHEET_PAGE_LENGTHS,
  ANSWER_SHEET_PAGE_LENGTH_LABELS,
} from '../../../machines/constants';
import { bannerMessage } from '../../../machines/result-banner/result-banner.machine';
import { FileDropZone } from './file-drop-zone';
import { UploadFileList } from './upload-file-list';
import { PhotoThumbnails } from './photo-thumbnails';
import { SelectionProblemMessage } from './selection-problem';
import './upload.css';
import { isProgressFinished, progressPercent, progressStreamUrl, useProgressStream } from '../progress/progress-stream';
import { formatBytes, formatDuration } from '../../lib/format';
import { CAMERA_ACCEPTED_TYPES, reportSummary, UPLOAD_ACCEPTED_TYPES, type UploadDialogSnapshot } from './use-upload-dialog';

export const UPLOAD_DIALOG_TITLE = 'Upload';
export const INTRO_QUESTION = 'Is this an intro file?';
export const UPLOAD_COMPLETE_TEXT = 'Upload complete.';
export const PROCESSING_TEXT = 'Uploaded. Reading the pages…';
export const ALL_MATCHED_TEXT = 'Upload complete: every page went through.';
export const NOT_EVERYTHING_TEXT = 'Uploaded, but not everything went through.';
export const PAUSED_TEXT = 'Paused. The part already sent is kept: Resume continues from there.';
export const CHOOSE_HINT = 'PDF scans, or up to 50 photos of pages (JPEG, PNG, HEIC), one page each.';

export interface UploadDialogViewProps {
  snapshot: UploadDialogSnapshot;
  send: (event: UploadDialogEvent) => void;
  /** The study helper picker of an intro upload (study-helper variant). */
  studyHelperPicker?: ReactNode;
}

function PageLengthChoice({ value, onChange }: { value: number; onChange: (length: (typeof ANSWER_SHEET_PAGE_LENGTHS)[number]) => void }) {
  return (
    <fieldset className="upload-page-lengths">
      <legend>Answer sheet page length</legend>
      {ANSWER_SHEET_PAGE_LENGTHS.map((length) => {
        const id = `answer-sheet-page-length-${length}`;
        return (
          <div key={length} className="upload-page-length">
            <RadioButton
              inputId={id}
              name="answer_sheet_page_length"
              value={length}
              checked={value === length}
              onChange={() => onChange(length)}
            />
            <label htmlFor={id}>{`${length} (${ANSWER_SHEET_PAGE_LENGTH_LABELS[length]})`}</label>
          </div>
        );
      })}
    </fieldset>
  );
}

/** Where the dialog's machine stands, one flag per state the view tells apart. */
function dialogPhase(snapshot: UploadDialogSnapshot) {
  const visible = !snapshot.matches('closed');
  const asking = snapshot.matches({ open: 'askingIntro' });
  const choosing = snapshot.matches({ open: 'choosing' });
  const uploading = snapshot.matches({ open: 'uploading' });
  const looking = snapshot.matches({ open: { uploading: 'lookingForEarlier' } });
  const offering = snapshot.matches({ open: { uploading: 'offeringToContinue' } });
  const sending = snapshot.matches({ open: { uploading: 'sending' } });
  const sendingPhotos = snapshot.matches({ open: { uploading: 'sendingPhotos' } });
  const retryingPhotos = snapshot.matches({ open: { uploading: { sendingPhotos: 'waitingToRetry' } } });
  const retrying = snapshot.matches({ open: { uploading: { sending: 'waitingToRetry' } } });
  const paused = snapshot.matches({ open: { uploading: 'paused' } });
  const cancelled = snapshot.matches({ open: 'cancelled' });
  const processing = snapshot.matches({ open: 'processing' });
  const success = snapshot.matches({ open: 'success' });
  const warning = snapshot.matches({ open: 'warning' });
  const failed = snapshot.matches({ open: 'failed' });
  return { visible, asking, choosing, uploading, looking, offering, sending, sendingPhotos, retryingPhotos, retrying, paused, cancelled, processing, success, warning, failed };
}

type DialogPhase = ReturnType<typeof dialogPhase>;

interface PartProps {
  phase: DialogPhase;
  context: UploadDialogSnapshot['context'];
  send: UploadDialogViewProps['send'];
}

/** The buttons under the dialog, as the state allows. */
function DialogFooter({ phase, context, send }: PartProps) {
  const { asking, choosing, uploading, offering, sending, paused, cancelled, processing, success, warning, failed } = phase;
  return (
  <div className="form-actions">
    {(asking || choosing || uploading) && (
      <Button type="button" label="Cancel" outlined onClick={() => send({ type: 'CANCEL' })} />
    )}
    {processing && <Button type="button" label="Continue in background" outlined onClick={() => send({ type: 'CLOSE' })} />}
    {sending && <Button type="button" label="Pause" icon="pi pi-pause" outlined onClick={() => send({ type: 'PAUSE' })} />}
    {paused && <Button type="button" label="Resume" icon="pi pi-play" onClick={() => send({ type: 'RESUME' })} />}
    {offering && (
      <>
        <Button type="button" label="Start over" outlined onClick={() => send({ type: 'START_OVER' })} />
        <Button type="button" label="Continue" icon="pi pi-play" onClick={() => send({ type: 'CONTINUE_EARLIER' })} />
      </>
    )}
    {(choosing || (uploading && !paused && !offering)) && (
      <Button
        type="button"
        label="Upload"
        icon="pi pi-upload"
        loading={uploading}
        disabled={!choosing || !canUpload(context)}
        onClick={() => send({ type: 'UPLOAD' })}
      />
    )}
    {failed && <Button type="button" label="Try again" outlined onClick={() => send({ type: 'TRY_AGAIN' })} />}
    {(success || warning || failed || cancelled) && <Button type="button" label="Done" onClick={() => send({ type: 'CLOSE' })} />}
  </div>
  );
}

/** Choosing: the page length or the kind of file, the drop zone, the chosen files and photos. */
function ChoosingStep({ context, send, studyHelperPicker }: Omit<PartProps, 'phase'> & Pick<UploadDialogViewProps, 'studyHelperPicker'>) {
  return (
    <>
      {context.variant === 'service_center' && (
        <PageLengthChoice
          value={context.answerSheetPageLength}
          onChange={(pageLength) => send({ type: 'SET_PAGE_LENGTH', pageLength })}
        />
      )}
      {context.variant === 'study_helper' && (
        <p className="upload-kind">{context.isIntro ? 'Intro file' : 'Graded answer sheets'}</p>
      )}
      {context.isIntro && studyHelperPicker}
      <FileDropZone
        accept={UPLOAD_ACCEPTED_TYPES}
        cameraAccept={CAMERA_ACCEPTED_TYPES}
        hint={CHOOSE_HINT}
        onChoose={(files) => send({ type: 'CHOOSE_FILES', files })}
        onDrop={(files) => send({ type: 'DROP_FILES', files })}
        onTakePhotos={(files) => send({ type: 'ADD_PHOTOS', files })}
      />
      <SelectionProblemMessage problem={selectionProblem(context.files)} />
      <PhotoThumbnails photos={context.files.filter(isPhoto)} onRemove={(index) => send({ type: 'REMOVE_PHOTO', index })} />
      {(context.files.some((file) => !isPhoto(file)) || context.tooLargeFiles.length > 0 || context.files.length === 0) && (
        <UploadFileList
          files={context.files.filter((file) => !isPhoto(file))}
          tooLargeFiles={context.tooLargeFiles}
          onRemove={(name) => send({ type: 'REMOVE_FILE', name })}
        />
      )}
      {(context.files.length > 0 || context.tooLargeFiles.length > 0) && (
        <Button
          type="button"
          label="Clear"
          text
          size="small"
          className="upload-clear"
          onClick={() => send({ type: 'CLEAR_FILES' })}
        />
      )}
    </>
  );
}

/** Sending: the file or photos under way, the bytes sent, a retry's countdown, a pause. */
function SendingStatus({ phase, context }: Omit<PartProps, 'send'>) {
  const { sending, sendingPhotos, retryingPhotos, retrying, paused } = phase;
  const current = context.files[context.currentIndex];
  return (
    <>
      {(sending || paused) && (
        <div role="status" aria-label="Uploading">
          <p>
            {`${paused ? 'Paused' : 'Uploading'} ${current?.name ?? ''} (${Math.min(context.currentIndex + 1, context.files.length)} of ${context.files.length})${paused ? '' : '…'}`}
          </p>
          <ProgressBar value={uploadPercent(context)} showValue={false} style={{ height: '6px' }} aria-label="Bytes sent" />
          <p className="upload-transfer">{transferText(context)}</p>
          {retrying && context.retry && <RetryCountdown retry={context.retry} />}
          {paused && <p>{PAUSED_TEXT}</p>}
        </div>
      )}
      {sendingPhotos && (
        <div role="status" aria-label="Uploading">
          <p>{`Uploading ${photosLabel(context.files.length)}…`}</p>
          <ProgressBar value={uploadPercent(context)} showValue={false} style={{ height: '6px' }} aria-label="Bytes sent" />
          <p className="upload-transfer">{transferText(context)}</p>
          {retryingPhotos && context.retry && <RetryCountdown retry={context.retry} />}
        </div>
      )}
    </>
  );
}

export function UploadDialogView({ snapshot, send, studyHelperPicker }: UploadDialogViewProps) {
  const { context } = snapshot;
  const phase = dialogPhase(snapshot);
  const { visible, asking, choosing, looking, offering, cancelled, processing, success, warning, failed } = phase;
  const current = context.files[context.currentIndex];
  const report = context.report;

  return (
    <Dialog
      header={UPLOAD_DIALOG_TITLE}
      visible={visible}
      onHide={() => send({ type: 'CLOSE' })}
      modal
      className="upload-dialog"
      footer={<DialogFooter phase={phase} context={context} send={send} />}
    >
      <div className="upload-dialog-body">
        {asking && (
          <div className="upload-intro-question">
            <p>{INTRO_QUESTION}</p>
            <div className="form-actions">
              <Button type="button" label="Yes" onClick={() => send({ type: 'ANSWER_INTRO', isIntro: true })} />
              <Button type="button" label="No" outlined onClick={() => send({ type: 'ANSWER_INTRO', isIntro: false })} />
            </div>
          </div>
        )}
        {choosing && <ChoosingStep context={context} send={send} studyHelperPicker={studyHelperPicker} />}
        {looking && (
          <div role="status" aria-label="Uploading">
            <p>{`Looking for an earlier upload of ${current?.name ?? ''}…`}</p>
          </div>
        )}
        {offering && context.earlier && (
          <div role="status" aria-label="Earlier upload">
            <p>{earlierText(current?.name ?? '', context.earlier)}</p>
          </div>
        )}
        <SendingStatus phase={phase} context={context} />
        {cancelled && <Message severity="info" text={cancelledText(context)} />}
        {processing && <ProcessingProgress variant={context.variant} id={context.uploadedFileIds[0] ?? null} />}
        {success && <Message severity="success" text={report ? `${ALL_MATCHED_TEXT} ${reportSummary(report)}.` : UPLOAD_COMPLETE_TEXT} />}
        {warning && report && (
          <div className="upload-warning">
            <Message severity="warn" text={`${NOT_EVERYTHING_TEXT} ${reportSummary(report)}.`} />
            {report.nextStep && <p>{report.nextStep}</p>}
          </div>
        )}
        {(success || warning) && report?.href && (
          <Link to={report.href} onClick={() => send({ type: 'CLOSE' })}>
            {context.variant === 'study_helper' ? 'Open the upload report' : 'Open the file'}
          </Link>
        )}
        {failed && <UploadFailure results={context.results} summary={bannerMessage({ type: 'error', errorType: context.errorType ?? undefined })} />}
      </div>
    </Dialog>
  );
}

/**
 * What went wrong, and how each file fared. A single file whose result says no more than the
 * summary gets no list: the same sentence twice only makes the dialog longer.
 */
function UploadFailure({ results, summary }: { results: UploadDialogViewProps['snapshot']['context']['results']; summary: string }) {
  const lines = results.map((result) =>
    result.status === 'success'
      ? `${result.fileName}: uploaded`
      : `${result.fileName ?? 'File'}: ${result.message ?? bannerMessage({ type: 'error', errorType: result.errorType ?? undefined })}`,
  );
  const single = results.length === 1 && results[0]!.status !== 'success' && lines[0]!.endsWith(`: ${summary}`);
  return (
    <>
      <Message severity="error" text={summary} />
      {!single && (
        <ul className="upload-results" aria-label="Upload results">
          {lines.map((line, index) => (
            <li key={`${results[index]!.fileName ?? 'file'}-${index}`}>{line}</li>
          ))}
        </ul>
      )}
    </>
  );
}

/** "An earlier upload of scan.pdf stopped at 45 % (12.0 MB of 26.7 MB). Continue it, or start over?" */
function earlierText(name: string, earlier: { offset: number; size: number }): string {
  const percent = Math.floor((earlier.offset / Math.max(1, earlier.size)) * 100);
  return `An earlier upload of ${name} stopped at ${percent}% (${formatBytes(earlier.offset)} of ${formatBytes(earlier.size)}). Continue it, or start over?`;
}

/** What a cancel left: nothing of the file being sent; files sent before it stay. */
function cancelledText(context: UploadDialogViewProps['snapshot']['context']): string {
  if (isPhotoSelection(context.files)) return `Upload cancelled: nothing of the ${photosLabel(context.files.length)} was stored.`;
  const name = context.files[context.currentIndex]?.name;
  const before = context.results.filter((result) => result.status === 'success').length;
  const text = name ? `Upload cancelled: nothing of ${name} was stored.` : 'Upload cancelled: nothing was stored.';
  return before > 0 ? `${text} ${before === 1 ? 'The file' : `The ${before} files`} uploaded before it ${before === 1 ? 'is' : 'are'} kept.` : text;
}

/** "Connection lost, retrying in 8 s…", counting down. */
function RetryCountdown({ retry }: { retry: { delayMs: number; at: number } }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, []);
  const seconds = retrySecondsLeft(retry, Math.max(now, retry.at));
  return <p className="upload-retry">{seconds > 0 ? `Connection lost, retrying in ${seconds} s…` : 'Connection lost, retrying now…'}</p>;
}

/** "12.0 MB of 48.0 MB sent (25%), about 2 min left". */
function transferText(context: UploadDialogViewProps['snapshot']['context']): string {
  const { loaded, total } = context.transfer;
  const left = uploadSecondsLeft(context);
  const sent = `${formatBytes(loaded)} of ${formatBytes(total)} sent (${uploadPercent(context)}%)`;
  return left === null ? sent : `${sent}, about ${formatDuration(left)} left`;
}

/** The server reading the pages: its job's progress stream, as on the file page. */
function ProcessingProgress({ variant, id }: { variant: 'service_center' | 'study_helper'; id: string | null }) {
  const job = variant === 'study_helper' ? 'process_graded_upload' : 'process_service_center_upload';
  const progress = useProgressStream(id === null ? null : progressStreamUrl(job, id));
  const finished = progress !== null && isProgressFinished(progress);
  return (
    <div role="status" aria-label="Processing">
      <p>{PROCESSING_TEXT}</p>
      {progress && progress.count > 0 && !finished ? (
        <>
          <ProgressBar value={progressPercent(progress)} showValue={false} style={{ height: '6px' }} aria-label="Pages read" />
          <p className="upload-transfer">{`${progress.completed} of ${progress.count} pages read`}</p>
        </>
      ) : (
        <ProgressBar mode="indeterminate" style={{ height: '6px' }} aria-label="Pages read" />
      )}
    </div>
  );
}

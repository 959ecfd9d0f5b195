// The two upload requests of spec §7, one per file, as the upload-dialog machine's `uploadFile`
// actor makes them: POST /api/file (service center) and POST /api/study-helpers/file.
import { uploadFile } from '../../../generated/hooks/files/files';
import { uploadStudyHelperFile } from '../../../generated/hooks/study-helpers/study-helpers';
import type { FileUploadAnswerSheetPageLength } from '../../../generated/hooks/model';
import type {
  FileLike,
  UploadFileInput,
  UploadFileOutput,
  UploadHttpError,
} from '../../../machines/upload-dialog/upload-dialog.machine';

function asBlob(file: FileLike): Blob & FileLike {
  if (!(file instanceof Blob)) throw new TypeError('File is undefined');
  return file as Blob & FileLike;
}

/** scanned_at: the file's modified date as an ISO timestamp. */
export function scannedAt(file: Pick<FileLike, 'lastModified'>): string {
  return new Date(file.lastModified).toISOString();
}

/** POST /api/file: name, answer_sheet_page_length, scanned_at and the file. */
export async function uploadServiceCenterFile(input: UploadFileInput, signal: AbortSignal): Promise<UploadFileOutput> {
  const file = asBlob(input.file);
  const created = await uploadFile(
    {
      name: file.name,
      answer_sheet_page_length: String(input.answerSheetPageLength) as FileUploadAnswerSheetPageLength,
      scanned_at: scannedAt(file),
      file,
    },
    { signal },
  );
  return { id: created.id };
}

/**
 * An upload the server answered with `{status: "error", errorType}`: a refusal with its type, so it
 * is classified like a 400 carrying that error type (VALIDATION_ERROR when it names none).
 */
export function refusedUpload(errorType: string | undefined): UploadHttpError {
  return { status: 400, body: { detail: errorType ? { error_type: errorType } : 'Upload refused' } };
}

/** POST /api/study-helpers/file: name, study_helper only for intro files, and the file. */
export async function uploadStudyHelperScan(input: UploadFileInput, signal: AbortSignal): Promise<UploadFileOutput> {
  const file = asBlob(input.file);
  const result = await uploadStudyHelperFile(
    {
      name: file.name,
      ...(input.isIntro && input.studyHelperId ? { study_helper: input.studyHelperId } : {}),
      file,
    },
    { signal },
  );
  if (result.status === 'error') throw refusedUpload(result.errorType);
  return { id: result.id ?? null };
}

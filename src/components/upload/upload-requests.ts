// What the upload requests send (spec §7): scanned_at from the file's modified date. The dialog's
// uploads themselves are resumable (./resumable-upload.ts).
import type { FileLike } from '../../../machines/upload-dialog/upload-dialog.machine';

/** scanned_at: the file's modified date as an ISO timestamp. */
export function scannedAt(file: Pick<FileLike, 'lastModified'>): string {
  return new Date(file.lastModified).toISOString();
}


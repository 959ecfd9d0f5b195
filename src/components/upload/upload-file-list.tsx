// The files chosen for an upload, each with its size and a remove button; a file over the size
// limit is flagged "File too Large" (spec §5).
import { Button } from 'primereact/button';
import { FILE_TOO_LARGE_LABEL } from '../../../machines/upload-dialog/upload-dialog.rules';
import type { FileLike } from '../../../machines/upload-dialog/upload-dialog.types';

/** "2.0 KB", "1.4 GB": sizes as people read them. */
export function formatFileSize(bytes: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let size = bytes;
  let unit = 0;
  while (size >= 1000 && unit < units.length - 1) {
    size /= 1000;
    unit += 1;
  }
  return unit === 0 ? `${size} bytes` : `${size.toFixed(1)} ${units[unit]}`;
}

export interface UploadFileListProps {
  files: readonly FileLike[];
  tooLargeFiles: readonly FileLike[];
  /** Absent: the files cannot be removed (while uploading). */
  onRemove?: (name: string) => void;
}

export function UploadFileList({ files, tooLargeFiles, onRemove }: UploadFileListProps) {
  const rows = [
    ...files.map((file) => ({ file, tooLarge: false })),
    ...tooLargeFiles.map((file) => ({ file, tooLarge: true })),
  ];
  if (rows.length === 0) return <p className="upload-file-none">No file selected</p>;
  return (
    <ul className="upload-file-list" aria-label="Selected files">
      {rows.map(({ file, tooLarge }) => (
        <li key={`${tooLarge ? 'large' : 'ok'}-${file.name}`} className={tooLarge ? 'upload-file upload-file-too-large' : 'upload-file'}>
          <span className="pi pi-file-pdf" aria-hidden="true" />
          <span className="upload-file-name">{file.name}</span>
          <span className="upload-file-size">{formatFileSize(file.size)}</span>
          {tooLarge && (
            <span className="upload-file-error" role="alert">
              {FILE_TOO_LARGE_LABEL}
            </span>
          )}
          {onRemove && (
            <Button
              type="button"
              icon="pi pi-times"
              text
              rounded
              size="small"
              aria-label={`Remove ${file.name}`}
              onClick={() => onRemove(file.name)}
            />
          )}
        </li>
      ))}
    </ul>
  );
}

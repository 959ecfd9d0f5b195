// Where files are chosen for an upload: a drop area and a "Choose Files" button over a hidden
// file input. Files go to the caller as they came (the upload-dialog machine sorts them out).
import { useId, useRef, useState, type DragEvent } from 'react';
import { Button } from 'primereact/button';

export interface FileDropZoneProps {
  /** The picker's `accept` list, e.g. "application/pdf". */
  accept?: string;
  multiple?: boolean;
  disabled?: boolean;
  onChoose: (files: File[]) => void;
  onDrop: (files: File[]) => void;
}

export function FileDropZone({ accept, multiple = true, disabled = false, onChoose, onDrop }: FileDropZoneProps) {
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);

  const drop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setOver(false);
    if (disabled) return;
    onDrop(Array.from(event.dataTransfer?.files ?? []));
  };

  return (
    <div
      className={`file-drop-zone${over ? ' file-drop-zone-over' : ''}`}
      data-testid="file-drop-zone"
      onDragOver={(event) => {
        event.preventDefault();
        if (!disabled) setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={drop}
    >
      <span className="pi pi-cloud-upload file-drop-zone-icon" aria-hidden="true" />
      <span>Drag and drop files here, or</span>
      <Button
        type="button"
        label="Choose Files"
        icon="pi pi-folder-open"
        outlined
        size="small"
        disabled={disabled}
        onClick={() => input.current?.click()}
      />
      <input
        ref={input}
        id={inputId}
        type="file"
        aria-label="Files to upload"
        accept={accept}
        multiple={multiple}
        hidden
        disabled={disabled}
        onChange={(event) => {
          onChoose(Array.from(event.target.files ?? []));
          // The same file chosen again must fire a change.
          event.target.value = '';
        }}
      />
    </div>
  );
}

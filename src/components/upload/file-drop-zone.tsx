// Where files are chosen for an upload: a drop area and a "Choose Files" button over a hidden
// file input (on a phone it offers the photo library, the camera and files), and on a touch
// screen a "Take photos" button that opens the camera at once. Files go to the caller as they
// came (the upload-dialog machine sorts them out).
import { useId, useRef, useState, useSyncExternalStore, type DragEvent } from 'react';
import { Button } from 'primereact/button';

export interface FileDropZoneProps {
  /** The picker's `accept` list, e.g. "application/pdf". */
  accept?: string;
  multiple?: boolean;
  disabled?: boolean;
  onChoose: (files: File[]) => void;
  onDrop: (files: File[]) => void;
  /** The camera's `accept` list; with `onTakePhotos`, the camera input is offered. */
  cameraAccept?: string;
  /** Photos taken with the camera: added to those chosen (a camera gives one or a few at a time). */
  onTakePhotos?: (files: File[]) => void;
  /** What may be chosen, in words. */
  hint?: string;
}

const COARSE_POINTER = '(pointer: coarse)';

/** A finger, not a mouse: the device likely has a camera worth a button of its own. */
function useCoarsePointer(): boolean {
  return useSyncExternalStore(
    (changed) => {
      const query = globalThis.matchMedia?.(COARSE_POINTER);
      query?.addEventListener('change', changed);
      return () => query?.removeEventListener('change', changed);
    },
    () => globalThis.matchMedia?.(COARSE_POINTER).matches ?? false,
    () => false,
  );
}

/** A hidden file input whose files go to `onFiles`; the same file chosen again still fires. */
function HiddenFileInput({ id, inputRef, label, onFiles, ...rest }: {
  id: string;
  inputRef: React.RefObject<HTMLInputElement | null>;
  label: string;
  onFiles: (files: File[]) => void;
  accept?: string | undefined;
  multiple?: boolean;
  capture?: 'environment';
  disabled: boolean;
}) {
  return (
    <input
      ref={inputRef}
      id={id}
      type="file"
      aria-label={label}
      hidden
      {...rest}
      onChange={(event) => {
        onFiles(Array.from(event.target.files ?? []));
        event.target.value = '';
      }}
    />
  );
}

export function FileDropZone({ accept, multiple = true, disabled = false, onChoose, onDrop, cameraAccept, onTakePhotos, hint }: FileDropZoneProps) {
  const inputId = useId();
  const cameraId = useId();
  const input = useRef<HTMLInputElement>(null);
  const camera = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const touch = useCoarsePointer();

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
      {!touch && <span>Drag and drop files here, or</span>}
      <div className="file-drop-zone-buttons">
        {onTakePhotos && touch && (
          <Button type="button" label="Take photos" icon="pi pi-camera" size="small" disabled={disabled} onClick={() => camera.current?.click()} />
        )}
        <Button
          type="button"
          label="Choose Files"
          icon="pi pi-folder-open"
          outlined
          size="small"
          disabled={disabled}
          onClick={() => input.current?.click()}
        />
      </div>
      {hint && <span className="file-drop-zone-hint">{hint}</span>}
      <HiddenFileInput id={inputId} inputRef={input} label="Files to upload" accept={accept} multiple={multiple} disabled={disabled} onFiles={onChoose} />
      {onTakePhotos && (
        // `capture` opens the rear camera on iOS and Android; elsewhere it is a picker of images.
        <HiddenFileInput
          id={cameraId}
          inputRef={camera}
          label="Photos from the camera"
          accept={cameraAccept}
          multiple
          capture="environment"
          disabled={disabled}
          onFiles={onTakePhotos}
        />
      )}
    </div>
  );
}

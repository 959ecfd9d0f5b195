// The photos chosen for an upload, as small pictures in the order they will be sent (each one
// page), with their count and size in all and a Remove button on each. A photo the browser
// cannot draw (HEIC outside Safari) shows a placeholder with its name instead.
import { useEffect, useState } from 'react';
import { Button } from 'primereact/button';
import { photosLabel } from '../../../machines/upload-dialog/upload-dialog.rules';
import type { FileLike } from '../../../machines/upload-dialog/upload-dialog.types';
import { formatBytes } from '../../lib/format';

export interface PhotoThumbnailsProps {
  photos: readonly FileLike[];
  /** index: the photo's place in the order, from 0. Absent: the photos cannot be removed. */
  onRemove?: (index: number) => void;
}

/** "3 photos, 7.2 MB in all". */
export function photosSummary(photos: readonly FileLike[]): string {
  return `${photosLabel(photos.length)}, ${formatBytes(photos.reduce((sum, photo) => sum + photo.size, 0))} in all`;
}

const isHeic = (photo: FileLike) => /heic|heif/i.test(photo.type) || /\.(heic|heif)$/i.test(photo.name);

// Phones name every photo "image.jpg": a photo's key is the object itself, numbered once.
const keys = new WeakMap<object, number>();
let nextKey = 0;
function keyOf(photo: FileLike): number {
  if (!keys.has(photo)) keys.set(photo, nextKey++);
  return keys.get(photo)!;
}

/** An object URL for the photo while it is shown, revoked when it is removed or the dialog closes. */
function useObjectUrl(photo: FileLike): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!(photo instanceof Blob) || typeof URL.createObjectURL !== 'function') return;
    const href = URL.createObjectURL(photo);
    setUrl(href);
    return () => {
      URL.revokeObjectURL(href);
      setUrl(null);
    };
  }, [photo]);
  return url;
}

function PhotoThumbnail({ photo, number, onRemove }: { photo: FileLike; number: number; onRemove?: (() => void) | undefined }) {
  const url = useObjectUrl(photo);
  const [unreadable, setUnreadable] = useState(false);
  const label = `Photo ${number}: ${photo.name}`;
  return (
    <li className="upload-photo">
      {url && !unreadable ? (
        <img className="upload-photo-image" src={url} alt={label} loading="lazy" decoding="async" onError={() => setUnreadable(true)} />
      ) : (
        <div className="upload-photo-image upload-photo-placeholder" role="img" aria-label={`${label} (no preview)`}>
          <span className="pi pi-image" aria-hidden="true" />
          <span>{isHeic(photo) ? 'HEIC photo' : 'Photo'}</span>
        </div>
      )}
      <span className="upload-photo-number" aria-hidden="true">
        {number}
      </span>
      {onRemove && (
        <Button
          type="button"
          icon="pi pi-times"
          rounded
          className="upload-photo-remove"
          aria-label={`Remove photo ${number}`}
          onClick={onRemove}
        />
      )}
      <span className="upload-photo-caption">
        <span className="upload-photo-name">{photo.name}</span>
        <span className="upload-photo-size">{formatBytes(photo.size)}</span>
      </span>
    </li>
  );
}

export function PhotoThumbnails({ photos, onRemove }: PhotoThumbnailsProps) {
  if (photos.length === 0) return null;
  return (
    <section className="upload-photos" aria-label="Photos to upload">
      <p className="upload-photos-summary">{`${photosSummary(photos)}, sent in this order, one page each`}</p>
      <ol className="upload-photo-grid">
        {photos.map((photo, index) => (
          <PhotoThumbnail key={keyOf(photo)} photo={photo} number={index + 1} onRemove={onRemove && (() => onRemove(index))} />
        ))}
      </ol>
    </section>
  );
}

// What an upload's files are (UploadedPages in the contract): one scanned PDF, or photos of pages
// (JPEG, PNG, HEIC), one page each in the order taken. Photos are checked (bounded-photo-check)
// and recorded as the upload's pages (upload_photos); a refusal says which file and why, and
// keeps none of them.
import type { FastifyRequest } from 'fastify';
import type { BlobInfo, BlobStore } from '../../blob-store';
import type { Database } from '../../db/database';
import { discardIfUnreferenced } from '../../db/blob-references';
import { validationError } from '../../http-error';
import { insertUploadPhotos } from '../../repositories/upload-photos';
import type { PhotoMediaType } from '../../pipeline/photo-page';
import { localCopy, type LocalCopy } from '../../workflow/local-copy';
import { checkPhotosBounded, PhotoRefusedError } from './bounded-photo-check';
import { kindOfFile, MAX_PHOTOS } from './photo-check';
import type { ReceivedUpload } from './receive-upload';

export interface UploadedPhoto {
  blob: BlobInfo;
  filename: string | null;
  mediaType: PhotoMediaType;
}

/**
 * The upload's pages: `blob` stands for them all (for photos: the first photo's key, the hash
 * and size of all their bytes in order, which the duplicate rule compares), `photos` is null for
 * a PDF (or a file of another kind, which the PDF check refuses as today).
 */
export interface UploadedPages {
  blob: BlobInfo | null;
  photos: UploadedPhoto[] | null;
}

/** Multipart file parts read per upload: a few beyond MAX_PHOTOS, so a refusal can say how many came. */
export const MAX_FILE_PARTS = MAX_PHOTOS + 50;

/** Sorts the received files into a PDF or photos; throws a 400 (keeping none) when they are neither. */
export async function uploadedPages(
  request: FastifyRequest,
  received: ReceivedUpload,
): Promise<UploadedPages> {
  const { files } = received;
  const refuse = async (message: string): Promise<never> => {
    await discardBlobs(
      request.server.db,
      request.server.blobStore,
      files.map((file) => file.blob),
    );
    throw validationError(message);
  };
  const count = files.length + received.filesOverLimit;
  if (count > MAX_PHOTOS)
    return refuse(
      `${count} files: an upload takes at most ${MAX_PHOTOS} photos of pages (or one PDF).`,
    );
  if (files.length === 0) return { blob: null, photos: null };
  const kinds = files.map((file) => kindOfFile(file.head));
  if (files.length === 1 && (kinds[0] === 'pdf' || kinds[0] === 'other'))
    return { blob: received.blob, photos: null };
  const photos: UploadedPhoto[] = [];
  for (const [index, file] of files.entries()) {
    const kind = kinds[index]!;
    if (kind === 'pdf')
      return refuse(
        `A PDF is uploaded on its own: file ${index + 1}${named(file.filename)} is a PDF among ${files.length} files.`,
      );
    if (kind === 'other')
      return refuse(
        `File ${index + 1}${named(file.filename)} is neither a PDF nor a photo (JPEG, PNG or HEIC/HEIF).`,
      );
    photos.push({ blob: file.blob, filename: file.filename, mediaType: kind });
  }
  return {
    blob: { key: photos[0]!.blob.key, sha256: received.sha256, size: received.size },
    photos,
  };
}

function named(filename: string | null): string {
  return filename ? ` (${filename})` : '';
}

/** Checks every photo (bounded); throws a 400 naming the first one that cannot be read or is too small. */
export async function checkPhotos(blobStore: BlobStore, photos: UploadedPhoto[]): Promise<void> {
  const copies: LocalCopy[] = [];
  try {
    for (const photo of photos) copies.push(await localCopy(blobStore, photo.blob.key));
    await checkPhotosBounded(
      photos.map((photo, i) => ({ path: copies[i]!.path, mediaType: photo.mediaType })),
    );
  } catch (error) {
    if (!(error instanceof PhotoRefusedError)) throw error;
    const photo = photos[error.index];
    throw validationError(
      `Photo ${error.index + 1}${named(photo?.filename ?? null)}: ${error.message}.`,
    );
  } finally {
    for (const copy of copies) await copy.dispose();
  }
}

/** Records the photos as the pages of a file or of a graded upload, in order. */
export async function recordPhotos(
  db: Database,
  owner: { fileId: string } | { uploadId: string },
  photos: UploadedPhoto[],
): Promise<void> {
  await insertUploadPhotos(
    db,
    owner,
    photos.map((photo) => ({ blobKey: photo.blob.key, mediaType: photo.mediaType })),
  );
}

/** Drops blobs no record holds (a refused upload's files). */
export async function discardBlobs(
  db: Database,
  blobStore: BlobStore,
  blobs: readonly BlobInfo[],
): Promise<void> {
  for (const key of new Set(blobs.map((blob) => blob.key)))
    await discardIfUnreferenced(db, blobStore, key);
}

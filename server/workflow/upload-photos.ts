// The photos an upload's pages came as (upload_photos), where the pipeline reads them: each
// blob's own file when the store keeps blobs on local disk, else a temporary copy.
import type { BlobStore } from '../blob-store';
import type { Database } from '../db/database';
import type { PhotoMediaType } from '../pipeline/photo-page';
import type { PhotosSource } from '../pipeline/process-pages';
import { photosOfFile, photosOfGradedUpload, type StoredPhotoRow } from '../repositories/upload-photos';
import { localCopy, type LocalCopy } from './local-copy';

export type StoredPhoto = StoredPhotoRow<PhotoMediaType>;

/** A file's or a graded upload's photos in the order taken; none for a PDF. */
export async function photosOf(
  db: Database,
  owner: { fileId: string } | { uploadId: string },
): Promise<StoredPhoto[]> {
  return 'fileId' in owner ? photosOfFile<PhotoMediaType>(db, owner.fileId) : photosOfGradedUpload<PhotoMediaType>(db, owner.uploadId);
}

export interface LocalPhotos {
  /** The photos as pages for process-pages. */
  source: PhotosSource;
  dispose(): Promise<void>;
}

export async function localPhotos(
  blobStore: BlobStore,
  photos: StoredPhoto[],
): Promise<LocalPhotos> {
  const copies: LocalCopy[] = [];
  const dispose = async () => {
    for (const copy of copies) await copy.dispose();
  };
  try {
    for (const photo of photos) copies.push(await localCopy(blobStore, photo.blob_key));
  } catch (error) {
    await dispose();
    throw error;
  }
  return {
    source: { photos: photos.map((photo, i) => ({ path: copies[i]!.path, mediaType: photo.media_type })) },
    dispose,
  };
}

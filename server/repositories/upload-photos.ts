// The upload_photos table: the photos a file's or a graded upload's pages came as.
import type { Database } from '../db/database';

export interface StoredPhotoRow<MediaType extends string = string> {
  blob_key: string;
  media_type: MediaType;
}

/** A file's photos in the order taken; none for a PDF. */
export async function photosOfFile<MediaType extends string>(db: Database, fileId: string): Promise<StoredPhotoRow<MediaType>[]> {
  return db.query<StoredPhotoRow<MediaType>>('SELECT blob_key, media_type FROM upload_photos WHERE file_id = $1 ORDER BY position', [fileId]);
}

/** A graded upload's photos in the order taken; none for a PDF. */
export async function photosOfGradedUpload<MediaType extends string>(db: Database, uploadId: string): Promise<StoredPhotoRow<MediaType>[]> {
  return db.query<StoredPhotoRow<MediaType>>('SELECT blob_key, media_type FROM upload_photos WHERE upload_id = $1 ORDER BY position', [uploadId]);
}

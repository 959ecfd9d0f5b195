// Upload photos: the photos a file or a graded upload came as, one row per page in the order
// taken, kept beside the pages read from them.
import type { Database } from '../db/database';

/** Records the photos (blob and media type, in order) as the pages of a file or of a graded upload. */
export async function insertUploadPhotos(
  db: Database,
  owner: { fileId: string } | { uploadId: string },
  photos: readonly { blobKey: string; mediaType: string }[],
): Promise<void> {
  await db.query(
    `INSERT INTO upload_photos (file_id, upload_id, position, blob_key, media_type)
     SELECT $1, $2, v.position, v.blob_key, v.media_type
     FROM unnest($3::int[], $4::text[], $5::text[]) AS v(position, blob_key, media_type)`,
    [
      'fileId' in owner ? owner.fileId : null,
      'uploadId' in owner ? owner.uploadId : null,
      photos.map((_, i) => i + 1),
      photos.map((photo) => photo.blobKey),
      photos.map((photo) => photo.mediaType),
    ],
  );
}

/** How many photos the file came as (0: it came as a PDF). */
export async function photoCountOfFile(db: Database, fileId: string): Promise<number> {
  const row = await db.one<{ count: number }>('SELECT count(*)::int AS count FROM upload_photos WHERE file_id = $1', [fileId]);
  return row.count;
}

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

/** The upload's photos become the file's too. */
export async function copyUploadPhotosToFile(db: Database, uploadId: string, fileId: string): Promise<void> {
  await db.query(
    `INSERT INTO upload_photos (file_id, position, blob_key, media_type)
     SELECT $1, position, blob_key, media_type FROM upload_photos WHERE upload_id = $2`,
    [fileId, uploadId],
  );
}

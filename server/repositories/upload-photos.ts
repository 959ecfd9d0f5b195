// upload_photos: the photos an upload was made of, in order (its download is made of them).
import type { Database } from '../db/database';

/** The upload's photos become the file's too. */
export async function copyUploadPhotosToFile(db: Database, uploadId: string, fileId: string): Promise<void> {
  await db.query(
    `INSERT INTO upload_photos (file_id, position, blob_key, media_type)
     SELECT $1, position, blob_key, media_type FROM upload_photos WHERE upload_id = $2`,
    [fileId, uploadId],
  );
}

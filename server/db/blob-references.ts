// Which rows still point at a blob, and deleting a blob none does. Blobs are content-addressed:
// the same bytes may belong to another file, a page image or a graded scan.
import type { BlobStore } from '../blob-store';
import type { Database } from './database';

/** Every column that may hold a blob key (those of later migrations only where they exist). */
const BLOB_KEY_COLUMNS: readonly [table: string, column: string][] = [
  ['files', 'blob_key'],
  ['files', 'return_blob_key'],
  ['files', 'return_one_sided_blob_key'],
  ['pages', 'image_blob_key'],
  ['pages', 'thumbnail_500_blob_key'],
  ['pages', 'thumbnail_1000_blob_key'],
  ['graded_uploads', 'blob_key'],
  ['graded_upload_pages', 'image_blob_key'],
  ['feedback', 'front_blob_key'],
  ['feedback', 'back_blob_key'],
  ['packets', 'blob_key'],
  ['upload_photos', 'blob_key'],
  ['pages', 'photo_blob_key'],
  ['graded_upload_pages', 'photo_blob_key'],
];

const referenceQueries = new WeakMap<Database, Promise<string>>();

function blobReferenceQuery(db: Database): Promise<string> {
  let query = referenceQueries.get(db);
  if (!query) {
    query = db
      .query<{ table_name: string; column_name: string }>(
        `SELECT table_name, column_name FROM information_schema.columns
         WHERE table_schema = current_schema() AND column_name LIKE '%blob_key'`,
      )
      .then((rows) => {
        const present = BLOB_KEY_COLUMNS.filter(([table, column]) => rows.some((row) => row.table_name === table && row.column_name === column));
        return `SELECT ${present.map(([table, column]) => `EXISTS (SELECT 1 FROM ${table} WHERE ${column} = $1)`).join(' OR ')} AS used`;
      });
    query.catch(() => referenceQueries.delete(db));
    referenceQueries.set(db, query);
  }
  return query;
}

/**
 * Deletes a blob unless a row still points at it (content addressing: the same bytes may belong
 * to another file, a page image or a graded scan).
 */
export async function discardIfUnreferenced(db: Database, blobStore: BlobStore, key: string): Promise<boolean> {
  const row = await db.one<{ used: boolean }>(await blobReferenceQuery(db), [key]);
  if (row.used) return false;
  await blobStore.delete(key);
  return true;
}

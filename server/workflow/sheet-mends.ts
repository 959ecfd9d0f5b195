// More Review mends (beside review-mends.ts): keep a duplicate sheet, name a sheet's student (a
// sheet started by hand has none), turn a sideways page. Like the others, each runs with the file
// locked, is refused once the file is sent (its sheets are on paper by then) and is recorded.
import type { BlobStore } from '../blob-store';
import type { Schemas } from '../contract/types';
import type { Database } from '../db/database';
import { conflict, conflictError, notFound, validationError } from '../http-error';
import { shownTurn, withShownTurn } from '../pipeline/jpeg-header';
import type { Orientation } from '../pipeline/raster';
import { readBlob } from './blob-files';
import { sentOrSendingSql } from '../repositories/sql/file-steps';
import { DUPLICATE_OF_SQL, FILE_SENT_MESSAGE, type Mender } from './review-mends';

type MendAction = Schemas['ReviewMendAction'];
export type PageTurn = NonNullable<Schemas['PagePatch']['turn']>;

/** Locks the file for a mend; 409 once it is sent or being sent. */
async function lockUnsentFile(tx: Database, fileId: string): Promise<void> {
  const file = await tx.one<{ sent: boolean }>(`SELECT ${sentOrSendingSql('f')} AS sent FROM files f WHERE id = $1 FOR UPDATE`, [fileId]);
  if (file.sent) throw conflict({ error_type: 'SHEET_ALREADY_SENT', message: FILE_SENT_MESSAGE });
}

async function lockSheet(tx: Database, sheetId: string): Promise<{ file_id: string; duplicate_of: string | null; student_id: string | null }> {
  const sheet = await tx.maybeOne<{ file_id: string }>('SELECT file_id FROM answer_sheets WHERE id = $1', [sheetId]);
  if (sheet === null) throw notFound('Answer sheet not found');
  await lockUnsentFile(tx, sheet.file_id);
  return tx.one('SELECT file_id, duplicate_of, student_id FROM answer_sheets WHERE id = $1', [sheetId]);
}

/** A sheet mend is recorded on each of the sheet's pages (mends are shown per page). */
async function recordOnSheet(tx: Database, fileId: string, sheetId: string, action: MendAction, by: Mender): Promise<void> {
  await tx.query(
    'INSERT INTO review_mends (file_id, page_id, action, user_email) SELECT $1, p.id, $3, $4 FROM pages p WHERE p.answer_sheet_id = $2',
    [fileId, sheetId, action, by.email],
  );
}

/** Keeps a duplicate sheet: it is sent like any other and no longer holds its file in Review. */
export async function keepDuplicate(db: Database, sheetId: string, by: Mender): Promise<void> {
  await db.transaction(async (tx) => {
    const sheet = await lockSheet(tx, sheetId);
    if (sheet.duplicate_of === null) throw validationError('keep_duplicate: this response is not a duplicate');
    await tx.query('UPDATE answer_sheets SET duplicate_kept = true WHERE id = $1', [sheetId]);
    await recordOnSheet(tx, sheet.file_id, sheetId, 'duplicate_kept', by);
  });
}

/** Said when a sheet that has a student is named another's: its pages would silently change hands. */
export const SHEET_HAS_STUDENT =
  'This response already has a student. To give a page to another student, move it to their response or type the code printed beside its QR code.';

/**
 * Names a sheet's student, only for a sheet without one (started by hand in Review): naming
 * another would move its pages to another student with nothing on the paper saying so. The sheet
 * takes the student's congregation when it has none, and is checked again for repeating a lesson
 * the student already sent.
 */
export async function setSheetStudent(db: Database, sheetId: string, studentId: string, by: Mender): Promise<void> {
  await db.transaction(async (tx) => {
    const sheet = await lockSheet(tx, sheetId);
    if ((await tx.maybeOne('SELECT 1 FROM students WHERE id = $1', [studentId])) === null) throw validationError('student: no such student');
    if (sheet.student_id !== null && sheet.student_id !== studentId) throw conflictError(SHEET_HAS_STUDENT);
    await tx.query(
      `UPDATE answer_sheets a SET student_id = $2,
         assigned_group = coalesce(a.assigned_group, (SELECT s.congregation_id FROM students s WHERE s.id = $2)),
         duplicate_kept = false
       WHERE a.id = $1`,
      [sheetId, studentId],
    );
    await tx.query(`UPDATE answer_sheets a SET duplicate_of = ${DUPLICATE_OF_SQL} WHERE a.id = $1`, [sheetId]);
    await recordOnSheet(tx, sheet.file_id, sheetId, 'student_set', by);
  });
}

/**
 * Turns a page's image clockwise by `turn`: the stored image gets the EXIF orientation that shows
 * it so (the scan's bytes stay as they came), and its thumbnails are made again from it. Preview,
 * packet and return file all draw the stored image as its orientation says.
 */
export async function turnPage(db: Database, blobStore: BlobStore, pageId: string, turn: PageTurn, by: Mender): Promise<void> {
  const found = await db.maybeOne<{ file_id: string }>('SELECT file_id FROM pages WHERE id = $1', [pageId]);
  if (found === null) throw notFound('Page not found');
  await db.transaction(async (tx) => {
    await lockUnsentFile(tx, found.file_id);
    const page = await tx.one<{ image_blob_key: string | null }>('SELECT image_blob_key FROM pages WHERE id = $1', [pageId]);
    if (page.image_blob_key === null) throw validationError('turn: this page has no image to turn');
    const jpeg = await readBlob(blobStore, page.image_blob_key);
    const shown = ((shownTurn(jpeg) + turn) % 360) as Orientation;
    const { key } = await blobStore.put(withShownTurn(jpeg, shown));
    await tx.query('UPDATE pages SET image_blob_key = $2, thumbnail_500_blob_key = NULL, thumbnail_1000_blob_key = NULL WHERE id = $1', [pageId, key]);
    await tx.query('INSERT INTO review_mends (file_id, page_id, action, user_email) VALUES ($1, $2, $3, $4)', [found.file_id, pageId, 'turned', by.email]);
  });
}

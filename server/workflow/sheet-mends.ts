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
import {
  fileOfPageForMend,
  fileOfSheetForMend,
  imageOfPageForTurn,
  keepDuplicateSheet,
  lockKnownFileForMend,
  nameSheetStudent,
  recordMend,
  recordMendOnSheetPages,
  setTurnedPageImage,
  sheetLinksForMend,
} from '../repositories/review-mends';
import { studentExistsForSheet } from '../repositories/students';
import { FILE_SENT_MESSAGE, type Mender } from './review-mends';

type MendAction = Schemas['ReviewMendAction'];
export type PageTurn = NonNullable<Schemas['PagePatch']['turn']>;

/** Locks the file for a mend; 409 once it is sent or being sent. */
async function lockUnsentFile(tx: Database, fileId: string): Promise<void> {
  const file = await lockKnownFileForMend(tx, fileId);
  if (file.sent) throw conflict({ error_type: 'SHEET_ALREADY_SENT', message: FILE_SENT_MESSAGE });
}

async function lockSheet(tx: Database, sheetId: string): Promise<{ file_id: string; duplicate_of: string | null; student_id: string | null }> {
  const fileId = await fileOfSheetForMend(tx, sheetId);
  if (fileId === null) throw notFound('Answer sheet not found');
  await lockUnsentFile(tx, fileId);
  return sheetLinksForMend(tx, sheetId);
}

/** A sheet mend is recorded on each of the sheet's pages (mends are shown per page). */
async function recordOnSheet(tx: Database, fileId: string, sheetId: string, action: MendAction, by: Mender): Promise<void> {
  await recordMendOnSheetPages(tx, fileId, sheetId, action, by.email);
}

/** Keeps a duplicate sheet: it is sent like any other and no longer holds its file in Review. */
export async function keepDuplicate(db: Database, sheetId: string, by: Mender): Promise<void> {
  await db.transaction(async (tx) => {
    const sheet = await lockSheet(tx, sheetId);
    if (sheet.duplicate_of === null) throw validationError('keep_duplicate: this response is not a duplicate');
    await keepDuplicateSheet(tx, sheetId);
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
    if (!(await studentExistsForSheet(tx, studentId))) throw validationError('student: no such student');
    if (sheet.student_id !== null && sheet.student_id !== studentId) throw conflictError(SHEET_HAS_STUDENT);
    await nameSheetStudent(tx, sheetId, studentId);
    await recordOnSheet(tx, sheet.file_id, sheetId, 'student_set', by);
  });
}

/**
 * Turns a page's image clockwise by `turn`: the stored image gets the EXIF orientation that shows
 * it so (the scan's bytes stay as they came), and its thumbnails are made again from it. Preview,
 * packet and return file all draw the stored image as its orientation says.
 */
export async function turnPage(db: Database, blobStore: BlobStore, pageId: string, turn: PageTurn, by: Mender): Promise<void> {
  const fileId = await fileOfPageForMend(db, pageId);
  if (fileId === null) throw notFound('Page not found');
  await db.transaction(async (tx) => {
    await lockUnsentFile(tx, fileId);
    const image = await imageOfPageForTurn(tx, pageId);
    if (image === null) throw validationError('turn: this page has no image to turn');
    const jpeg = await readBlob(blobStore, image);
    const shown = ((shownTurn(jpeg) + turn) % 360) as Orientation;
    const { key } = await blobStore.put(withShownTurn(jpeg, shown));
    await setTurnedPageImage(tx, pageId, key);
    await recordMend(tx, fileId, [pageId], 'turned', by.email);
  });
}

// Sending a file to its study helpers: the pages of each packet (one PDF per congregation), in
// the order they print, and one sheet's pages printed again.
import type { Database } from '../db/database';
import { keptSheetSql } from './sql/file-steps';

/** A page of a packet, in print order. */
export interface PacketPageRow {
  page_id: string;
  image_blob_key: string | null;
  student_human_id: number | null;
  lesson_number: number | null;
  lesson_name: string | null;
  wbs_code: string | null;
  sheet_page: number;
  sheet_pages: number;
}

/** Kept pages of kept sheets narrowed by `where` (over sheets `a`), in print order. */
function packetPagesSql(where: string): string {
  return `
    SELECT p.id AS page_id, p.image_blob_key, st.human_id AS student_human_id,
           l.number AS lesson_number, l.name AS lesson_name, g.wbs_code,
           row_number() OVER (PARTITION BY a.id ORDER BY p.page_number)::int AS sheet_page,
           count(*) OVER (PARTITION BY a.id)::int AS sheet_pages
    FROM answer_sheets a
    JOIN pages p ON p.answer_sheet_id = a.id AND NOT p.ignored
    LEFT JOIN students st ON st.id = a.student_id
    LEFT JOIN lessons l ON l.id = a.lesson_id
    LEFT JOIN congregations g ON g.id = a.assigned_group
    WHERE ${where}
    ORDER BY st.human_id NULLS LAST, a.sequence, p.page_number`;
}

/** The pages of one congregation's packet of a file, in print order. */
export async function packetPagesOfCongregation(db: Database, fileId: string, congregationId: string): Promise<PacketPageRow[]> {
  return db.query<PacketPageRow>(packetPagesSql('a.file_id = $1 AND a.assigned_group = $2'), [fileId, congregationId]);
}

/** One sheet's pages as its packet prints them. */
export async function packetPagesOfSheet(db: Database, sheetId: string): Promise<PacketPageRow[]> {
  return db.query<PacketPageRow>(packetPagesSql('a.id = $1'), [sheetId]);
}

/** The file locked for sending; null when there is no such file. */
export async function lockFileForSend(db: Database, fileId: string): Promise<{ send_requested_at: Date | null; sent_at: Date | null } | null> {
  return db.maybeOne<{ send_requested_at: Date | null; sent_at: Date | null }>('SELECT send_requested_at, sent_at FROM files WHERE id = $1 FOR UPDATE', [
    fileId,
  ]);
}

/** Kept pages on the file's sheets: what its packets will print. */
export async function countPagesToSend(db: Database, fileId: string): Promise<number> {
  const { pages } = await db.one<{ pages: number }>(
    `SELECT count(*)::int AS pages FROM answer_sheets a JOIN pages p ON p.answer_sheet_id = a.id AND NOT p.ignored WHERE a.file_id = $1`,
    [fileId],
  );
  return pages;
}

export async function markSendRequested(db: Database, fileId: string): Promise<void> {
  await db.query('UPDATE files SET send_requested_at = now() WHERE id = $1', [fileId]);
}

/** One packet row per congregation the file's kept sheets are assigned to (and no other). */
export async function upsertPacketsOfFile(db: Database, fileId: string): Promise<void> {
  await db.query(
    `INSERT INTO packets (file_id, congregation_id)
     SELECT DISTINCT a.file_id, a.assigned_group FROM answer_sheets a
     WHERE a.file_id = $1 AND a.assigned_group IS NOT NULL AND ${keptSheetSql('a')}
     ON CONFLICT (file_id, congregation_id) DO NOTHING`,
    [fileId],
  );
  await db.query(
    `DELETE FROM packets d WHERE d.file_id = $1 AND NOT EXISTS (
       SELECT 1 FROM answer_sheets a WHERE a.file_id = d.file_id AND a.assigned_group = d.congregation_id AND ${keptSheetSql('a')})`,
    [fileId],
  );
}

/** A congregation's packet row; blob_key is set once its PDF is stored. */
export interface PacketRow {
  id: string;
  congregation_id: string;
  blob_key: string | null;
}

/** The file's packets, by congregation code. */
export async function packetsOfFile(db: Database, fileId: string): Promise<PacketRow[]> {
  return db.query<PacketRow>(
    `SELECT d.id, d.congregation_id, d.blob_key FROM packets d JOIN congregations g ON g.id = d.congregation_id
     WHERE d.file_id = $1 ORDER BY g.wbs_code`,
    [fileId],
  );
}

/** Records a packet's stored PDF. */
export async function storePacketBlob(db: Database, packetId: string, blobKey: string, pageCount: number): Promise<void> {
  await db.query('UPDATE packets SET blob_key = $2, page_count = $3 WHERE id = $1', [packetId, blobKey, pageCount]);
}

/** Every packet is stored: the file is sent, and grading starts in each congregation (unprinted). */
export async function markFileSent(db: Database, fileId: string): Promise<void> {
  await db.query(
    `INSERT INTO file_congregations (file_id, congregation_id, status)
     SELECT file_id, congregation_id, 'unprinted' FROM packets WHERE file_id = $1
     ON CONFLICT (file_id, congregation_id) DO NOTHING`,
    [fileId],
  );
  await db.query(`UPDATE files SET sent_at = now(), file_status = 'grading' WHERE id = $1 AND sent_at IS NULL`, [fileId]);
}

/** Drops the send request; false when the file was sent meanwhile. */
export async function cancelSendRequest(db: Database, fileId: string): Promise<boolean> {
  return (await db.execute('UPDATE files SET send_requested_at = NULL WHERE id = $1 AND sent_at IS NULL', [fileId])) > 0;
}

/** The file locked to be taken back; null when there is no such file. */
export async function lockFileForRecall(db: Database, fileId: string): Promise<{ sent_at: Date | null; send_requested_at: Date | null; printed: boolean } | null> {
  return db.maybeOne<{ sent_at: Date | null; send_requested_at: Date | null; printed: boolean }>(
    'SELECT sent_at, send_requested_at, printed FROM files WHERE id = $1 FOR UPDATE',
    [fileId],
  );
}

/** The file's packets, locked: a download marking one printed waits for the recall's answer. */
export async function lockPacketsOfFile(db: Database, fileId: string): Promise<{ blob_key: string | null; downloaded_at: Date | null }[]> {
  return db.query<{ blob_key: string | null; downloaded_at: Date | null }>('SELECT blob_key, downloaded_at FROM packets WHERE file_id = $1 FOR UPDATE', [
    fileId,
  ]);
}

/** Whether a congregation printed its packet of the file. */
export async function packetPrintedByCongregation(db: Database, fileId: string): Promise<boolean> {
  return (await db.maybeOne('SELECT 1 FROM file_congregations WHERE file_id = $1 AND printed_at IS NOT NULL LIMIT 1', [fileId])) !== null;
}

/** Whether a graded scan of one of the file's pages came back. */
export async function gradedScanOfFileCameBack(db: Database, fileId: string): Promise<boolean> {
  return (await db.maybeOne('SELECT 1 FROM feedback fb JOIN pages p ON p.id = fb.page_id WHERE p.file_id = $1 LIMIT 1', [fileId])) !== null;
}

/** The file is unsent: its packets and congregation rows go, and it is back at the Send step. */
export async function unsendFile(db: Database, fileId: string): Promise<void> {
  await db.query('DELETE FROM packets WHERE file_id = $1', [fileId]);
  await db.query('DELETE FROM file_congregations WHERE file_id = $1', [fileId]);
  await db.query(
    `UPDATE files SET sent_at = NULL, send_requested_at = NULL, file_status = NULL, grading_complete = false,
            return_requested_at = NULL, return_prepped = false
     WHERE id = $1`,
    [fileId],
  );
}

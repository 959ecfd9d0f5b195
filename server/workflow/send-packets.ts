// Sending a file: one packet (packet) per congregation of a file (the job:
// server/jobs/send-packets.ts).
// Every kept page of the congregation's sheets, in student order (human id, then the sheet's
// place in the file, then page number), upright, stamped with the page's own `p` code and a
// header naming student, lesson and congregation. Written page by page to disk, then stored.
// When every packet is stored the file is sent: sent_at, file_status grading, and a
// file_congregations row (unprinted) per congregation.
//
// Idempotent: a packet already stored is not written again, codes are reused, rows are
// upserted; a crash part way redoes at most the packet that was being written.
import type { BlobStore } from '../blob-store';
import type { Database } from '../db/database';

import { fileStepQuery, keptSheetSql, type FileStepRow } from '../repositories/sql/file-steps';
import { conflictError, FILE_NOT_FOUND, notFound } from '../http-error';
import { pdfDrawing } from '../pdf/lazy-drawing';
import type { PageDrawer, PageSize } from '../pdf/pdf-writer';
import { readAhead } from './blob-files';
import { JOB } from './job-progress';
import { startProgress } from '../repositories/job-progress';

/** What packet pages are drawn into: the in-memory writer or the streaming one. */
export interface PageSink {
  addPage(size: PageSize, draw: PageDrawer): Promise<void>;
}

/** A congregation's packet row and the rows of its pages, in print order. */
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

/**
 * Kept pages of kept sheets, in print order. `where` narrows the sheets (`a`), e.g. to one
 * congregation of a file or to one sheet.
 */
export function packetPagesSql(where: string): string {
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

/** Draws packet pages (already in order) into a PDF being written. */
export async function addPacketPages(
  writer: PageSink,
  blobStore: BlobStore,
  rows: readonly PacketPageRow[],
  codes: ReadonlyMap<string, string>,
  publicUrl: string,
  afterPage?: () => Promise<void>,
): Promise<void> {
  const { drawPacketPage, PACKET_PAGE_SIZE } = await pdfDrawing();
  let index = 0;
  for await (const jpeg of readAhead(blobStore, rows.map((row) => row.image_blob_key))) {
    const row = rows[index++]!;
    const codeId = codes.get(row.page_id);
    if (codeId === undefined) throw new Error(`page ${row.page_id} has no code`);
    await writer.addPage(PACKET_PAGE_SIZE, (context) =>
      drawPacketPage(
        context,
        {
          jpeg,
          code: { prefix: 'p', id: codeId },
          studentHumanId: row.student_human_id === null ? null : Number(row.student_human_id),
          lessonName: row.lesson_name === null ? null : `Lesson ${row.lesson_number ?? '?'}: ${row.lesson_name}`,
          congregationCode: row.wbs_code,
          pageNumber: row.sheet_page,
          pageCount: row.sheet_pages,
        },
        publicUrl,
      ),
    );
    await afterPage?.();
  }
}

/**
 * POST /send: refuses (409) unless the file is at the send step and not sent or being sent;
 * records the request, creates the packet rows (so their ids can be polled at once) and the
 * progress row. The caller queues the job.
 */
export async function requestSend(db: Database, fileId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const file = await tx.maybeOne<{ send_requested_at: Date | null; sent_at: Date | null }>(
      'SELECT send_requested_at, sent_at FROM files WHERE id = $1 FOR UPDATE',
      [fileId],
    );
    if (file === null) throw notFound(FILE_NOT_FOUND);
    if (file.sent_at !== null) throw conflictError('This file was sent to its study helpers already.');
    if (file.send_requested_at !== null) throw conflictError('This file is being sent to its study helpers.');
    const step = await tx.one<FileStepRow>(fileStepQuery(), [fileId]);
    if (step.step !== 'send') throw conflictError(`The file is not ready to send (it is at step ${step.step}).`);
    const { pages } = await tx.one<{ pages: number }>(
      `SELECT count(*)::int AS pages FROM answer_sheets a JOIN pages p ON p.answer_sheet_id = a.id AND NOT p.ignored WHERE a.file_id = $1`,
      [fileId],
    );
    if (pages === 0) throw conflictError('The file has no pages to send.');
    await tx.query('UPDATE files SET send_requested_at = now() WHERE id = $1', [fileId]);
    await upsertPackets(tx, fileId);
    await startProgress(tx, JOB.sendToStudyHelpers, fileId, pages);
  });
}

/** One packet row per congregation the file's kept sheets are assigned to (and no other). */
export async function upsertPackets(db: Database, fileId: string): Promise<void> {
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

/** The file's packets (by congregation code) and each one's pages, in print order. */
export async function packetsOf(db: Database, fileId: string): Promise<{ packets: PacketRow[]; pagesOf: Map<string, PacketPageRow[]> }> {
  const packets = await db.query<PacketRow>(
    `SELECT d.id, d.congregation_id, d.blob_key FROM packets d JOIN congregations g ON g.id = d.congregation_id
     WHERE d.file_id = $1 ORDER BY g.wbs_code`,
    [fileId],
  );
  const pagesOf = new Map<string, PacketPageRow[]>();
  for (const packet of packets) {
    pagesOf.set(packet.congregation_id, await db.query<PacketPageRow>(packetPagesSql('a.file_id = $1 AND a.assigned_group = $2'), [fileId, packet.congregation_id]));
  }
  return { packets, pagesOf };
}

/** Writes one packet's PDF page by page to the blob store and records it on its row. */
export async function writePacket(
  db: Database,
  blobStore: BlobStore,
  packet: PacketRow,
  rows: readonly PacketPageRow[],
  codes: ReadonlyMap<string, string>,
  options: { publicUrl: string; signal: AbortSignal; afterPage: () => Promise<void> },
): Promise<void> {
  const writer = (await pdfDrawing()).createBlobPdfWriter(blobStore, { title: 'Packet', signal: options.signal });
  let blob;
  try {
    await addPacketPages(writer, blobStore, rows, codes, options.publicUrl, options.afterPage);
    blob = (await writer.finish()).blob;
  } catch (error) {
    await writer.abort();
    throw error;
  }
  await db.query('UPDATE packets SET blob_key = $2, page_count = $3 WHERE id = $1', [packet.id, blob.key, rows.length]);
}

/** Every packet is stored: the file is sent, and grading starts in each congregation (unprinted). */
export async function markSent(db: Database, fileId: string): Promise<void> {
  await db.query(
    `INSERT INTO file_congregations (file_id, congregation_id, status)
     SELECT file_id, congregation_id, 'unprinted' FROM packets WHERE file_id = $1
     ON CONFLICT (file_id, congregation_id) DO NOTHING`,
    [fileId],
  );
  await db.query(`UPDATE files SET sent_at = now(), file_status = 'grading' WHERE id = $1 AND sent_at IS NULL`, [fileId]);
}

/** Sending keeps failing: the admin gets the Send button back. False when the file was sent meanwhile. */
export async function cancelSend(db: Database, fileId: string): Promise<boolean> {
  return (await db.execute('UPDATE files SET send_requested_at = NULL WHERE id = $1 AND sent_at IS NULL', [fileId])) > 0;
}

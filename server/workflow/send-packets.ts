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

import {
  cancelSendRequest,
  countPagesToSend,
  lockFileForSend,
  markFileSent,
  markSendRequested,
  packetPagesOfCongregation,
  packetsOfFile,
  storePacketBlob,
  upsertPacketsOfFile,
  type PacketPageRow,
  type PacketRow,
} from '../repositories/file-sending';
import { conflictError, FILE_NOT_FOUND, notFound } from '../http-error';
import { fileStepForView } from '../repositories/files';
import { pdfDrawing } from '../pdf/lazy-drawing';
import type { PageDrawer, PageSize } from '../pdf/pdf-writer';
import { readAhead } from './blob-files';
import { JOB } from './job-progress';
import { startProgress } from '../repositories/job-progress';

/** What packet pages are drawn into: the in-memory writer or the streaming one. */
export interface PageSink {
  addPage(size: PageSize, draw: PageDrawer): Promise<void>;
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
    const file = await lockFileForSend(tx, fileId);
    if (file === null) throw notFound(FILE_NOT_FOUND);
    if (file.sent_at !== null) throw conflictError('This file was sent to its study helpers already.');
    if (file.send_requested_at !== null) throw conflictError('This file is being sent to its study helpers.');
    const step = await fileStepForView(tx, fileId, null);
    if (step === null) throw notFound(FILE_NOT_FOUND);
    if (step.step !== 'send') throw conflictError(`The file is not ready to send (it is at step ${step.step}).`);
    const pages = await countPagesToSend(tx, fileId);
    if (pages === 0) throw conflictError('The file has no pages to send.');
    await markSendRequested(tx, fileId);
    await upsertPacketsOfFile(tx, fileId);
    await startProgress(tx, JOB.sendToStudyHelpers, fileId, pages);
  });
}

/** One packet row per congregation the file's kept sheets are assigned to (and no other). */
export async function upsertPackets(db: Database, fileId: string): Promise<void> {
  await upsertPacketsOfFile(db, fileId);
}

/** The file's packets (by congregation code) and each one's pages, in print order. */
export async function packetsOf(db: Database, fileId: string): Promise<{ packets: PacketRow[]; pagesOf: Map<string, PacketPageRow[]> }> {
  const packets = await packetsOfFile(db, fileId);
  const pagesOf = new Map<string, PacketPageRow[]>();
  for (const packet of packets) {
    pagesOf.set(packet.congregation_id, await packetPagesOfCongregation(db, fileId, packet.congregation_id));
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
  await storePacketBlob(db, packet.id, blob.key, rows.length);
}

/** Every packet is stored: the file is sent, and grading starts in each congregation (unprinted). */
export async function markSent(db: Database, fileId: string): Promise<void> {
  await markFileSent(db, fileId);
}

/** Sending keeps failing: the admin gets the Send button back. False when the file was sent meanwhile. */
export async function cancelSend(db: Database, fileId: string): Promise<boolean> {
  return cancelSendRequest(db, fileId);
}

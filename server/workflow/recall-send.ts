// Taking a sent file back to the Send step (sent by mistake, or to change an assignment): its
// packets and congregation rows go and the file is unsent. Only while nothing came of the send:
// refused (409, nothing changed) while it is being sent, once a packet was downloaded (printed)
// and once a graded scan of one of its pages came back. The packet codes stay: sending again
// prints the same codes, and deleting the file removes them.
import type { BlobStore } from '../blob-store';
import type { Database } from '../db/database';
import { discardIfUnreferenced } from '../db/blob-references';
import { conflictError, FILE_NOT_FOUND, notFound } from '../http-error';
import { JOB } from './job-progress';
import { removeProgress } from '../repositories/job-progress';

export async function recallSend(db: Database, blobStore: BlobStore, fileId: string): Promise<void> {
  const keys = await db.transaction(async (tx) => {
    const file = await tx.maybeOne<{ sent_at: Date | null; send_requested_at: Date | null; printed: boolean }>(
      'SELECT sent_at, send_requested_at, printed FROM files WHERE id = $1 FOR UPDATE',
      [fileId],
    );
    if (file === null) throw notFound(FILE_NOT_FOUND);
    if (file.sent_at === null && file.send_requested_at === null) throw conflictError('This file was not sent.');
    if (file.sent_at === null) throw conflictError('This file is being sent to its study helpers; it can be taken back once that is done.');
    // Locks the packets: a download marking one printed waits for this answer.
    const packets = await tx.query<{ blob_key: string | null; downloaded_at: Date | null }>(
      'SELECT blob_key, downloaded_at FROM packets WHERE file_id = $1 FOR UPDATE',
      [fileId],
    );
    const printedThere = await tx.maybeOne('SELECT 1 FROM file_congregations WHERE file_id = $1 AND printed_at IS NOT NULL LIMIT 1', [fileId]);
    if (file.printed || printedThere !== null || packets.some((packet) => packet.downloaded_at !== null)) {
      throw conflictError('A packet of this file was printed already, so the file cannot be taken back.');
    }
    const graded = await tx.maybeOne('SELECT 1 FROM feedback fb JOIN pages p ON p.id = fb.page_id WHERE p.file_id = $1 LIMIT 1', [fileId]);
    if (graded !== null) throw conflictError('Graded scans of this file came back already, so the file cannot be taken back.');
    await tx.query('DELETE FROM packets WHERE file_id = $1', [fileId]);
    await tx.query('DELETE FROM file_congregations WHERE file_id = $1', [fileId]);
    await tx.query(
      `UPDATE files SET sent_at = NULL, send_requested_at = NULL, file_status = NULL, grading_complete = false,
              return_requested_at = NULL, return_prepped = false
       WHERE id = $1`,
      [fileId],
    );
    await tx.query('DELETE FROM job_leases WHERE job = $1 AND target_id = $2', [JOB.sendToStudyHelpers, fileId]);
    await removeProgress(tx, JOB.sendToStudyHelpers, fileId);
    return packets.flatMap((packet) => (packet.blob_key === null ? [] : [packet.blob_key]));
  });
  for (const key of new Set(keys)) await discardIfUnreferenced(db, blobStore, key);
}

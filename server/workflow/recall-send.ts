// Taking a sent file back to the Send step (sent by mistake, or to change an assignment): its
// packets and congregation rows go and the file is unsent. Only while nothing came of the send:
// refused (409, nothing changed) while it is being sent, once a packet was downloaded (printed)
// and once a graded scan of one of its pages came back. The packet codes stay: sending again
// prints the same codes, and deleting the file removes them.
import type { BlobStore } from '../blob-store';
import type { Database } from '../db/database';
import { discardIfUnreferenced } from '../db/blob-references';
import { conflictError, FILE_NOT_FOUND, notFound } from '../http-error';
import { gradedScanOfFileCameBack, lockFileForRecall, lockPacketsOfFile, packetPrintedByCongregation, unsendFile } from '../repositories/file-sending';
import { dropLeaseOfTakenBackJob } from '../repositories/job-leases';
import { JOB } from './job-progress';
import { removeProgress } from '../repositories/job-progress';

export async function recallSend(db: Database, blobStore: BlobStore, fileId: string): Promise<void> {
  const keys = await db.transaction(async (tx) => {
    const file = await lockFileForRecall(tx, fileId);
    if (file === null) throw notFound(FILE_NOT_FOUND);
    if (file.sent_at === null && file.send_requested_at === null) throw conflictError('This file was not sent.');
    if (file.sent_at === null) throw conflictError('This file is being sent to its study helpers; it can be taken back once that is done.');
    // Locks the packets: a download marking one printed waits for this answer.
    const packets = await lockPacketsOfFile(tx, fileId);
    if (file.printed || (await packetPrintedByCongregation(tx, fileId)) || packets.some((packet) => packet.downloaded_at !== null)) {
      throw conflictError('A packet of this file was printed already, so the file cannot be taken back.');
    }
    if (await gradedScanOfFileCameBack(tx, fileId)) throw conflictError('Graded scans of this file came back already, so the file cannot be taken back.');
    await unsendFile(tx, fileId);
    await dropLeaseOfTakenBackJob(tx, JOB.sendToStudyHelpers, fileId);
    await removeProgress(tx, JOB.sendToStudyHelpers, fileId);
    return packets.flatMap((packet) => (packet.blob_key === null ? [] : [packet.blob_key]));
  });
  for (const key of new Set(keys)) await discardIfUnreferenced(db, blobStore, key);
}

// Job `send_to_study_helpers`: one packet (print PDF) per congregation of a file, then the file
// is sent (server/workflow/send-packets.ts). Target: the file, from POST /send until it is sent.
// A packet already stored is not written again: a crash redoes at most the one being written.
import { JOB } from '../workflow/job-progress';
import { tellPacketsReady } from '../workflow/notifications';
import { pageCodes } from '../workflow/printed-codes';
import type { PacketPageRow, PacketRow } from '../repositories/file-sending';
import { cancelSend, markSent, packetsOf, upsertPackets, writePacket } from '../workflow/send-packets';
import { leasedJob, step } from './leased-job';
import type { JobContext } from './queue';
import { FILES_TO_SEND } from '../repositories/job-leases';

export interface SendData {
  file_id: string;
}

interface SendRun {
  packets: PacketRow[];
  pagesOf: Map<string, PacketPageRow[]>;
  /** Each page's printed `p` code, by page id. */
  codes: Map<string, string>;
  /** Pages of all the packets: what progress counts. */
  pages: number;
}

export const sendToStudyHelpers = leasedJob<SendData, SendRun>({
  name: JOB.sendToStudyHelpers,
  targetOf: (data) => data.file_id,
  dataOf: (fileId) => ({ file_id: fileId }),
  wants: FILES_TO_SEND,
  expireInSeconds: 6 * 3600,
  load: async () => ({ packets: [], pagesOf: new Map(), codes: new Map(), pages: 0 }),
  steps: [
    step('one packet per congregation the kept sheets go to', async (job, run) => {
      await upsertPackets(job.db, job.targetId);
      Object.assign(run, await packetsOf(job.db, job.targetId));
    }),
    step('give every packet page its printed code', async (job, run) => {
      run.codes = await pageCodes(job.db, [...run.pagesOf.values()].flat().map((row) => row.page_id));
    }),
    step('write each packet not stored yet, page by page', async (job, run) => {
      const pageCount = (packet: PacketRow) => run.pagesOf.get(packet.congregation_id)!.length;
      run.pages = run.packets.reduce((sum, packet) => sum + pageCount(packet), 0);
      let written = run.packets.filter((packet) => packet.blob_key !== null).reduce((sum, packet) => sum + pageCount(packet), 0);
      await job.progress.start({ completed: written, count: run.pages });
      for (const packet of run.packets) {
        if (packet.blob_key !== null) continue;
        await writePacket(job.db, job.blobStore, packet, run.pagesOf.get(packet.congregation_id)!, run.codes, {
          publicUrl: job.config.publicUrl,
          signal: job.signal,
          afterPage: async () => {
            job.signal.throwIfAborted();
            await job.progress.report({ completed: ++written, count: run.pages });
          },
        });
      }
    }),
    step('mark the file sent: grading starts in each congregation', async (job, run) => {
      await job.commit(async (tx) => {
        await markSent(tx, job.targetId);
        await job.progress.succeed(tx, { completed: run.pages, count: run.pages });
        await tellPacketsReady(tx, job.targetId, job.config.publicUrl);
      });
    }),
  ],
  // Keeps crashing: give the admin the Send button back instead of retrying forever.
  giveUp: (tx, fileId) => cancelSend(tx, fileId),
});

/** Runs the job now in this process (tests, tools). */
export function sendPackets(context: JobContext, fileId: string): Promise<void> {
  return sendToStudyHelpers.run(context, { file_id: fileId });
}

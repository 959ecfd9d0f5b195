// Job `process_service_center_upload`: an uploaded file from stored PDF to answer sheets.
//   1. take the file's lease (one worker per file; a crashed worker's lease runs out)
//   2. run the scan pipeline from the first page not yet stored, storing each page (upsert on
//      (file_id, page_number)) and its upright image, so a restart resumes with no page lost or
//      doubled; progress goes to job_progress as it goes
//   3. split into answer sheets and write them in one transaction (write-sheets)
// One bad page never fails the file; the file fails only when it cannot be read at all or keeps
// crashing its workers.
import { randomUUID } from 'node:crypto';
import { isMissing, type BlobStore } from '../blob-store';
import { sqlState, SQLSTATE, type Database } from '../db/database';
import { processPages, type ProcessedPage } from '../pipeline/process-pages';
import { UnreadablePdfError } from '../pipeline/read-page';
import {
  FILES_AT_ONCE,
  JOB,
  leaseRenewalMs,
  MAX_PROCESSING_ATTEMPTS,
  PROCESSING_LEASE_SECONDS,
  SERVICE_CENTER_CODE_PREFIXES,
} from './job-types';
import { localCopy, type LocalCopy } from './local-copy';
import { announceProgress, updateProgress } from './progress';
import { WorkerStopped, type JobContext, type JobDefinition } from './queue';
import { writeSheets } from './write-sheets';

export interface ProcessUploadData {
  file_id: string;
}

/** Progress rows are written at most this often (plus the first and last page). */
const PROGRESS_WRITE_MS = 200;

export const processServiceCenterUpload: JobDefinition<ProcessUploadData> = {
  name: JOB.processServiceCenterUpload,
  concurrency: FILES_AT_ONCE,
  retryLimit: 2,
  retryDelaySeconds: 5,
  // pg-boss's own limit; leases, not this, keep a long file from being processed twice.
  expireInSeconds: 23 * 3600,
  handler: (data, context) => processUpload(context, data.file_id),
  async recover(context) {
    // Pending files nobody holds: their worker crashed or the server restarted.
    const rows = await context.db.query<{ id: string }>(
      `SELECT id FROM files
       WHERE process_status = 'pending' AND (processing_lease_until IS NULL OR processing_lease_until < now())
       ORDER BY created_at LIMIT 100`,
    );
    return rows.map((row) => ({ data: { file_id: row.id }, options: { singletonKey: row.id } }));
  },
};

/** Queues processing of an uploaded file (at most one queued job per file). */
export function processUploadJob(fileId: string): { name: typeof JOB.processServiceCenterUpload; data: ProcessUploadData; options: { singletonKey: string } } {
  return { name: JOB.processServiceCenterUpload, data: { file_id: fileId }, options: { singletonKey: fileId } };
}

export async function processUpload(context: JobContext, fileId: string): Promise<void> {
  const { db, blobStore, signal } = context;
  const leaseSeconds = context.leaseSeconds ?? PROCESSING_LEASE_SECONDS;
  const token = `${context.workerId}/${randomUUID()}`;
  const file = await db.maybeOne<{ blob_key: string; processing_attempts: number }>(
    `UPDATE files SET processing_lease_token = $2, processing_lease_until = now() + make_interval(secs => $3),
            processing_attempts = processing_attempts + 1
     WHERE id = $1 AND process_status = 'pending'
       AND (processing_lease_until IS NULL OR processing_lease_until < now())
     RETURNING blob_key, processing_attempts`,
    [fileId, token, leaseSeconds],
  );
  // Done already, deleted, or another worker has it.
  if (file === null) return;
  if (file.processing_attempts > MAX_PROCESSING_ATTEMPTS) {
    await failFile(db, fileId, token, `Processing stopped ${file.processing_attempts - 1} times before finishing`);
    return;
  }

  const lease = new Lease(db, fileId, token, leaseSeconds, signal);
  let local: LocalCopy | null = null;
  try {
    local = await localCopy(blobStore, file.blob_key);
    const startAtPage = await firstMissingPage(db, fileId);
    await updateProgress(db, JOB.processServiceCenterUpload, fileId, { status: 'running' });
    let lastWrite = 0;
    await processPages(local.path, {
      startAtPage,
      expectedPrefixes: SERVICE_CENTER_CODE_PREFIXES,
      signal: lease.signal,
      ...(context.config.pipelineThreads === undefined ? {} : { workers: context.config.pipelineThreads }),
      onPage: async (page) => {
        // A crashed worker writes nothing more (the pipeline reads one page ahead).
        lease.signal.throwIfAborted();
        await storePage(db, blobStore, fileId, page);
        await context.hooks.afterPageStored?.(fileId, page.page_number);
      },
      onProgress: async (progress) => {
        const now = Date.now();
        if (now - lastWrite < PROGRESS_WRITE_MS && progress.completed !== progress.count) return;
        lastWrite = now;
        await updateProgress(db, JOB.processServiceCenterUpload, fileId, {
          status: 'running',
          completed: progress.completed,
          count: progress.count,
          failed: await countFailedPages(db, fileId),
        });
      },
    });
    lease.signal.throwIfAborted();
    await writeSheets(db, fileId, token);
    announceProgress({ group_name: JOB.processServiceCenterUpload, run_id: fileId });
  } catch (error) {
    if (lease.signal.aborted) {
      // Stopped on purpose (not a crash): hand the file back so the next worker resumes at once.
      const reason: unknown = lease.signal.reason;
      if (reason instanceof WorkerStopped && !reason.crash) await releaseLease(db, fileId, token).catch(() => undefined);
      return;
    }
    if (sqlState(error) === SQLSTATE.foreignKeyViolation && !(await fileExists(db, fileId))) return;
    if (isUnreadablePdf(error)) {
      await failFile(db, fileId, token, `The PDF cannot be read: ${messageOf(error)}`);
      return;
    }
    // Anything else may be passing (database restart): let another attempt take over at once.
    await releaseLease(db, fileId, token).catch(() => undefined);
    throw error;
  } finally {
    lease.stop();
    await local?.dispose();
  }
}

async function releaseLease(db: Database, fileId: string, token: string): Promise<void> {
  await db.query('UPDATE files SET processing_lease_until = NULL WHERE id = $1 AND processing_lease_token = $2', [fileId, token]);
}

async function storePage(db: Database, blobStore: BlobStore, fileId: string, page: ProcessedPage): Promise<void> {
  const imageKey = page.image ? (await blobStore.put(page.image.jpeg)).key : null;
  await db.query(
    `INSERT INTO pages (file_id, page_number, blank, ignored, rotation, code_prefix, code_id, unrecognized_reason, image_blob_key, read_error)
     VALUES ($1, $2, $3, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (file_id, page_number) DO UPDATE SET
       blank = EXCLUDED.blank, ignored = EXCLUDED.ignored, rotation = EXCLUDED.rotation,
       code_prefix = EXCLUDED.code_prefix, code_id = EXCLUDED.code_id,
       unrecognized_reason = EXCLUDED.unrecognized_reason, image_blob_key = EXCLUDED.image_blob_key,
       read_error = EXCLUDED.read_error`,
    [
      fileId,
      page.page_number,
      page.blank,
      page.orientation ?? 0,
      page.code?.prefix ?? null,
      page.code?.id ?? null,
      page.code ? null : page.reason,
      imageKey,
      page.error,
    ],
  );
}

/** Pages are stored in order, so this is one past the last stored page (or the first gap). */
async function firstMissingPage(db: Database, fileId: string): Promise<number> {
  const rows = await db.query<{ page_number: number }>('SELECT page_number FROM pages WHERE file_id = $1 ORDER BY page_number', [fileId]);
  let expected = 1;
  for (const row of rows) {
    if (row.page_number !== expected) break;
    expected++;
  }
  return expected;
}

async function countFailedPages(db: Database, fileId: string): Promise<number> {
  const row = await db.one<{ failed: number }>('SELECT count(*) AS failed FROM pages WHERE file_id = $1 AND read_error IS NOT NULL', [fileId]);
  return Number(row.failed);
}

async function fileExists(db: Database, fileId: string): Promise<boolean> {
  return (await db.maybeOne('SELECT 1 FROM files WHERE id = $1', [fileId])) !== null;
}

async function failFile(db: Database, fileId: string, token: string, reason: string): Promise<void> {
  await db.transaction(async (tx) => {
    const changed = await tx.execute(
      `UPDATE files SET process_status = 'failed', failure_reason = $3,
              processing_lease_token = NULL, processing_lease_until = NULL
       WHERE id = $1 AND process_status = 'pending' AND processing_lease_token = $2`,
      [fileId, token, reason],
    );
    if (changed > 0) await updateProgress(tx, JOB.processServiceCenterUpload, fileId, { status: 'failed' });
  });
  announceProgress({ group_name: JOB.processServiceCenterUpload, run_id: fileId });
}

function isUnreadablePdf(error: unknown): boolean {
  // Page errors never get here (the pipeline keeps them per page); a missing blob is as bad.
  return error instanceof UnreadablePdfError || isMissing(error);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Keeps the file's lease alive while the job runs; its signal aborts when the queue stops or
 * the lease is lost (another worker took over a lease that ran out).
 */
class Lease {
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private readonly onOuterAbort = () => this.controller.abort(this.outer.reason);

  constructor(
    private readonly db: Database,
    private readonly fileId: string,
    private readonly token: string,
    private readonly seconds: number,
    private readonly outer: AbortSignal,
  ) {
    if (outer.aborted) this.controller.abort(outer.reason);
    outer.addEventListener('abort', this.onOuterAbort);
    this.timer = setInterval(() => void this.renew(), leaseRenewalMs(seconds));
    this.timer.unref?.();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  stop(): void {
    clearInterval(this.timer);
    this.outer.removeEventListener('abort', this.onOuterAbort);
  }

  private async renew(): Promise<void> {
    if (this.controller.signal.aborted) return;
    try {
      const renewed = await this.db.execute(
        `UPDATE files SET processing_lease_until = now() + make_interval(secs => $3)
         WHERE id = $1 AND processing_lease_token = $2 AND process_status = 'pending'`,
        [this.fileId, this.token, this.seconds],
      );
      if (renewed === 0) this.controller.abort(new Error('lease lost'));
    } catch {
      // The next renewal tries again; the lease is long enough to miss one.
    }
  }
}

// Progress of background jobs: one job_progress row per run (group_name = job type, run_id =
// the id of what the job works on: the file for uploads and packets), written by whichever
// worker runs the job and read by any server process. Listeners are served by polling that row,
// so a stream works whatever process runs the job; one poll per run and process, however many
// listeners. When the job runs in the listener's own process, each write also reads the row at
// once (announceProgress). Its SQL is in repositories/job-progress.ts; a running job's rows are
// written only through RunProgress here, the writer the runner (leased-job.ts) gives each job.
import { EventEmitter } from 'node:events';
import type { Schemas } from '../contract/types';
import type { Database } from '../db/database';
import {
  progressRowOf,
  writeProgress,
  writeProgressSuccess,
  type JobType,
  type ProgressKey,
  type ProgressRow,
  type ProgressStatus,
  type ProgressWrite,
} from '../repositories/job-progress';

export type { JobType, ProgressKey, ProgressStatus };

/** The background jobs of the product, named as the progress calls name them (contract JobType). */
export const JOB = {
  processServiceCenterUpload: 'process_service_center_upload',
  sendToStudyHelpers: 'send_to_study_helpers',
  generateReturnFile: 'generate_return_file_requested',
  processGradedUpload: 'process_graded_upload',
  removeAbandonedUploads: 'remove_abandoned_uploads',
} as const satisfies Record<string, JobType>;

/** Progress streams re-read job_progress this often (works across server processes). */
export const PROGRESS_POLL_MS = 250;
/** A running job writes its progress at most this often (plus its first and last unit). */
export const PROGRESS_WRITE_MS = 200;

export type ProgressMessage = Schemas['ProgressMessage'];

export function isFinished(status: string): boolean {
  return status === 'success' || status === 'failed';
}

function messageOf(row: ProgressRow): ProgressMessage {
  const status = (['pending', 'running', 'success', 'failed'].includes(row.status) ? row.status : 'running') as ProgressStatus;
  return {
    status,
    completed: row.completed,
    count: row.count,
    failed: row.failed,
    ...(row.message ? { message: row.message } : {}),
  };
}

/** Writes a run's progress (see writeProgress) and tells this process's listeners. */
export async function updateProgress(db: Database, group: JobType, runId: string, progress: ProgressWrite): Promise<void> {
  await writeProgress(db, group, runId, progress);
  // In a transaction the row may be read before it commits: the hub's next poll still sees it.
  announceProgress({ group_name: group, run_id: runId });
}

/**
 * A run's result is committing (RunProgress.succeed): success, with all of its count done unless `completed` says
 * otherwise, and `failed` as given (else as it was).
 */
async function succeedProgress(
  db: Database,
  group: JobType,
  runId: string,
  progress: { completed?: number; count?: number; failed?: number } = {},
): Promise<void> {
  await writeProgressSuccess(db, group, runId, progress);
  announceProgress({ group_name: group, run_id: runId });
}

/** Runs whose progress this process has just written (by their watchedId). */
const written = new EventEmitter();
written.setMaxListeners(0);

/**
 * Tells this process's listeners of a run that its progress row has changed (after the write,
 * or after the commit of the transaction that wrote it): they read it at once rather than at
 * their next poll, up to PROGRESS_POLL_MS later. Listeners in other processes keep polling.
 */
export function announceProgress(key: ProgressKey): void {
  written.emit('written', watchedId(key));
}

function watchedId(key: ProgressKey): string {
  return `${key.group_name}\u0000${key.run_id}`;
}

export async function readProgress(db: Database, key: ProgressKey): Promise<ProgressMessage | null> {
  const row = await progressRowOf(db, key);
  return row === null ? null : messageOf(row);
}

export type ProgressListener = (message: ProgressMessage) => void;

interface Watched {
  key: ProgressKey;
  listeners: Set<ProgressListener>;
  last: string | null;
  lastMessage: ProgressMessage | null;
  timer: NodeJS.Timeout | null;
  polling: boolean;
  /** Announced while a read was under way (it may predate the write): read again after it. */
  readAgain: boolean;
}

/**
 * Shares one poll of a run's row between all of a process's listeners. Each listener gets the
 * current state at once, then every change; after a finished state it is dropped.
 */
export class ProgressHub {
  private readonly watched = new Map<string, Watched>();
  private closed = false;

  private readonly onWritten = (id: string) => {
    const entry = this.watched.get(id);
    if (!entry || this.closed) return;
    if (entry.polling) {
      entry.readAgain = true;
      return;
    }
    if (entry.timer) clearTimeout(entry.timer);
    void this.poll(id, entry.key);
  };

  constructor(
    private readonly db: Database,
    private readonly pollMs: number = PROGRESS_POLL_MS,
  ) {
    written.on('written', this.onWritten);
  }

  /** Returns an unsubscribe function. The first message comes after one read of the row. */
  subscribe(key: ProgressKey, listener: ProgressListener): () => void {
    const id = watchedId(key);
    let entry = this.watched.get(id);
    if (!entry) {
      entry = { key, listeners: new Set(), last: null, lastMessage: null, timer: null, polling: false, readAgain: false };
      this.watched.set(id, entry);
    }
    entry.listeners.add(listener);
    const current = entry;
    // A late listener still gets the state right away, without waiting for a change.
    if (current.lastMessage) queueMicrotask(() => current.listeners.has(listener) && this.deliver(current, listener, current.lastMessage!));
    if (!current.timer && !current.polling) void this.poll(id, key);
    return () => {
      current.listeners.delete(listener);
      if (current.listeners.size === 0) this.drop(id);
    };
  }

  close(): void {
    this.closed = true;
    written.off('written', this.onWritten);
    for (const id of [...this.watched.keys()]) this.drop(id);
  }

  private deliver(entry: Watched, listener: ProgressListener, message: ProgressMessage): void {
    listener(message);
    if (isFinished(message.status)) entry.listeners.delete(listener);
  }

  private drop(id: string): void {
    const entry = this.watched.get(id);
    if (!entry) return;
    if (entry.timer) clearTimeout(entry.timer);
    entry.timer = null;
    this.watched.delete(id);
  }

  private async poll(id: string, key: ProgressKey): Promise<void> {
    const entry = this.watched.get(id);
    if (!entry || this.closed) return;
    entry.timer = null;
    entry.polling = true;
    entry.readAgain = false;
    let message: ProgressMessage | null = null;
    try {
      message = await readProgress(this.db, key);
    } catch {
      // A failed read (database restarting) is retried at the next tick.
    } finally {
      entry.polling = false;
    }
    if (this.watched.get(id) !== entry || this.closed) return;
    if (message) {
      const text = JSON.stringify(message);
      if (text !== entry.last) {
        entry.last = text;
        entry.lastMessage = message;
        for (const listener of [...entry.listeners]) this.deliver(entry, listener, message);
      }
      if (isFinished(message.status) && entry.listeners.size === 0) {
        this.drop(id);
        return;
      }
    }
    if (entry.listeners.size === 0) {
      this.drop(id);
      return;
    }
    entry.timer = setTimeout(() => void this.poll(id, key), entry.readAgain ? 0 : this.pollMs);
    entry.timer.unref?.();
  }
}

/** What a run reports: units done of its count, and failed units (a count, or how to count them). */
export interface ProgressReport {
  completed: number;
  count: number;
  /** Counted only when the report is written (a query, not run for every unit). */
  failed?: number | (() => Promise<number>);
}

/**
 * The progress of one run, written only through this: the runner (leased-job.ts) gives one to
 * each job it runs, its steps report through it, and the runner writes the failure. Reports are
 * written at most every PROGRESS_WRITE_MS (a 2000-page job does not write 2000 rows), always the
 * last unit.
 */
export class RunProgress {
  private lastWrite = 0;

  constructor(
    private readonly db: Database,
    readonly group: JobType,
    readonly runId: string,
  ) {}

  /** The counted work starts: running, with what is done already when the step knows it. */
  async start(report?: { completed: number; count: number }): Promise<void> {
    if (report) this.lastWrite = Date.now();
    await updateProgress(this.db, this.group, this.runId, { status: 'running', ...report });
  }

  /** Units done so far; written unless the last write is under PROGRESS_WRITE_MS old and work is left. */
  async report(report: ProgressReport): Promise<void> {
    const now = Date.now();
    if (now - this.lastWrite < PROGRESS_WRITE_MS && report.completed < report.count) return;
    this.lastWrite = now;
    const failed = typeof report.failed === 'function' ? await report.failed() : report.failed;
    await updateProgress(this.db, this.group, this.runId, {
      status: 'running',
      completed: Math.min(report.completed, report.count),
      count: report.count,
      ...(failed === undefined ? {} : { failed }),
    });
  }

  /**
   * The run's result is written, in the transaction of `job.commit`: success, all of its count
   * done unless `completed` says otherwise (listeners hear of it once that commits).
   */
  async succeed(tx: Database, report: { completed?: number; count?: number; failed?: number } = {}): Promise<void> {
    await succeedProgress(tx, this.group, this.runId, report);
  }

  /** The run gave up (runner only), in the transaction that fails its target. */
  async fail(tx: Database): Promise<void> {
    await updateProgress(tx, this.group, this.runId, { status: 'failed' });
  }
}

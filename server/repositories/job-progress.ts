// job_progress: one row per run of a background job (group_name = job type, run_id = the id of
// what the job works on). The only module with statements writing the table: a running job's
// rows are written by the runner's progress writer (workflow/job-progress.ts); queueing a
// job starts its row, and deleting or taking back its target removes it.
import type { Schemas } from '../contract/types';
import type { Database } from '../db/database';

export type JobType = Schemas['JobType'];
export type ProgressStatus = Schemas['ProgressMessage']['status'];

export interface ProgressKey {
  group_name: string;
  run_id: string;
}

export interface ProgressRow {
  group_name: string;
  run_id: string;
  status: string;
  completed: number;
  count: number;
  failed: number;
  /** Why a service-center upload failed (its file's failure_reason). */
  message: string | null;
}

/** What a progress write may change; what it leaves out stays as it was. */
export interface ProgressWrite {
  status: ProgressStatus;
  completed?: number;
  count?: number;
  failed?: number;
}

/** Creates or resets a run's progress (a job about to start). */
export async function startProgress(db: Database, group: JobType, runId: string, count: number): Promise<void> {
  await db.query(
    `INSERT INTO job_progress (group_name, run_id, status, completed, count, failed, updated_at)
     VALUES ($1, $2, 'pending', 0, $3, 0, now())
     ON CONFLICT (group_name, run_id)
     DO UPDATE SET status = 'pending', completed = 0, count = EXCLUDED.count, failed = 0, updated_at = now()`,
    [group, runId, count],
  );
}

/**
 * Writes a run's progress. While it runs, it never shows all of its work done: clients take a
 * share above 0.999 as finished (spec §7) and stop listening, but a job's last changes (the
 * split of a file, its sent date) commit with its success. So a running run holds back its last
 * unit (500 pages read show as 499 of 500 until the file's sheets are written).
 */
export async function writeProgress(db: Database, group: JobType, runId: string, progress: ProgressWrite): Promise<void> {
  await db.query(
    `INSERT INTO job_progress (group_name, run_id, status, completed, count, failed, updated_at)
     VALUES ($1, $2, $3,
             CASE WHEN $3 = 'running' THEN LEAST(COALESCE($4, 0), GREATEST(COALESCE($5, 0) - 1, 0)) ELSE COALESCE($4, 0) END,
             COALESCE($5, 0), COALESCE($6, 0), now())
     ON CONFLICT (group_name, run_id) DO UPDATE SET
       status = EXCLUDED.status,
       completed = CASE WHEN EXCLUDED.status = 'running'
                        THEN LEAST(COALESCE($4, job_progress.completed), GREATEST(COALESCE($5, job_progress.count) - 1, 0))
                        ELSE COALESCE($4, job_progress.completed) END,
       count = COALESCE($5, job_progress.count),
       failed = COALESCE($6, job_progress.failed),
       updated_at = now()`,
    [group, runId, progress.status, progress.completed ?? null, progress.count ?? null, progress.failed ?? null],
  );
}

/**
 * A run's result is committing: success, with all of its count done unless `completed` says
 * otherwise, and `failed` as given (else as it was).
 */
export async function writeProgressSuccess(
  db: Database,
  group: JobType,
  runId: string,
  progress: { completed?: number; count?: number; failed?: number },
): Promise<void> {
  await db.query(
    `INSERT INTO job_progress (group_name, run_id, status, completed, count, failed, updated_at)
     VALUES ($1, $2, 'success', COALESCE($3, $4, 0), COALESCE($4, 0), COALESCE($5, 0), now())
     ON CONFLICT (group_name, run_id) DO UPDATE SET
       status = 'success',
       completed = COALESCE($3, $4, job_progress.count),
       count = COALESCE($4, job_progress.count),
       failed = COALESCE($5, job_progress.failed),
       updated_at = now()`,
    [group, runId, progress.completed ?? null, progress.count ?? null, progress.failed ?? null],
  );
}

/** Removes a run's progress: what it worked on is deleted, or taken back to before the job. */
export async function removeProgress(db: Database, group: JobType, runId: string): Promise<void> {
  await db.query('DELETE FROM job_progress WHERE group_name = $1 AND run_id = $2', [group, runId]);
}

/** Removes the progress of every run (the programme data is deleted). */
export async function removeAllProgress(db: Database): Promise<void> {
  await db.execute('DELETE FROM job_progress');
}

/** A run's progress row, with a failed service-center upload's reason; null when it has none. */
export async function progressRowOf(db: Database, key: ProgressKey): Promise<ProgressRow | null> {
  return db.maybeOne<ProgressRow>(
    `SELECT jp.group_name, jp.run_id, jp.status, jp.completed, jp.count, jp.failed,
            CASE WHEN jp.status = 'failed' AND jp.group_name = 'process_service_center_upload'
                 THEN (SELECT f.failure_reason FROM files f WHERE f.id::text = jp.run_id) END AS message
     FROM job_progress jp WHERE jp.group_name = $1 AND jp.run_id = $2`,
    [key.group_name, key.run_id],
  );
}

/** The most recently updated run with this id, whatever its job type. */
export async function findRun(db: Database, runId: string): Promise<ProgressKey | null> {
  const rows = await db.query<ProgressKey>('SELECT group_name, run_id FROM job_progress WHERE run_id = $1 ORDER BY updated_at DESC LIMIT 1', [runId]);
  return rows[0] ?? null;
}

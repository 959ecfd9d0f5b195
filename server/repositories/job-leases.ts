// The job_leases table's rows as the workflow drops them: a job whose target is taken back has
// nothing left to run (db/ keeps the leasing itself).
import type { Database } from '../db/database';
import type { Schemas } from '../contract/types';

/** Drops the lease of a job on a target (nothing when there is none). */
export async function dropLeaseOfTakenBackJob(db: Database, job: string, targetId: string): Promise<void> {
  await db.query('DELETE FROM job_leases WHERE job = $1 AND target_id = $2', [job, targetId]);
}

type JobType = Schemas['JobType'];

/**
 * Which rows of a table want a job: the table of the targets (its rows `t`, id `t.id`), the
 * condition under which a target wants the job, and the order in which waiting targets are
 * taken up again. Trusted SQL, written here or in a test, never from a request.
 */
export interface JobTargets {
  table: string;
  where: string;
  orderBy: string;
}

/** Service-center files waiting to be read. */
export const FILES_TO_READ: JobTargets = { table: 'files', where: `t.process_status = 'pending'`, orderBy: 't.created_at' };
/** Graded uploads (and intro files) waiting to be read. */
export const GRADED_UPLOADS_TO_READ: JobTargets = { table: 'graded_uploads', where: `t.process_status = 'pending'`, orderBy: 't.created_at' };
/** Files whose send was asked for and is not done. */
export const FILES_TO_SEND: JobTargets = { table: 'files', where: 't.send_requested_at IS NOT NULL AND t.sent_at IS NULL', orderBy: 't.send_requested_at' };
/** Completed files whose return file was asked for and is not made yet. */
export const RETURN_FILES_TO_MAKE: JobTargets = {
  table: 'files',
  where: 't.return_requested_at IS NOT NULL AND NOT t.return_prepped AND t.grading_complete',
  orderBy: 't.return_requested_at',
};

/** Who asks for a lease: the job, its target, the asking worker's token and the lease's length. */
export interface LeaseClaim {
  job: JobType;
  targetId: string;
  token: string;
  seconds: number;
}

/** Up to 100 targets that want `job` and have no live lease (their worker died): to queue again. */
export async function targetsWithoutLiveLease(db: Database, job: JobType, targets: JobTargets): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `SELECT t.id FROM ${targets.table} t
     WHERE ${targets.where} AND NOT EXISTS (SELECT 1 FROM job_leases l WHERE l.job = $1 AND l.target_id = t.id AND l.lease_until >= now())
     ORDER BY ${targets.orderBy} LIMIT 100`,
    [job],
  );
  return rows.map((row) => row.id);
}

/** Whether the target row is still there (it may be deleted while its job runs). */
export async function jobTargetExists(db: Database, targets: JobTargets, targetId: string): Promise<boolean> {
  return (await db.maybeOne(`SELECT 1 FROM ${targets.table} WHERE id = $1`, [targetId])) !== null;
}

/**
 * Takes the lease when the target wants the job and no other worker holds a live one: the
 * target's attempts since it last finished (1 on a first run), or null.
 */
export async function takeJobLease(db: Database, claim: LeaseClaim, targets: JobTargets): Promise<number | null> {
  const row = await db.maybeOne<{ attempts: number }>(
    `INSERT INTO job_leases (job, target_id, token, lease_until, attempts)
     SELECT $1, t.id, $3, now() + make_interval(secs => $4), 1 FROM ${targets.table} t WHERE t.id = $2 AND ${targets.where}
     ON CONFLICT (job, target_id) DO UPDATE SET token = EXCLUDED.token, lease_until = EXCLUDED.lease_until,
            attempts = CASE WHEN job_leases.token IS NULL THEN 1 ELSE job_leases.attempts + 1 END
     WHERE job_leases.lease_until IS NULL OR job_leases.lease_until < now()
     RETURNING attempts`,
    [claim.job, claim.targetId, claim.token, claim.seconds],
  );
  return row?.attempts ?? null;
}

/** Finishes a lease still held by its token: the row stays, without holder. False when it was not held. */
export async function finishJobLease(db: Database, claim: LeaseClaim): Promise<boolean> {
  return (await db.execute('UPDATE job_leases SET token = NULL, lease_until = NULL WHERE job = $1 AND target_id = $2 AND token = $3', [claim.job, claim.targetId, claim.token])) > 0;
}

/** Ends a held lease at once (work not done), so the next worker can resume. */
export async function releaseJobLease(db: Database, claim: LeaseClaim): Promise<void> {
  await db.query(`UPDATE job_leases SET lease_until = now() - interval '1 second' WHERE job = $1 AND target_id = $2 AND token = $3`, [
    claim.job,
    claim.targetId,
    claim.token,
  ]);
}

/** Extends a held lease by its length; false when it is no longer held by this token. */
export async function renewJobLease(db: Database, claim: LeaseClaim): Promise<boolean> {
  const renewed = await db.execute(
    `UPDATE job_leases SET lease_until = now() + make_interval(secs => $4) WHERE job = $1 AND target_id = $2 AND token = $3`,
    [claim.job, claim.targetId, claim.token, claim.seconds],
  );
  return renewed > 0;
}

// The job_leases table's rows as the workflow drops them: a job whose target is taken back has
// nothing left to run (db/ keeps the leasing itself).
import type { Database } from '../db/database';

/** Drops the lease of a job on a target (nothing when there is none). */
export async function dropLeaseOfTakenBackJob(db: Database, job: string, targetId: string): Promise<void> {
  await db.query('DELETE FROM job_leases WHERE job = $1 AND target_id = $2', [job, targetId]);
}

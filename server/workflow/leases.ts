// Who is working on what: a lease per (job, target) in workflow_leases, renewed while the work
// runs. A crashed worker's lease runs out and the recovery sweep hands the work to another; two
// workers never build the same packet or return file at once. Attempts count the times a
// worker took the work, so work that keeps crashing workers can be failed instead of retried.
import { randomUUID } from 'node:crypto';
import { sqlState, SQLSTATE, type Database } from '../db/database';
import { leaseRenewalMs, PROCESSING_LEASE_SECONDS } from '../jobs/job-types';
import { WorkerStopped } from '../jobs/queue';

/** As a file's lease: a dead worker's work is taken over as quickly. */
export const WORKFLOW_LEASE_SECONDS = PROCESSING_LEASE_SECONDS;
/** Work taken this many times without finishing is failed. */
export const MAX_WORKFLOW_ATTEMPTS = 5;

export interface WorkLease {
  readonly attempts: number;
  /** Aborts when the worker stops or the lease was lost (another worker took over). */
  readonly signal: AbortSignal;
  /** Work done: the lease row goes. */
  finish(): Promise<void>;
  /** Work not done (error, stop): the lease is let go at once so the next worker can resume. */
  release(): Promise<void>;
  /** Stops renewing without touching the row (a crash, as tests simulate it). */
  stop(): void;
}

/** Takes the lease unless another worker holds a live one (then null). */
export async function takeLease(
  db: Database,
  job: string,
  targetId: string,
  options: { workerId: string; seconds?: number; signal: AbortSignal },
): Promise<WorkLease | null> {
  const seconds = options.seconds ?? WORKFLOW_LEASE_SECONDS;
  const token = `${options.workerId}/${randomUUID()}`;
  const row = await db.maybeOne<{ attempts: number }>(
    `INSERT INTO workflow_leases (job, target_id, token, lease_until, attempts)
     VALUES ($1, $2, $3, now() + make_interval(secs => $4), 1)
     ON CONFLICT (job, target_id) DO UPDATE SET token = EXCLUDED.token, lease_until = EXCLUDED.lease_until,
            attempts = workflow_leases.attempts + 1
     WHERE workflow_leases.lease_until < now()
     RETURNING attempts`,
    [job, targetId, token, seconds],
  );
  if (row === null) return null;
  return new RenewedLease(db, job, targetId, token, seconds, row.attempts, options.signal);
}

/** SQL: no live lease on `target` for `job` (for the recovery sweeps). */
export function noLiveLeaseSql(job: string, target: string): string {
  return `NOT EXISTS (SELECT 1 FROM workflow_leases wl WHERE wl.job = '${job}' AND wl.target_id = ${target} AND wl.lease_until >= now())`;
}

/** True when the abort came from a queue stopping like a killed process (hand nothing back). */
export function isCrashStop(signal: AbortSignal): boolean {
  const reason: unknown = signal.reason;
  return reason instanceof WorkerStopped && reason.crash;
}

class RenewedLease implements WorkLease {
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private readonly onOuterAbort = () => this.controller.abort(this.outer.reason);

  constructor(
    private readonly db: Database,
    private readonly job: string,
    private readonly targetId: string,
    private readonly token: string,
    private readonly seconds: number,
    readonly attempts: number,
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

  async finish(): Promise<void> {
    this.stop();
    await this.db.query('DELETE FROM workflow_leases WHERE job = $1 AND target_id = $2 AND token = $3', [this.job, this.targetId, this.token]);
  }

  async release(): Promise<void> {
    this.stop();
    await this.db.query(
      `UPDATE workflow_leases SET lease_until = now() - interval '1 second' WHERE job = $1 AND target_id = $2 AND token = $3`,
      [this.job, this.targetId, this.token],
    );
  }

  private async renew(): Promise<void> {
    if (this.controller.signal.aborted) return;
    try {
      const renewed = await this.db.execute(
        `UPDATE workflow_leases SET lease_until = now() + make_interval(secs => $4)
         WHERE job = $1 AND target_id = $2 AND token = $3`,
        [this.job, this.targetId, this.token, this.seconds],
      );
      if (renewed === 0) this.controller.abort(new Error('lease lost'));
    } catch {
      // The next renewal tries again; the lease is long enough to miss one.
    }
  }
}

/**
 * What a file job does with an error: a stopped worker gives its lease back (or, on a crash
 * stop, leaves it to run out); a file deleted meanwhile ends the job quietly; anything else
 * gives the lease back and fails the job so the queue retries it.
 */
export async function endFileJobAfterError(db: Database, lease: WorkLease, fileId: string, error: unknown): Promise<void> {
  if (lease.signal.aborted) {
    if (!isCrashStop(lease.signal)) await lease.release().catch(() => undefined);
    else lease.stop();
    return;
  }
  if (sqlState(error) === SQLSTATE.foreignKeyViolation && (await db.maybeOne('SELECT 1 FROM files WHERE id = $1', [fileId])) === null) {
    await lease.finish().catch(() => undefined);
    return;
  }
  await lease.release().catch(() => undefined);
  throw error;
}

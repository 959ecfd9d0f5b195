// How a job runs. Every job type (definitions.ts lists the four) is a leased job: what it works
// on (its target: a file, an upload), when a target wants it, and its steps in order.
//
//   claim    pg-boss hands a worker the job (queue.ts). The worker takes the target's lease in
//            job_leases, only while the target still wants the job and no other worker holds a
//            live lease (else it does nothing: that worker has it). `attempts` counts the takes
//            since the target last finished.
//   give up  taken more than MAX_PROCESSING_ATTEMPTS times (it keeps crashing its workers): the
//            job type's giveUp fails the target for the user, progress shows failed.
//   steps    load, then the named steps one after the other. A step may return STOP (nothing
//            more to do). The job's result is written through `job.commit`: one transaction that
//            writes only while the lease is still ours, and finishes the lease with it.
//   renewal  while it runs, the lease is renewed LEASE_RENEWALS_PER_LEASE times per lease. A lost
//            lease (another worker took over one that ran out) or the queue stopping aborts
//            `job.signal`; steps stop at their next safe point.
//   failure  stopped: the lease is handed back at once (a crash stop leaves it to run out); the
//            target deleted meanwhile: ends quietly; an error the job type calls permanent (an
//            unreadable PDF): given up as above; anything else: the lease is handed back and the
//            error thrown, so pg-boss retries.
//   cleanup  the job type's cleanup runs in `finally`, whatever happened (local copies of blobs).
//   progress the steps report through `job.progress` (RunProgress, job-progress.ts: the one
//            writer of a run's progress, throttled there), its success in the result's commit;
//            a give-up writes the failure.
// Recovery: every worker sweeps every RECOVERY_SWEEP_SECONDS for targets that want a job and
// have no live lease (their worker died, the server restarted) and queues them again.
// A finished job keeps its lease row without a holder, so its attempts stay readable.
import { randomUUID } from 'node:crypto';
import type { BlobStore } from '../blob-store';
import type { Config } from '../config';
import { sqlState, SQLSTATE, type Database } from '../db/database';
import { announceProgress, RunProgress, type JobType } from '../workflow/job-progress';
import { LEASE_SECONDS, leaseRenewalMs, MAX_PROCESSING_ATTEMPTS } from './job-types';
import { WorkerStopped, type JobContext, type JobDefinition, type JobHooks, type JobLogger } from './queue';

/** A step returns STOP when the job has nothing more to do. */
export const STOP = Symbol('stop');

/** What a step sees of the job it runs in. */
export interface RunningJob {
  readonly db: Database;
  readonly blobStore: BlobStore;
  readonly config: Config;
  readonly logger: JobLogger;
  readonly hooks: JobHooks;
  /** The worker's context, to run another job in this one. */
  readonly context: JobContext;
  readonly targetId: string;
  /** Times a worker took this target since it last finished (1 on a first run). */
  readonly attempts: number;
  /** Aborts when the queue stops or the lease is lost. */
  readonly signal: AbortSignal;
  /**
   * The run's progress: steps report through it (throttled) and write its success in the
   * transaction of `commit` that stores the result; the runner writes a failure.
   */
  readonly progress: RunProgress;
  /**
   * Writes the job's result in one transaction, only while the lease is ours (else the job
   * stops as on a lost lease), and finishes the lease in it. Later steps run without a lease.
   */
  commit<T>(write: (tx: Database) => Promise<T>): Promise<T>;
}

export interface JobStep<Run> {
  /** What the step does, in the product's words. */
  name: string;
  run(job: RunningJob, run: Run): Promise<void | typeof STOP>;
}

/** A named step (reads as a line of the job's list). */
export function step<Run>(name: string, run: JobStep<Run>['run']): JobStep<Run> {
  return { name, run };
}

export interface LeasedJobType<Data extends object, Run> {
  name: JobType;
  /** The target of a job's data, and the data of a target (for the recovery sweep). */
  targetOf(data: Data): string;
  dataOf(targetId: string): Data;
  /**
   * The table of the targets (its rows `t`, id `t.id`), the condition under which a target wants
   * this job, and the order in which waiting targets are taken up again.
   */
  wants: { table: string; where: string; orderBy: string };
  /** What the steps need; null when there is nothing to do after all. */
  load(job: RunningJob): Promise<Run | null>;
  steps: readonly JobStep<Run>[];
  /** Runs in `finally` once load has returned. */
  cleanup?(run: Run): Promise<void>;
  /** Fails the target for the user, in `tx`; true when it changed (progress then shows failed). */
  giveUp(tx: Database, targetId: string, reason: string, job: RunningJob): Promise<boolean>;
  /** Why an error fails the target for good (an unreadable PDF), or null: let pg-boss retry. */
  permanentFailure?(error: unknown): string | null;
  /** Jobs one worker process runs at once (default 1). */
  concurrency?: number;
  retryLimit?: number;
  retryDelaySeconds?: number;
  /** pg-boss's own limit; leases, not this, keep a long job from running twice. */
  expireInSeconds?: number;
}

export interface LeasedJob<Data extends object> extends JobDefinition<Data> {
  /** Runs the job now in this process, as a worker would (tests, tools, a job within a job). */
  run(context: JobContext, data: Data): Promise<void>;
}

export function leasedJob<Data extends object, Run>(type: LeasedJobType<Data, Run>): LeasedJob<Data> {
  const run = (context: JobContext, data: Data) => runLeasedJob(type, context, type.targetOf(data));
  return {
    name: type.name,
    concurrency: type.concurrency ?? 1,
    retryLimit: type.retryLimit ?? 2,
    retryDelaySeconds: type.retryDelaySeconds ?? 5,
    ...(type.expireInSeconds === undefined ? {} : { expireInSeconds: type.expireInSeconds }),
    handler: (data, context) => run(context, data),
    run,
    async recover(context) {
      const { table, where, orderBy } = type.wants;
      const rows = await context.db.query<{ id: string }>(
        `SELECT t.id FROM ${table} t
         WHERE ${where} AND NOT EXISTS (SELECT 1 FROM job_leases l WHERE l.job = $1 AND l.target_id = t.id AND l.lease_until >= now())
         ORDER BY ${orderBy} LIMIT 100`,
        [type.name],
      );
      return rows.map((row) => ({ data: type.dataOf(row.id), options: { singletonKey: row.id } }));
    },
  };
}

async function runLeasedJob<Data extends object, Run>(type: LeasedJobType<Data, Run>, context: JobContext, targetId: string): Promise<void> {
  const lease = await Lease.take(context, type, targetId);
  if (lease === null) return;
  const job = runningJob(context, lease, targetId);
  let run: Run | null = null;
  try {
    if (lease.attempts > MAX_PROCESSING_ATTEMPTS) {
      await giveUp(type, job, `Processing stopped ${lease.attempts - 1} times before finishing`);
      return;
    }
    run = await type.load(job);
    if (run !== null) {
      for (const next of type.steps) {
        job.signal.throwIfAborted();
        if ((await next.run(job, run)) === STOP) break;
      }
    }
    await lease.finish();
  } catch (error) {
    if (lease.signal.aborted) {
      // Stopped on purpose (not a crash): hand the target back so the next worker resumes at once.
      if (!isCrashStop(lease.signal)) await lease.release().catch(() => undefined);
      return;
    }
    if (sqlState(error) === SQLSTATE.foreignKeyViolation && !(await targetExists(context.db, type, targetId))) {
      await lease.finish().catch(() => undefined);
      return;
    }
    const reason = type.permanentFailure?.(error) ?? null;
    if (reason !== null) {
      await giveUp(type, job, reason);
      return;
    }
    // Anything else may be passing (database restart): let another attempt take over at once.
    await lease.release().catch(() => undefined);
    throw error;
  } finally {
    lease.stop();
    if (run !== null) await type.cleanup?.(run);
  }
}

async function giveUp<Data extends object, Run>(type: LeasedJobType<Data, Run>, job: RunningJob, reason: string): Promise<void> {
  await job.commit(async (tx) => {
    if (await type.giveUp(tx, job.targetId, reason, job)) await job.progress.fail(tx);
  });
}

async function targetExists<Data extends object, Run>(db: Database, type: LeasedJobType<Data, Run>, targetId: string): Promise<boolean> {
  return (await db.maybeOne(`SELECT 1 FROM ${type.wants.table} WHERE id = $1`, [targetId])) !== null;
}

function runningJob(context: JobContext, lease: Lease, targetId: string): RunningJob {
  return {
    db: context.db,
    blobStore: context.blobStore,
    config: context.config,
    logger: context.logger,
    hooks: context.hooks,
    context,
    targetId,
    attempts: lease.attempts,
    signal: lease.signal,
    progress: new RunProgress(context.db, lease.job, targetId),
    commit: async (write) => {
      const value = await lease.commit(write);
      // The result's progress row is committed now: listeners in this process read it at once.
      announceProgress({ group_name: lease.job, run_id: targetId });
      return value;
    },
  };
}

/** True when the abort came from a queue stopping like a killed process (hand nothing back). */
function isCrashStop(signal: AbortSignal): boolean {
  const reason: unknown = signal.reason;
  return reason instanceof WorkerStopped && reason.crash;
}

/** Finishes a lease still held by its token: the row stays, without holder. */
const FINISH_SQL = 'UPDATE job_leases SET token = NULL, lease_until = NULL WHERE job = $1 AND target_id = $2 AND token = $3';

/** A job's hold on its target: a row of job_leases, renewed while the job runs. */
class Lease {
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private readonly onOuterAbort = () => this.controller.abort(this.outer.reason);
  /** Set while the result commits and after: the row is ours to finish, not to renew. */
  private finishing = false;

  /** Takes the lease when the target wants the job and no other worker holds a live one, else null. */
  static async take<Data extends object, Run>(context: JobContext, type: LeasedJobType<Data, Run>, targetId: string): Promise<Lease | null> {
    const seconds = context.leaseSeconds ?? LEASE_SECONDS;
    const token = `${context.workerId}/${randomUUID()}`;
    const row = await context.db.maybeOne<{ attempts: number }>(
      `INSERT INTO job_leases (job, target_id, token, lease_until, attempts)
       SELECT $1, t.id, $3, now() + make_interval(secs => $4), 1 FROM ${type.wants.table} t WHERE t.id = $2 AND ${type.wants.where}
       ON CONFLICT (job, target_id) DO UPDATE SET token = EXCLUDED.token, lease_until = EXCLUDED.lease_until,
              attempts = CASE WHEN job_leases.token IS NULL THEN 1 ELSE job_leases.attempts + 1 END
       WHERE job_leases.lease_until IS NULL OR job_leases.lease_until < now()
       RETURNING attempts`,
      [type.name, targetId, token, seconds],
    );
    return row === null ? null : new Lease(context.db, type.name, targetId, token, seconds, row.attempts, context.signal);
  }

  private constructor(
    private readonly db: Database,
    readonly job: JobType,
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

  /** Stops renewing (the row is left as it is: a crash, as tests simulate it, leaves it to run out). */
  stop(): void {
    clearInterval(this.timer);
    this.outer.removeEventListener('abort', this.onOuterAbort);
  }

  async commit<T>(write: (tx: Database) => Promise<T>): Promise<T> {
    // A renewal waiting on the row meanwhile finds it finished: that is not a lost lease.
    this.finishing = true;
    let held = false;
    let value: T | undefined;
    try {
      value = await this.db.transaction(async (tx) => {
        held = (await tx.execute(FINISH_SQL, [this.job, this.targetId, this.token])) > 0;
        return held ? await write(tx) : undefined;
      });
    } catch (error) {
      // Rolled back: the lease is ours still, and renewed again.
      this.finishing = false;
      throw error;
    }
    if (!held) {
      this.controller.abort(new Error('lease lost'));
      this.controller.signal.throwIfAborted();
    }
    clearInterval(this.timer);
    return value as T;
  }

  /** Work done: the lease row stays, without holder. */
  async finish(): Promise<void> {
    this.finishing = true;
    this.stop();
    await this.db.execute(FINISH_SQL, [this.job, this.targetId, this.token]);
  }

  /** Work not done (error, stop): the lease ends at once so the next worker can resume. */
  async release(): Promise<void> {
    this.stop();
    await this.db.query(
      `UPDATE job_leases SET lease_until = now() - interval '1 second' WHERE job = $1 AND target_id = $2 AND token = $3`,
      [this.job, this.targetId, this.token],
    );
  }

  private async renew(): Promise<void> {
    if (this.controller.signal.aborted || this.finishing) return;
    try {
      const renewed = await this.db.execute(
        `UPDATE job_leases SET lease_until = now() + make_interval(secs => $4) WHERE job = $1 AND target_id = $2 AND token = $3`,
        [this.job, this.targetId, this.token, this.seconds],
      );
      if (renewed === 0 && !this.finishing) this.controller.abort(new Error('lease lost'));
    } catch {
      // The next renewal tries again; the lease is long enough to miss one.
    }
  }
}

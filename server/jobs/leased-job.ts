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
import {
  finishJobLease,
  jobTargetExists,
  releaseJobLease,
  renewJobLease,
  takeJobLease,
  targetsWithoutLiveLease,
  type JobTargets,
  type LeaseClaim,
} from '../repositories/job-leases';
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
  /** Which targets want this job (repositories/job-leases.ts names those of the product's jobs). */
  wants: JobTargets;
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
      const ids = await targetsWithoutLiveLease(context.db, type.name, type.wants);
      return ids.map((id) => ({ data: type.dataOf(id), options: { singletonKey: id } }));
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
    if (sqlState(error) === SQLSTATE.foreignKeyViolation && !(await jobTargetExists(context.db, type.wants, targetId))) {
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

/** A job's hold on its target: a row of job_leases, renewed while the job runs. */
class Lease {
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private readonly onOuterAbort = () => this.controller.abort(this.outer.reason);
  /** Set while the result commits and after: the row is ours to finish, not to renew. */
  private finishing = false;

  /** Takes the lease when the target wants the job and no other worker holds a live one, else null. */
  static async take<Data extends object, Run>(context: JobContext, type: LeasedJobType<Data, Run>, targetId: string): Promise<Lease | null> {
    const claim: LeaseClaim = { job: type.name, targetId, token: `${context.workerId}/${randomUUID()}`, seconds: context.leaseSeconds ?? LEASE_SECONDS };
    const attempts = await takeJobLease(context.db, claim, type.wants);
    return attempts === null ? null : new Lease(context.db, claim, attempts, context.signal);
  }

  private constructor(
    private readonly db: Database,
    private readonly claim: LeaseClaim,
    readonly attempts: number,
    private readonly outer: AbortSignal,
  ) {
    if (outer.aborted) this.controller.abort(outer.reason);
    outer.addEventListener('abort', this.onOuterAbort);
    this.timer = setInterval(() => void this.renew(), leaseRenewalMs(claim.seconds));
    this.timer.unref?.();
  }

  get job(): JobType {
    return this.claim.job;
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
        held = await finishJobLease(tx, this.claim);
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
    await finishJobLease(this.db, this.claim);
  }

  /** Work not done (error, stop): the lease ends at once so the next worker can resume. */
  async release(): Promise<void> {
    this.stop();
    await releaseJobLease(this.db, this.claim);
  }

  private async renew(): Promise<void> {
    if (this.controller.signal.aborted || this.finishing) return;
    try {
      const renewed = await renewJobLease(this.db, this.claim);
      if (!renewed && !this.finishing) this.controller.abort(new Error('lease lost'));
    } catch {
      // The next renewal tries again; the lease is long enough to miss one.
    }
  }
}

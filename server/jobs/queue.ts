// Background jobs on pg-boss 10, claimed in the database so any number of worker processes can
// share a PostgreSQL database, and the same code runs on embedded PGlite. pg-boss talks to the
// database only through our Database interface (its `db.executeSql` adapter): its
// parameterless multi-statement scripts (migrations, locked maintenance) go to exec(), the rest
// to query(). On PGlite everything is serialised by PGlite's own single connection.
//
// A job type is a JobDefinition, made by leasedJob (leased-job.ts says how a job runs;
// definitions.ts lists the job types). Handlers must be idempotent: a job may run again after a
// crash. `recover` finds work that was interrupted (e.g. a pending upload whose worker died); this
// queue runs it at start and every RECOVERY_SWEEP_SECONDS.
import { randomUUID } from 'node:crypto';
import PgBoss from 'pg-boss';
import type { BlobStore } from '../blob-store';
import type { Config } from '../config';
import type { Database } from '../db/database';
import { pgBossAdapter } from '../db/pg-boss-adapter';
import type { Logger } from '../logger';
import { currentSchemaName, tableExists } from '../repositories/job-queue';
import type { JobType } from '../workflow/job-progress';
import { RECOVERY_SWEEP_SECONDS } from './job-types';

/** The mail job (server/jobs/send-mail.ts) has no progress stream, so it is no contract JobType. */
export const SEND_MAIL_JOB = 'send_mail';
/** Nor has the refresh of old page prints (server/jobs/refresh-page-prints.ts). */
export const REFRESH_PAGE_PRINTS_JOB = 'refresh_page_prints';
/** Every job type the queue runs. */
export type QueueJobName = JobType | typeof SEND_MAIL_JOB | typeof REFRESH_PAGE_PRINTS_JOB;

/** What a job logs through: pino's logger or Fastify's. */
export type JobLogger = Pick<Logger, 'info' | 'warn' | 'error'>;

export interface JobContext {
  db: Database;
  blobStore: BlobStore;
  config: Config;
  logger: JobLogger;
  /** Aborted when the queue stops; a handler stops at the next safe point and keeps its work. */
  signal: AbortSignal;
  /** Lets tests stop a handler part way, as a crash would. */
  hooks: JobHooks;
  /** Names this worker in leases (unique per JobQueue). */
  workerId: string;
  /** Overrides LEASE_SECONDS (tests use short leases to restart quickly). */
  leaseSeconds?: number;
}

export interface JobHooks {
  /** Called after each page an upload job stored. */
  afterPageStored?: (fileId: string, pageNumber: number) => void | Promise<void>;
}

export interface JobSendOptions {
  /** At most one queued (not yet started) job per key and job type. */
  singletonKey?: string;
}

export interface JobDefinition<Data extends object = object> {
  name: QueueJobName;
  /** Runs one job; throwing fails the job (pg-boss retries it up to retryLimit). */
  handler(data: Data, context: JobContext): Promise<void>;
  /** Work to (re)queue at start and every sweep: jobs whose worker stopped mid-way. */
  recover?(context: JobContext): Promise<Array<{ data: Data; options?: JobSendOptions }>>;
  /** Jobs run at once by one worker process (default 1). */
  concurrency?: number;
  retryLimit?: number;
  retryDelaySeconds?: number;
  /** pg-boss gives up on a job running longer than this (must stay under 24 h). */
  expireInSeconds?: number;
}

export interface JobQueueOptions {
  db: Database;
  blobStore: BlobStore;
  config: Config;
  logger: JobLogger;
  definitions: JobDefinition<any>[]; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** pg-boss's schema; default `pgboss`, or `<schema>_pgboss` when the database's schema is not public. */
  schema?: string;
  pollingIntervalSeconds?: number;
  recoverySweepSeconds?: number;
  leaseSeconds?: number;
  hooks?: JobHooks;
  /** Start this process's workers with the first job sent (when they are not running yet). */
  autoWork?: boolean;
}

export interface StartOptions {
  /** Run jobs in this process (default true); false only queues them (a server with separate workers). */
  work?: boolean;
}

/** The abort reason handlers see when their queue stops. */
export class WorkerStopped extends Error {
  constructor(
    /** True when stopping like a killed process: hand nothing back. */
    public readonly crash: boolean,
  ) {
    super(crash ? 'worker stopped (crash)' : 'worker stopped');
    this.name = 'WorkerStopped';
  }
}

export class JobQueue {
  readonly workerId = `worker-${randomUUID()}`;
  private boss: PgBoss | null = null;
  private starting: Promise<PgBoss> | null = null;
  private working = false;
  private readonly definitions = new Map<string, JobDefinition<any>>(); // eslint-disable-line @typescript-eslint/no-explicit-any
  private readonly workerIds = new Map<string, string[]>();
  private readonly abort = new AbortController();
  private sweepTimer: NodeJS.Timeout | null = null;
  private readonly running = new Set<Promise<unknown>>();
  private stopped = false;

  constructor(private readonly options: JobQueueOptions) {
    for (const definition of options.definitions) this.definitions.set(definition.name, definition);
  }

  get started(): boolean {
    return this.boss !== null;
  }

  get isWorking(): boolean {
    return this.working;
  }

  /** Jobs this process sends may run in it (it works, or starts working with its first job). */
  get runsJobsHere(): boolean {
    return this.working || (!!this.options.autoWork && !this.stopped);
  }

  /** Starts pg-boss (creating its schema on first use) and, unless work is false, the workers. */
  async start(startOptions: StartOptions = {}): Promise<void> {
    const boss = await this.ensureBoss();
    if (startOptions.work === false || this.working || this.stopped) return;
    this.working = true;
    for (const definition of this.definitions.values()) {
      const ids: string[] = [];
      for (let i = 0; i < (definition.concurrency ?? 1); i++) {
        ids.push(
          await boss.work<object>(
            definition.name,
            { pollingIntervalSeconds: this.options.pollingIntervalSeconds ?? 2, batchSize: 1 },
            async (jobs) => {
              for (const job of jobs) await this.run(definition, job.data);
            },
          ),
        );
      }
      this.workerIds.set(definition.name, ids);
    }
    await this.sweep();
    const every = (this.options.recoverySweepSeconds ?? RECOVERY_SWEEP_SECONDS) * 1000;
    this.sweepTimer = setInterval(() => void this.sweep(), every);
    this.sweepTimer.unref?.();
  }

  /** Queues a job (starting pg-boss if needed); null when an identical one is already queued. */
  async send<Data extends object>(name: QueueJobName, data: Data, options: JobSendOptions = {}): Promise<string | null> {
    const definition = this.definitions.get(name);
    if (!definition) throw new Error(`Unknown job type ${name}`);
    if (this.options.autoWork && !this.working && !this.stopped) await this.start();
    const boss = await this.ensureBoss();
    const id = await boss.send(name, data, {
      ...(options.singletonKey ? { singletonKey: options.singletonKey } : {}),
      retryLimit: definition.retryLimit ?? 2,
      retryDelay: definition.retryDelaySeconds ?? 10,
      expireInSeconds: definition.expireInSeconds ?? 4 * 3600,
    });
    // Wake this process's idle worker instead of waiting for its next poll.
    for (const workerId of this.workerIds.get(name) ?? []) boss.notifyWorker(workerId);
    return id;
  }

  /**
   * Stops the workers. Running handlers are told to stop at their next safe point (a page for
   * uploads) and hand their work back at once (the next worker resumes it). `crash: true` stops
   * like a killed process instead: nothing is handed back (leases run out on their own).
   */
  async stop(options: { crash?: boolean; timeoutMs?: number } = {}): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.sweepTimer = null;
    this.abort.abort(new WorkerStopped(options.crash === true));
    const boss = this.boss ?? (this.starting ? await this.starting.catch(() => null) : null);
    if (boss) {
      for (const [name] of this.workerIds) await boss.offWork(name).catch(() => undefined);
    }
    await Promise.allSettled([...this.running]);
    if (boss) await boss.stop({ graceful: false, close: false, wait: true, timeout: options.timeoutMs ?? 5000 }).catch(() => undefined);
    this.working = false;
    this.boss = null;
  }

  /** Runs a job's handler now, in this process (tests, tools). */
  async runNow<Data extends object>(name: QueueJobName, data: Data): Promise<void> {
    const definition = this.definitions.get(name);
    if (!definition) throw new Error(`Unknown job type ${name}`);
    await this.run(definition, data);
  }

  private context(): JobContext {
    const { db, blobStore, config, logger } = this.options;
    return {
      db,
      blobStore,
      config,
      logger,
      signal: this.abort.signal,
      hooks: this.options.hooks ?? {},
      workerId: this.workerId,
      ...(this.options.leaseSeconds === undefined ? {} : { leaseSeconds: this.options.leaseSeconds }),
    };
  }

  private async run(definition: JobDefinition<any>, data: object): Promise<void> { // eslint-disable-line @typescript-eslint/no-explicit-any
    const promise = definition.handler(data, this.context());
    this.running.add(promise);
    try {
      await promise;
    } catch (error) {
      if (this.abort.signal.aborted) return;
      this.options.logger.error({ err: error, job: definition.name }, 'job failed');
      throw error;
    } finally {
      this.running.delete(promise);
    }
  }

  private async sweep(): Promise<void> {
    if (this.stopped) return;
    for (const definition of this.definitions.values()) {
      if (!definition.recover) continue;
      try {
        const work = await definition.recover(this.context());
        for (const item of work) await this.send(definition.name, item.data, item.options);
      } catch (error) {
        if (!this.stopped) this.options.logger.warn({ err: error, job: definition.name }, 'job recovery sweep failed');
      }
    }
  }

  private ensureBoss(): Promise<PgBoss> {
    if (this.boss) return Promise.resolve(this.boss);
    if (this.stopped) return Promise.reject(new Error('job queue stopped'));
    this.starting ??= (async () => {
      const schema = this.options.schema ?? (await defaultBossSchema(this.options.db));
      const boss = new PgBoss({
        db: pgBossAdapter(this.options.db),
        schema,
        // No cron scheduling and no state monitor: fewer idle queries, nothing we use.
        schedule: false,
        supervise: true,
        migrate: true,
      });
      boss.on('error', (error) => this.options.logger.warn({ err: error }, 'job queue error'));
      await boss.start();
      for (const definition of this.definitions.values()) {
        // "short": at most one queued job per singleton key (one per file for uploads).
        await boss.createQueue(definition.name, { name: definition.name, policy: 'short' });
      }
      this.boss = boss;
      return boss;
    })();
    this.starting.catch(() => {
      this.starting = null;
    });
    return this.starting;
  }
}

/** `pgboss`, or `<schema>_pgboss` so databases isolated per schema (tests) get their own queue. */
async function defaultBossSchema(db: Database): Promise<string> {
  const schema = await currentSchemaName(db);
  return schema === 'public' ? 'pgboss' : `${schema}_pgboss`;
}

/** Whether this database has pg-boss tables already (it ran jobs before). */
export async function hasJobSchema(db: Database): Promise<boolean> {
  return tableExists(db, `${await defaultBossSchema(db)}.job`);
}

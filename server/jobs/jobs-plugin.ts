// Gives every route the job queue (`app.jobs`) and the progress streams' hub (`app.progress`),
// and runs jobs in the server process unless JOB_WORKER=off (then `server/jobs/worker-main.ts`
// processes run them, on PostgreSQL). pg-boss starts lazily: at start only when there is work
// left from before (its schema exists, or a file is still pending), else with the first job,
// so a server that never runs a job never creates the queue's tables.
import type { FastifyInstance } from 'fastify';
import { jobDefinitions } from './definitions';
import { RECOVERY_SWEEP_SECONDS } from './job-types';
import { anyFileWaitingToBeRead } from '../repositories/files';
import { hasDueMail } from '../repositories/mail-messages';
import { ProgressHub } from '../workflow/job-progress';
import { hasJobSchema, JobQueue, type JobHooks } from './queue';

declare module 'fastify' {
  interface FastifyInstance {
    jobs: JobQueue;
    progress: ProgressHub;
  }
}

export interface JobsPluginOptions {
  /** Run jobs in this process (default: unless the JOB_WORKER environment variable is off/false/0). */
  work?: boolean;
  pollingIntervalSeconds?: number;
  recoverySweepSeconds?: number;
  leaseSeconds?: number;
  progressPollMs?: number;
  hooks?: JobHooks;
}

export function workInProcessByDefault(env: Record<string, string | undefined> = process.env): boolean {
  return !['off', 'false', '0', 'no'].includes((env.JOB_WORKER ?? '').trim().toLowerCase());
}

export function createJobsPlugin(options: JobsPluginOptions = {}) {
  const plugin = async (app: FastifyInstance) => {
    const work = options.work ?? workInProcessByDefault();
    const queue = new JobQueue({
      db: app.db,
      blobStore: app.blobStore,
      config: app.config,
      logger: app.log,
      definitions: jobDefinitions,
      autoWork: work,
      ...(options.pollingIntervalSeconds === undefined ? {} : { pollingIntervalSeconds: options.pollingIntervalSeconds }),
      ...(options.recoverySweepSeconds === undefined ? {} : { recoverySweepSeconds: options.recoverySweepSeconds }),
      ...(options.leaseSeconds === undefined ? {} : { leaseSeconds: options.leaseSeconds }),
      ...(options.hooks === undefined ? {} : { hooks: options.hooks }),
    });
    const hub = new ProgressHub(app.db, options.progressPollMs);
    app.decorate('jobs', queue);
    app.decorate('progress', hub);

    // At start: work left from before (a pending file, or jobs queued earlier). Afterwards, until
    // this process has work of its own, it checks now and then whether another process queued
    // some (the queue's schema appears with the first job anywhere).
    let idleCheck: NodeJS.Timeout | null = null;
    app.addHook('onReady', async () => {
      if (!work) return;
      if ((await anyFileWaitingToBeRead(app.db)) || (await hasDueMail(app.db)) || (await hasJobSchema(app.db))) await queue.start();
      if (queue.isWorking) return;
      idleCheck = setInterval(() => {
        if (queue.isWorking) {
          if (idleCheck) clearInterval(idleCheck);
          return;
        }
        hasJobSchema(app.db)
          .then((queued) => (queued ? queue.start() : undefined))
          .catch((error: unknown) => app.log.warn({ err: error }, 'job queue start failed'));
      }, (options.recoverySweepSeconds ?? RECOVERY_SWEEP_SECONDS) * 1000);
      idleCheck.unref?.();
    });
    app.addHook('onClose', async () => {
      if (idleCheck) clearInterval(idleCheck);
      hub.close();
      await queue.stop();
    });
  };
  // Like fastify-plugin: the decorations reach every route module, not only this plugin's children.
  return Object.assign(plugin, {
    [Symbol.for('skip-override')]: true,
    [Symbol.for('fastify.display-name')]: 'jobs',
  });
}

export const jobsPlugin = createJobsPlugin();

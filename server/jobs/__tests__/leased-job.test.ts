// The leased-job runner on its own, with a job type of test rows: steps in order, one worker at a
// time per target, a crashed worker's target taken over once its lease runs out, attempts
// counted and given up, nothing written after the lease is lost, cleanup always.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb } from '../../../tests/helpers/test-db';
import type { Config } from '../../config';
import type { Database } from '../../db/database';
import { leasedJob, step, STOP } from '../leased-job';
import { WorkerStopped, type JobContext } from '../queue';

let db: Database;

beforeAll(async () => {
  db = await createTestDb({ referenceData: false });
  await db.exec(`CREATE TABLE test_targets (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(), wanted boolean NOT NULL DEFAULT true,
    done boolean NOT NULL DEFAULT false, failed text, created_at timestamptz NOT NULL DEFAULT now())`);
});
afterAll(async () => {
  await db?.close();
});

interface Trace {
  steps: string[];
  cleanups: number;
  /** Runs before the last step (a test's chance to play another worker). */
  beforeDone?: () => Promise<void>;
  /** Thrown by the middle step. */
  error?: Error;
}

function testJob(trace: Trace) {
  return leasedJob<{ id: string }, { id: string }>({
    name: 'send_to_study_helpers',
    targetOf: (data) => data.id,
    dataOf: (id) => ({ id }),
    wants: { table: 'test_targets', where: 't.wanted AND NOT t.done AND t.failed IS NULL', orderBy: 't.created_at' },
    load: async (job) => ({ id: job.targetId }),
    steps: [
      step('first', async () => void trace.steps.push('first')),
      step('second', async (job) => {
        trace.steps.push('second');
        job.signal.throwIfAborted();
        if (trace.error) throw trace.error;
      }),
      step('done', async (job) => {
        await trace.beforeDone?.();
        await job.commit((tx) => tx.query('UPDATE test_targets SET done = true WHERE id = $1', [job.targetId]));
        trace.steps.push('done');
        return STOP;
      }),
      step('never', async () => void trace.steps.push('never')),
    ],
    cleanup: async () => void trace.cleanups++,
    giveUp: async (tx, id, reason) => (await tx.execute('UPDATE test_targets SET failed = $2 WHERE id = $1', [id, reason])) > 0,
    permanentFailure: (error) => (error instanceof Error && error.message === 'unreadable' ? 'cannot be read' : null),
  });
}

function context(workerId: string, signal: AbortSignal = new AbortController().signal): JobContext {
  const quiet = () => undefined;
  return {
    db,
    blobStore: {} as JobContext['blobStore'],
    config: {} as Config,
    logger: { info: quiet, warn: quiet, error: quiet } as unknown as JobContext['logger'],
    signal,
    hooks: {},
    workerId,
    // Long enough for a loaded machine: the tests end leases themselves.
    leaseSeconds: 30,
  };
}

async function target(): Promise<string> {
  return (await db.one<{ id: string }>('INSERT INTO test_targets DEFAULT VALUES RETURNING id')).id;
}

const leaseOf = (id: string) => db.maybeOne<{ token: string | null; attempts: number }>('SELECT token, attempts FROM job_leases WHERE target_id = $1', [id]);
const rowOf = (id: string) => db.one<{ done: boolean; failed: string | null }>('SELECT done, failed FROM test_targets WHERE id = $1', [id]);

describe('a leased job', () => {
  it('runs its steps in order up to STOP, commits, and leaves the lease finished', async () => {
    const id = await target();
    const trace: Trace = { steps: [], cleanups: 0 };
    await testJob(trace).run(context('w1'), { id });
    expect(trace).toEqual({ steps: ['first', 'second', 'done'], cleanups: 1 });
    expect(await rowOf(id)).toEqual({ done: true, failed: null });
    expect(await leaseOf(id)).toEqual({ token: null, attempts: 1 });
    // Done: the target no longer wants the job, a second run does nothing.
    const again: Trace = { steps: [], cleanups: 0 };
    await testJob(again).run(context('w2'), { id });
    expect(again.steps).toEqual([]);
  });

  it("leaves a crashed worker's target alone until its lease runs out, then resumes it; gives up after too many attempts", async () => {
    const id = await target();
    const crash = new AbortController();
    crash.abort(new WorkerStopped(true));
    await testJob({ steps: [], cleanups: 0 }).run(context('w1', crash.signal), { id });
    expect(await leaseOf(id)).toMatchObject({ attempts: 1, token: expect.stringMatching(/^w1\//) });

    const early: Trace = { steps: [], cleanups: 0 };
    await testJob(early).run(context('w2'), { id });
    expect(early.steps).toEqual([]);

    await db.query(`UPDATE job_leases SET lease_until = now() - interval '1 second', attempts = 5 WHERE target_id = $1`, [id]);
    const late: Trace = { steps: [], cleanups: 0 };
    await testJob(late).run(context('w3'), { id });
    expect(late.steps).toEqual([]);
    expect(await rowOf(id)).toEqual({ done: false, failed: 'Processing stopped 5 times before finishing' });
    expect(await db.one('SELECT status FROM job_progress WHERE run_id = $1', [id])).toEqual({ status: 'failed' });
    expect(await leaseOf(id)).toEqual({ token: null, attempts: 6 });
  });

  it('writes nothing once another worker took over its lease', async () => {
    const id = await target();
    const trace: Trace = {
      steps: [],
      cleanups: 0,
      beforeDone: async () => void (await db.query(`UPDATE job_leases SET token = 'w9/other' WHERE target_id = $1`, [id])),
    };
    await testJob(trace).run(context('w1'), { id });
    expect(trace).toEqual({ steps: ['first', 'second'], cleanups: 1, beforeDone: trace.beforeDone });
    expect(await rowOf(id)).toEqual({ done: false, failed: null });
    expect(await leaseOf(id)).toMatchObject({ token: 'w9/other' });
  });

  it('hands the lease back and throws on an error (pg-boss retries); fails the target on a permanent one', async () => {
    const id = await target();
    const failing: Trace = { steps: [], cleanups: 0, error: new Error('database restarting') };
    await expect(testJob(failing).run(context('w1'), { id })).rejects.toThrow('database restarting');
    expect(failing.cleanups).toBe(1);
    // Handed back: the next worker takes it at once, and the attempt is counted.
    await testJob({ steps: [], cleanups: 0, error: new Error('unreadable') }).run(context('w2'), { id });
    expect(await rowOf(id)).toEqual({ done: false, failed: 'cannot be read' });
    expect(await leaseOf(id)).toEqual({ token: null, attempts: 2 });
  });

  it('queues again the targets that want it and have no live lease', async () => {
    await db.query('DELETE FROM test_targets');
    const waiting = await target();
    const held = await target();
    await db.query(`INSERT INTO test_targets (wanted) VALUES (false)`);
    await db.query(`INSERT INTO job_leases (job, target_id, token, lease_until, attempts) VALUES ('send_to_study_helpers', $1, 'w1/x', now() + interval '1 minute', 1)`, [held]);
    expect(await testJob({ steps: [], cleanups: 0 }).recover!(context('w1'))).toEqual([{ data: { id: waiting }, options: { singletonKey: waiting } }]);
  });
});

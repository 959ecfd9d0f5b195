// A listener on the process that runs the job hears of each progress write when it happens; it
// does not wait for the hub's next poll (listeners elsewhere still poll). And what it hears never
// says a job is done before the job's last changes are committed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/database';
import { createTestDb } from '../../../tests/helpers/test-db';
import { JOB, ProgressHub, announceProgress, readProgress, updateProgress, type ProgressMessage } from '../job-progress';
import { startProgress } from '../../repositories/job-progress';

describe('ProgressHub', () => {
  let db: Database;
  beforeAll(async () => {
    db = await createTestDb({ referenceData: false });
  });
  afterAll(async () => {
    await db?.close();
  });

  const key = (runId: string) => ({ group_name: JOB.processServiceCenterUpload, run_id: runId });

  /** Resolves with the first message the listener gets that matches. */
  const heard = (hub: ProgressHub, runId: string, matches: (message: ProgressMessage) => boolean) =>
    new Promise<number>((resolve) => {
      const started = Date.now();
      hub.subscribe(key(runId), (message) => {
        if (matches(message)) resolve(Date.now() - started);
      });
    });

  it('reads a run at once when this process writes its progress', async () => {
    const runId = '00000000-0000-4000-8000-000000000001';
    await startProgress(db, JOB.processServiceCenterUpload, runId, 10);
    // A poll a minute apart: only the announcement can bring the messages within the test.
    const hub = new ProgressHub(db, 60_000);
    try {
      await heard(hub, runId, (message) => message.status === 'pending');
      const running = heard(hub, runId, (message) => message.completed === 4);
      await updateProgress(db, JOB.processServiceCenterUpload, runId, { status: 'running', completed: 4 });
      expect(await running).toBeLessThan(5_000);

      // Written in a transaction: announced after the commit.
      const done = heard(hub, runId, (message) => message.status === 'success');
      await db.transaction(async (tx) => {
        await tx.query(`UPDATE job_progress SET status = 'success', completed = count WHERE run_id = $1`, [runId]);
      });
      announceProgress(key(runId));
      expect(await done).toBeLessThan(5_000);
    } finally {
      hub.close();
    }
  });

  it('shows a running job short of its last unit, and all of it once it succeeded', async () => {
    const runId = '00000000-0000-4000-8000-000000000002';
    const group = JOB.processServiceCenterUpload;
    await startProgress(db, group, runId, 500);
    await updateProgress(db, group, runId, { status: 'running', completed: 250 });
    expect(await readProgress(db, key(runId))).toMatchObject({ status: 'running', completed: 250, count: 500 });
    // Every page read, the sheets not written yet: clients take more than 0.999 as done.
    await updateProgress(db, group, runId, { status: 'running', completed: 500, count: 500 });
    expect(await readProgress(db, key(runId))).toMatchObject({ status: 'running', completed: 499, count: 500 });
    await updateProgress(db, group, runId, { status: 'success', completed: 500, count: 500 });
    expect(await readProgress(db, key(runId))).toMatchObject({ status: 'success', completed: 500, count: 500 });
    // A run of one unit shows none done until it succeeded; and a first write may be running.
    await updateProgress(db, group, '00000000-0000-4000-8000-000000000003', { status: 'running', completed: 1, count: 1 });
    expect(await readProgress(db, key('00000000-0000-4000-8000-000000000003'))).toMatchObject({ status: 'running', completed: 0, count: 1 });
  });
});

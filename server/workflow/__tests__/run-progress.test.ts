// The runner's progress writer (RunProgress): what a job's steps report is written at most every
// PROGRESS_WRITE_MS, always its last unit, failed units counted only when written; the runner
// writes a failure, a step its success in the result's transaction; deleting or taking back a
// target removes its row.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '../../db/database';
import { createTestDb } from '../../../tests/helpers/test-db';
import { JOB, PROGRESS_WRITE_MS, readProgress, RunProgress } from '../job-progress';
import { removeAllProgress, removeProgress, startProgress } from '../../repositories/job-progress';

describe('RunProgress', () => {
  let db: Database;
  beforeAll(async () => {
    db = await createTestDb({ referenceData: false });
  });
  afterAll(async () => {
    await db?.close();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const group = JOB.processServiceCenterUpload;
  const read = (runId: string) => readProgress(db, { group_name: group, run_id: runId });

  it('writes a report at most every PROGRESS_WRITE_MS, and always the last unit', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const runId = '00000000-0000-4000-8000-000000000011';
    await startProgress(db, group, runId, 10);
    const progress = new RunProgress(db, group, runId);
    await progress.start();
    expect(await read(runId)).toEqual({ status: 'running', completed: 0, count: 10, failed: 0 });

    let counted = 0;
    const failed = async () => ++counted;
    await progress.report({ completed: 1, count: 10, failed });
    expect(await read(runId)).toEqual({ status: 'running', completed: 1, count: 10, failed: 1 });
    await progress.report({ completed: 2, count: 10, failed });
    expect(await read(runId)).toMatchObject({ completed: 1 });
    expect(counted).toBe(1);

    vi.advanceTimersByTime(PROGRESS_WRITE_MS);
    await progress.report({ completed: 3, count: 10, failed });
    expect(await read(runId)).toEqual({ status: 'running', completed: 3, count: 10, failed: 2 });
    // The last unit is written at once, held back until the result commits.
    await progress.report({ completed: 10, count: 10, failed: 0 });
    expect(await read(runId)).toEqual({ status: 'running', completed: 9, count: 10, failed: 0 });
  });

  it('starts with the figures a step knows, and waits PROGRESS_WRITE_MS after them', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const runId = '00000000-0000-4000-8000-000000000012';
    await startProgress(db, JOB.sendToStudyHelpers, runId, 0);
    const progress = new RunProgress(db, JOB.sendToStudyHelpers, runId);
    await progress.start({ completed: 4, count: 8 });
    const key = { group_name: JOB.sendToStudyHelpers, run_id: runId };
    expect(await readProgress(db, key)).toEqual({ status: 'running', completed: 4, count: 8, failed: 0 });
    await progress.report({ completed: 5, count: 8 });
    expect(await readProgress(db, key)).toMatchObject({ completed: 4 });
    vi.advanceTimersByTime(PROGRESS_WRITE_MS);
    await progress.report({ completed: 6, count: 8 });
    expect(await readProgress(db, key)).toMatchObject({ completed: 6 });
  });

  it('writes the success in the transaction of the result: all of its count done', async () => {
    const runId = '00000000-0000-4000-8000-000000000016';
    await startProgress(db, group, runId, 6);
    const progress = new RunProgress(db, group, runId);
    await progress.report({ completed: 6, count: 6 });
    await db.transaction((tx) => progress.succeed(tx, { failed: 2 }));
    expect(await read(runId)).toEqual({ status: 'success', completed: 6, count: 6, failed: 2 });
    const send = new RunProgress(db, JOB.sendToStudyHelpers, runId);
    await db.transaction((tx) => send.succeed(tx, { completed: 4, count: 4 }));
    expect(await readProgress(db, { group_name: JOB.sendToStudyHelpers, run_id: runId })).toEqual({ status: 'success', completed: 4, count: 4, failed: 0 });
  });

  it('writes the failure the runner gives up with, in its transaction', async () => {
    const runId = '00000000-0000-4000-8000-000000000013';
    await startProgress(db, group, runId, 3);
    const progress = new RunProgress(db, group, runId);
    await db.transaction((tx) => progress.fail(tx));
    expect(await read(runId)).toEqual({ status: 'failed', completed: 0, count: 3, failed: 0 });
  });

  it('removes one run, or every run', async () => {
    const one = '00000000-0000-4000-8000-000000000014';
    const other = '00000000-0000-4000-8000-000000000015';
    await startProgress(db, group, one, 1);
    await startProgress(db, JOB.sendToStudyHelpers, one, 1);
    await startProgress(db, group, other, 1);
    await removeProgress(db, group, one);
    expect(await read(one)).toBeNull();
    expect(await readProgress(db, { group_name: JOB.sendToStudyHelpers, run_id: one })).not.toBeNull();
    expect(await read(other)).not.toBeNull();
    await removeAllProgress(db);
    expect(await read(other)).toBeNull();
    expect(await readProgress(db, { group_name: JOB.sendToStudyHelpers, run_id: one })).toBeNull();
  });
});

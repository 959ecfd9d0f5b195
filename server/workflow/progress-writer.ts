// Progress of a workflow job written to job_progress as it goes: at most every PROGRESS_WRITE_MS
// (a 2000-page job does not write 2000 rows), always the first and the last step.
import type { Database } from '../db/database';
import type { JobType } from '../jobs/job-types';
import { updateProgress } from '../jobs/progress';

export const PROGRESS_WRITE_MS = 200;

export class ProgressWriter {
  private lastWrite = 0;
  completed = 0;

  constructor(
    private readonly db: Database,
    private readonly group: JobType,
    private readonly runId: string,
    readonly count: number,
    private readonly failed: () => number = () => 0,
  ) {}

  async start(completed = 0): Promise<void> {
    this.completed = completed;
    this.lastWrite = Date.now();
    await updateProgress(this.db, this.group, this.runId, { status: 'running', completed, count: this.count, failed: this.failed() });
  }

  async step(by = 1): Promise<void> {
    this.completed += by;
    const now = Date.now();
    if (now - this.lastWrite < PROGRESS_WRITE_MS && this.completed < this.count) return;
    this.lastWrite = now;
    await updateProgress(this.db, this.group, this.runId, {
      status: 'running',
      completed: Math.min(this.completed, this.count),
      count: this.count,
      failed: this.failed(),
    });
  }
}

// Job progress has one writer: server/repositories/job-progress.ts holds every statement that
// writes the job_progress table (routes, jobs and workflow call its functions). Read from the
// sources: a server file that inserts, updates or deletes job_progress rows, or names the table in
// a string (a list of tables deleted in a loop), anywhere else fails this test. A running job's
// progress is written through the runner's writer (RunProgress, given by leased-job.ts) alone,
// and the repository's other writes are called only where a job is queued or its target deleted
// or taken back.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const PROGRESS_MODULE = 'server/repositories/job-progress.ts';
const RUN_WRITER = 'server/workflow/job-progress.ts';
const RUNNER = 'server/jobs/leased-job.ts';

/** What writes a run's running, success and failure: the runner's writer, and what it uses. */
const RUN_WRITERS: Record<string, string[]> = {
  RunProgress: [RUN_WRITER, RUNNER],
  updateProgress: [RUN_WRITER],
  succeedProgress: [RUN_WRITER],
  writeProgress: [PROGRESS_MODULE, RUN_WRITER],
  writeProgressSuccess: [PROGRESS_MODULE, RUN_WRITER],
  // The throttle lives in the writer, not in the job types.
  PROGRESS_WRITE_MS: [RUN_WRITER],
};

/** The repository's other writes: a job queued (pending), its target deleted or taken back. */
const OTHER_WRITERS: Record<string, string[]> = {
  startProgress: [
    PROGRESS_MODULE,
    'server/routes/files/index.ts',
    'server/routes/study-helpers.ts',
    'server/workflow/grading-state.ts',
    'server/workflow/return-file.ts',
    'server/workflow/send-packets.ts',
  ],
  removeProgress: [PROGRESS_MODULE, 'server/routes/files/delete-file.ts', 'server/workflow/recall-send.ts', 'server/workflow/withdraw-upload.ts'],
  removeAllProgress: [PROGRESS_MODULE, 'server/routes/database.ts'],
};

/** The files of `server/` that name each of `names`' keys, sorted. */
function usersOf(names: Record<string, string[]>): Record<string, string[]> {
  const sources = serverSources('server').map((file) => ({ file, code: readFileSync(path.join(root, file), 'utf8') }));
  return Object.fromEntries(
    Object.keys(names).map((name) => [name, sources.filter(({ code }) => new RegExp(`\\b${name}\\b`).test(code)).map(({ file }) => file).sort()]),
  );
}

const sorted = (names: Record<string, string[]>) => Object.fromEntries(Object.entries(names).map(([name, files]) => [name, [...files].sort()]));

function serverSources(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === '__tests__' ? [] : serverSources(relative);
    return entry.name.endsWith('.ts') ? [relative] : [];
  });
}

/** What in `source` writes job_progress, or names it as a value (comments left out). */
function progressWrites(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');
  const write = /\b(INSERT\s+INTO|UPDATE|DELETE\s+FROM|TRUNCATE(\s+TABLE)?)\s+job_progress\b/gi;
  const named = /['"`]job_progress['"`]/g;
  return [...code.matchAll(write), ...code.matchAll(named)].map((match) => match[0].replace(/\s+/g, ' '));
}

describe('job progress writes', () => {
  it('happen only in the progress module', () => {
    const outside = serverSources('server')
      .filter((file) => file !== PROGRESS_MODULE)
      .flatMap((file) => progressWrites(readFileSync(path.join(root, file), 'utf8')).map((line) => `${file}: ${line}`));
    expect(outside).toEqual([]);
  });

  it('of a running job go through the runner\'s writer', () => {
    expect(usersOf(RUN_WRITERS)).toEqual(sorted(RUN_WRITERS));
  });

  it('otherwise start a queued job\'s row or remove a deleted target\'s', () => {
    expect(usersOf(OTHER_WRITERS)).toEqual(sorted(OTHER_WRITERS));
  });

  it('are all found in the progress module', () => {
    // The scan finds the statements where they are: the module's upserts and deletes.
    const own = progressWrites(readFileSync(path.join(root, PROGRESS_MODULE), 'utf8'));
    expect(own.some((line) => /INSERT INTO job_progress/.test(line))).toBe(true);
    expect(own.some((line) => /DELETE FROM job_progress/.test(line))).toBe(true);
  });

  it('tells a write from a read or a comment', () => {
    expect(progressWrites("await tx.query('DELETE FROM job_progress WHERE run_id = $1', [id]);")).toEqual(['DELETE FROM job_progress']);
    expect(progressWrites("  `UPDATE job_progress SET status = 'success'")).toEqual(['UPDATE job_progress']);
    expect(progressWrites('`INSERT INTO\n       job_progress (group_name)`')).toEqual(['INSERT INTO job_progress']);
    expect(progressWrites("const TABLES = ['files', 'job_progress'];")).toEqual(["'job_progress'"]);
    expect(progressWrites("await db.query('SELECT status FROM job_progress WHERE run_id = $1', [id]);")).toEqual([]);
    expect(progressWrites('// the progress goes to job_progress as it goes')).toEqual([]);
    expect(progressWrites('/** DELETE FROM job_progress happens elsewhere */')).toEqual([]);
  });
});

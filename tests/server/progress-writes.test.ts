// Job progress has one writer: server/workflow/job-progress.ts holds every statement that writes
// the job_progress table (routes, jobs and workflow call its functions). Read from the sources:
// a server file that inserts, updates or deletes job_progress rows, or names the table in a
// string (a list of tables deleted in a loop), anywhere else fails this test. And a running job's
// progress is written through the runner's writer (RunProgress, given by leased-job.ts) alone.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const PROGRESS_MODULE = 'server/workflow/job-progress.ts';
const RUNNER = 'server/jobs/leased-job.ts';

/** What writes a run's running, success and failure: the runner's writer, and what it uses. */
const RUN_WRITERS: Record<string, string[]> = {
  RunProgress: [PROGRESS_MODULE, RUNNER],
  updateProgress: [PROGRESS_MODULE],
  succeedProgress: [PROGRESS_MODULE],
  // The throttle lives in the writer, not in the job types.
  PROGRESS_WRITE_MS: [PROGRESS_MODULE],
};

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
    const sources = serverSources('server').map((file) => ({ file, code: readFileSync(path.join(root, file), 'utf8') }));
    const users = Object.fromEntries(
      Object.keys(RUN_WRITERS).map((name) => [name, sources.filter(({ code }) => new RegExp(`\\b${name}\\b`).test(code)).map(({ file }) => file).sort()]),
    );
    expect(users).toEqual(Object.fromEntries(Object.entries(RUN_WRITERS).map(([name, files]) => [name, [...files].sort()])));
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

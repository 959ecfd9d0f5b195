// The demo programme in flight: on a fresh database with the demo seeded, makeDemoFiles takes seven
// files through the real routes, pipeline and jobs, one to each step, and every screen has
// something to show (Ready to Print and graded rows for the demo coordinator, uploads, students
// with answer sheets, a baptism request that can be added). It runs once.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeDemoFiles } from '../../server/seed/demo-files';
import { seedDemoData } from '../../server/seed/demo';
import { signIn, type SignedIn } from '../helpers/sign-in';
import { createPipelineApp, type PipelineApp } from './pipeline-harness';
import { api } from './workflow-world';

let h: PipelineApp;
let admin: SignedIn;
let coordinator: SignedIn;
let madeInMs = 0;

interface FileRow {
  id: string;
  name: string;
  file_status: string | null;
}

beforeAll(async () => {
  h = await createPipelineApp();
  await seedDemoData(h.db);
  const started = Date.now();
  expect(await makeDemoFiles(h.app)).toBe(true);
  madeInMs = Date.now() - started;
  admin = await signIn(h.app, 'admin@demo.local');
  coordinator = await signIn(h.app, 'coordinator@demo.local');
}, 240_000);
afterAll(async () => {
  await h?.close();
});
afterEach(() => {
  expect(h.app.contractViolations).toEqual([]);
});

const files = async (who: SignedIn, query = '') =>
  ((await api(h.app, who, 'GET', `/api/files?limit=100${query}`)).json as unknown as { items: FileRow[] }).items;
const stepOf = async (id: string) => (await api(h.app, admin, 'GET', `/api/file/${id}/steps`)).json as unknown as { step: string; complete: number; total: number; prepped: boolean };
const congregationsOf = async (who: SignedIn, id: string) =>
  (await api(h.app, who, 'GET', `/api/file/${id}/congregations`)).json as unknown as { status: string; wbs_code: string }[];

describe('the demo programme in flight', () => {
  it('has one file at each step: review, assign, send, ready to print, partially graded, return, archived', async () => {
    const all = await files(admin);
    expect(all).toHaveLength(7);
    const byName = Object.fromEntries(await Promise.all(all.map(async (file) => [file.name, { ...(await stepOf(file.id)), file }] as const)));

    expect(byName['Manila batch 6']!.step).toBe('review');
    expect(byName['Nairobi batch 5']!.step).toBe('assign');
    const atSend = byName['Accra batch 7']!;
    expect(atSend.step).toBe('send');
    // Not sent yet: the coordinator, whose students it holds, sees nothing of it.
    expect((await api(h.app, coordinator, 'GET', `/api/file/${atSend.file.id}`)).status).toBe(403);
    expect((await files(coordinator)).map((file) => file.name)).not.toContain('Accra batch 7');

    const ready = byName['Accra batch 4']!;
    expect(ready.step).toBe('grading');
    expect((await congregationsOf(coordinator, ready.file.id)).map((row) => row.status)).toEqual(['unprinted']);

    const partial = byName['Manila batch 3']!;
    expect(partial.step).toBe('grading');
    expect(partial.complete).toBeGreaterThan(0);
    expect(partial.complete).toBeLessThan(partial.total);
    expect((await congregationsOf(coordinator, partial.file.id)).map((row) => row.status)).toEqual(['partially_graded']);

    const returning = byName['Nairobi batch 2']!;
    expect(returning).toMatchObject({ step: 'return', prepped: true });
    expect(returning.complete).toBe(returning.total);

    const archived = byName['Accra batch 1']!;
    expect(archived.step).toBe('return');
    expect(archived.file.file_status).toBe('archived');
  });

  it('gives the review file a page to mend: a page whose codes could not be read', async () => {
    const review = (await files(admin)).find((file) => file.name === 'Manila batch 6')!;
    const rows = await h.db.query<{ unrecognized_reason: string }>(
      'SELECT unrecognized_reason FROM pages WHERE file_id = $1 AND unrecognized_reason IS NOT NULL AND NOT ignored',
      [review.id],
    );
    expect(rows.length).toBeGreaterThan(0);
  });

  it('shows the coordinator a file Ready to Print, graded rows and graded uploads', async () => {
    const printable = await files(coordinator, '&congregation_file_state=unprinted');
    expect(printable.map((file) => file.name)).toEqual(['Accra batch 4']);
    const graded = (await api(h.app, coordinator, 'GET', '/api/answer-sheets?graded=true&limit=100')).json as unknown as { items: unknown[] };
    expect(graded.items.length).toBeGreaterThanOrEqual(10);
    const uploads = (await api(h.app, coordinator, 'GET', '/api/uploads/?limit=100')).json as unknown as { items: unknown[] };
    expect(uploads.items).toHaveLength(3);
  });

  it('gives students answer sheets and last lessons, so a baptism request can be added', async () => {
    const withSheets = await h.db.one<{ count: number }>('SELECT count(DISTINCT student_id)::int AS count FROM answer_sheets WHERE student_id IS NOT NULL');
    expect(withSheets.count).toBeGreaterThanOrEqual(15);
    const candidate = await h.db.one<{ human_id: number }>(
      `SELECT s.human_id FROM students s WHERE EXISTS (SELECT 1 FROM answer_sheets a WHERE a.student_id = s.id)
         AND NOT EXISTS (SELECT 1 FROM baptism_requests b WHERE b.student_id = s.id) ORDER BY s.human_id LIMIT 1`,
    );
    const created = await api(h.app, admin, 'POST', '/api/baptism-request', { student_id: candidate.human_id });
    expect(created.status).toBe(201);
  });

  it('is made once, in seconds', async () => {
    expect(await makeDemoFiles(h.app)).toBe(false);
    expect(await files(admin)).toHaveLength(7);
    // Generous for a loaded test machine; a quiet one takes a few seconds.
    expect(madeInMs).toBeLessThan(120_000);
  });
});

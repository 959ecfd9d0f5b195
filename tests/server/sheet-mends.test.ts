// Review decides about duplicates like any other flag (keep the sheet or ignore its pages), names
// the student of a sheet started by hand, and turns a sideways page: each a recorded PATCH,
// admin only, refused once the file is sent.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { SignedIn } from '../helpers/sign-in';
import { usePipelineApp } from './pipeline-harness';
import { admin, coordinator, insertAnswerSheet, insertCongregation, insertCourse, insertFile, insertStudent } from './support';
import { SHEET_HAS_STUDENT } from '../../server/workflow/sheet-mends';

const t = usePipelineApp({ jobs: { work: false } });

async function call(who: SignedIn, method: 'GET' | 'PATCH', url: string, payload?: object) {
  const response = await t.current.app.inject({ method, url, headers: who.headers, ...(payload && { payload }) });
  const json = response.headers['content-type']?.toString().startsWith('application/json') === true;
  return { status: response.statusCode, body: (json ? response.json() : null) as any, raw: response.rawPayload }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

const step = async (who: SignedIn, fileId: string) => (await call(who, 'GET', `/api/file/${fileId}/steps`)).body.step as string;

/** Kofi's lesson One arrived in an earlier file; this file has it again, and Ama's lesson One. */
async function duplicateWorld() {
  const db = t.current.db;
  const congregation = await insertCongregation(db, 'TX 4021');
  const { lessonIds } = await insertCourse(db, 'Good News', ['One', 'Two']);
  const lesson = lessonIds[0]!;
  const kofi = await insertStudent(db, { attributes: { name: 'Kofi' }, congregationId: congregation });
  const ama = await insertStudent(db, { attributes: { name: 'Ama' }, congregationId: congregation });
  const earlierFile = await insertFile(db, 'Earlier', { sentAt: new Date() });
  const earlier = await insertAnswerSheet(db, earlierFile, { studentId: kofi.id, lessonId: lesson, assignedGroup: congregation });
  const fileId = await insertFile(db, 'Batch');
  const again = await insertAnswerSheet(db, fileId, { studentId: kofi.id, lessonId: lesson, assignedGroup: congregation });
  const other = await insertAnswerSheet(db, fileId, { studentId: ama.id, lessonId: lesson, assignedGroup: congregation });
  await db.query('UPDATE answer_sheets SET duplicate_of = $2 WHERE id = $1', [again, earlier]);
  const pages: string[] = [];
  for (const [index, sheet] of [again, again, other].entries()) {
    pages.push(
      (await db.one<{ id: string }>('INSERT INTO pages (file_id, page_number, answer_sheet_id) VALUES ($1, $2, $3) RETURNING id', [fileId, index + 1, sheet])).id,
    );
  }
  return { db, congregation, lesson, kofi, ama, fileId, again, other, pages };
}

describe('Sheet mends in Review', () => {
  it('holds a file with an undecided duplicate in Review until a person keeps it', async () => {
    const w = await duplicateWorld();
    const me = await admin(t.current.app);
    expect(await step(me, w.fileId)).toBe('review');
    const stats = (await call(me, 'GET', `/api/file/${w.fileId}/stats`)).body;
    expect(stats.duplicates).toBe(1);
    expect(stats.reasons.duplicate_sheet).toBe(2);
    expect((await call(me, 'GET', `/api/answer-sheets?file=${w.fileId}&reason=duplicate_sheet`)).body.items.map((s: { id: string }) => s.id)).toEqual([w.again]);

    const helper = await coordinator(t.current.app, w.congregation);
    expect((await call(helper, 'PATCH', `/api/answer-sheets/${w.again}`, { keep_duplicate: true })).status).toBe(403);
    expect((await call(me, 'PATCH', `/api/answer-sheets/${w.other}`, { keep_duplicate: true })).status).toBe(400);
    expect((await call(me, 'PATCH', `/api/answer-sheets/${w.again}`, { keep_duplicate: true, lesson: w.lesson })).status).toBe(400);

    const kept = await call(me, 'PATCH', `/api/answer-sheets/${w.again}`, { keep_duplicate: true });
    expect(kept.status).toBe(200);
    expect(kept.body).toMatchObject({ duplicate: true, duplicate_kept: true });
    expect(await step(me, w.fileId)).toBe('send');
    const after = (await call(me, 'GET', `/api/file/${w.fileId}/stats`)).body;
    expect(after.duplicates).toBe(0);
    expect(after.reasons.duplicate_sheet).toBe(0);
    const page = (await call(me, 'GET', `/api/pages/${w.pages[0]}`)).body;
    expect(page.mended).toMatchObject({ action: 'duplicate_kept', by: 'admin@test.local' });
  });

  it('lets a duplicate go by ignoring its pages', async () => {
    const w = await duplicateWorld();
    const me = await admin(t.current.app);
    await call(me, 'PATCH', `/api/pages/${w.pages[0]}`, { ignored: true });
    expect(await step(me, w.fileId)).toBe('review');
    await call(me, 'PATCH', `/api/pages/${w.pages[1]}`, { ignored: true });
    expect(await step(me, w.fileId)).toBe('send');
  });

  it('names the student of a sheet, which takes their congregation and is checked for a duplicate', async () => {
    const w = await duplicateWorld();
    const me = await admin(t.current.app);
    const nameless = await insertAnswerSheet(w.db, w.fileId, { lessonId: w.lesson });
    const page = (await w.db.one<{ id: string }>('INSERT INTO pages (file_id, page_number, answer_sheet_id) VALUES ($1, 4, $2) RETURNING id', [w.fileId, nameless])).id;
    expect((await call(me, 'PATCH', `/api/answer-sheets/${nameless}`, { student: '00000000-0000-4000-8000-000000000000' })).status).toBe(400);
    const named = await call(me, 'PATCH', `/api/answer-sheets/${nameless}`, { student: w.ama.id });
    expect(named.status).toBe(200);
    // Ama's lesson One is already in this file (sheet `other`, earlier in it): this one repeats it.
    expect(named.body).toMatchObject({ student: { id: w.ama.id, name: 'Ama' }, congregation: { id: w.congregation }, duplicate: true, duplicate_kept: false });
    expect((await call(me, 'GET', `/api/pages/${page}`)).body.mended).toMatchObject({ action: 'student_set' });

    // A response with a student is never given another's: its pages would change hands silently.
    for (const [sheet, student] of [[nameless, w.kofi.id], [w.other, w.kofi.id]] as const) {
      const refused = await call(me, 'PATCH', `/api/answer-sheets/${sheet}`, { student });
      expect(refused.status).toBe(409);
      expect(refused.body.detail).toEqual({ error_type: 'CONFLICT', message: SHEET_HAS_STUDENT });
    }
    const owners = await w.db.query<{ id: string; student_id: string }>('SELECT id, student_id FROM answer_sheets WHERE id = ANY($1::uuid[])', [[nameless, w.other]]);
    expect(owners.every((row) => row.student_id === w.ama.id)).toBe(true);

    await w.db.query('UPDATE files SET sent_at = now() WHERE id = $1', [w.fileId]);
    const refused = await call(me, 'PATCH', `/api/answer-sheets/${nameless}`, { student: w.kofi.id });
    expect(refused.status).toBe(409);
    expect(refused.body.detail.error_type).toBe('SHEET_ALREADY_SENT');
  });

  it('turns a sideways page: its preview and thumbnails show it turned', async () => {
    const w = await duplicateWorld();
    const me = await admin(t.current.app);
    // A landscape scan, 400 x 200: a portrait page lying on its side.
    const jpeg = await sharp({ create: { width: 400, height: 200, channels: 3, background: '#ffffff' } }).jpeg().toBuffer();
    const { key } = await t.current.blobStore.put(jpeg);
    await w.db.query('UPDATE pages SET image_blob_key = $2 WHERE id = $1', [w.pages[2], key]);
    const before = await call(me, 'GET', `/api/pages/${w.pages[2]}/thumbnail?size=500`);
    expect(await sharp(before.raw).metadata()).toMatchObject({ width: 400, height: 200 });

    expect((await call(me, 'PATCH', `/api/pages/${w.pages[2]}`, { turn: 45 })).status).toBe(400);
    expect((await call(me, 'PATCH', `/api/pages/${w.pages[2]}`, { turn: 90, ignored: false })).status).toBe(400);
    const turned = await call(me, 'PATCH', `/api/pages/${w.pages[2]}`, { turn: 90 });
    expect(turned.status).toBe(200);
    expect(turned.body.mended).toMatchObject({ action: 'turned' });
    const preview = await call(me, 'GET', `/api/pages/${w.pages[2]}/preview`);
    expect((await sharp(preview.raw).metadata()).orientation).toBe(6);
    const thumbnail = await call(me, 'GET', `/api/pages/${w.pages[2]}/thumbnail?size=500`);
    expect(await sharp(thumbnail.raw).metadata()).toMatchObject({ width: 200, height: 400 });

    // Three more quarter turns bring it back as it came.
    await call(me, 'PATCH', `/api/pages/${w.pages[2]}`, { turn: 270 });
    const back = await call(me, 'GET', `/api/pages/${w.pages[2]}/thumbnail?size=500`);
    expect(await sharp(back.raw).metadata()).toMatchObject({ width: 400, height: 200 });

    await w.db.query('UPDATE files SET sent_at = now() WHERE id = $1', [w.fileId]);
    expect((await call(me, 'PATCH', `/api/pages/${w.pages[2]}`, { turn: 180 })).status).toBe(409);
  });
});

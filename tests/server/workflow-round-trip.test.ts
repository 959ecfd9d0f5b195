// The file workflow on the server, end to end, on real PDFs: a generated scan is uploaded and
// processed, its warnings dealt with and every sheet assigned (two congregations); the file is
// sent; each congregation's packet is downloaded, "printed, graded and scanned back"
// (rasterised, pen marks, tilt, noise, duplex backs) and uploaded by its coordinator; sheets and
// congregation states move on until grading completes; the return file holds exactly the
// expected pages in order (read back by their codes), two-sided (every student on an odd page,
// every page followed by its back or blank paper) and one-sided; it is downloaded and the file
// archived.
import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeScan, type MadeScan } from '../fixtures/make-scans';
import { signIn, type SignedIn } from '../helpers/sign-in';
import { createPipelineApp, type PipelineApp } from './pipeline-harness';
import { seedScanWorld, sseMessages, upload, waitForProcessing } from './pipeline-world';
import { coordinator, insertCongregation } from './support';
import {
  api,
  codesOnPages,
  pdfPageCount,
  reviewAndAssign,
  scanGradedPackets,
  uploadGraded,
  uploadOutcomes,
  waitFor,
  waitForUpload,
  type BackKind,
} from './workflow-world';

let h: PipelineApp;
let made: MadeScan;
let admin: SignedIn;
let fileId: string;
let congregationA: string;
let congregationB: string;
let coordinatorA: SignedIn;
let coordinatorB: SignedIn;
const packets = new Map<string, Uint8Array>();
let returnPdf: Uint8Array | undefined;

beforeAll(async () => {
  made = await makeScan({ pages: 30, seed: 7 });
  h = await createPipelineApp();
  admin = await signIn(h.app, 'admin@test.local', { role: 'scanning_admin', isAdmin: true });
  congregationA = await insertCongregation(h.db, 'NG 0001');
  congregationB = await insertCongregation(h.db, 'NG 0002');
  coordinatorA = await coordinator(h.app, congregationA);
  coordinatorB = await coordinator(h.app, congregationB);
  await seedScanWorld(h.db, made);
  const uploaded = await upload(h.app, admin, readFileSync(made.path), { name: 'Lagos batch 7' });
  expect(uploaded.status).toBe(201);
  fileId = uploaded.body.id!;
  expect(await waitForProcessing(h.db, fileId)).toBe('success');
}, 120_000);
afterAll(async () => {
  await h?.close();
});
afterEach(() => {
  expect(h.app.contractViolations).toEqual([]);
});

const steps = async () => (await api(h.app, admin, 'GET', `/api/file/${fileId}/steps`)).json as unknown as {
  step: string;
  complete: number;
  total: number;
  prepped: boolean;
  downloaded: boolean;
};
const statesOf = async () => {
  const list = (await api(h.app, admin, 'GET', `/api/file/${fileId}/congregations`)).json as unknown as { id: string; status: string; sheets: number; packet_id: string | null }[];
  return Object.fromEntries(list.map((row) => [row.id, row.status]));
};

/** p codes of a congregation's kept pages in packet order: student human id, sheet, page. */
async function packetOrder(congregationId: string) {
  return h.db.query<{ page_id: string; code_id: string; sheet_id: string }>(
    `SELECT p.id AS page_id, a.id AS sheet_id,
            (SELECT pc.code_id FROM printed_codes pc WHERE pc.prefix = 'p' AND pc.target_id = p.id ORDER BY pc.created_at LIMIT 1) AS code_id
     FROM answer_sheets a JOIN pages p ON p.answer_sheet_id = a.id AND NOT p.ignored
     LEFT JOIN students st ON st.id = a.student_id
     WHERE a.file_id = $1 AND a.assigned_group = $2
     ORDER BY st.human_id NULLS LAST, a.sequence, p.page_number`,
    [fileId, congregationId],
  );
}

describe('the file workflow, end to end', () => {
  it('waits at review and assign, and refuses to send before every sheet is assigned', async () => {
    expect((await steps()).step).toBe('review');
    expect((await api(h.app, admin, 'POST', `/api/file/${fileId}/send`)).status).toBe(409);
    // Every third kept sheet goes to the second congregation.
    await reviewAndAssign(h.app, h.db, admin, fileId, congregationA, { congregationId: congregationB, pick: (index) => index % 3 === 1 });
    const now = await steps();
    expect(now.step).toBe('send');
    expect(now.total).toBeGreaterThan(5);
    // The students had no congregation: the file's assignment gave them A (moving single sheets to B later does not).
    const students = await h.db.query<{ congregation_id: string | null }>(
      `SELECT DISTINCT s.id, s.congregation_id FROM students s JOIN answer_sheets a ON a.student_id = s.id WHERE a.file_id = $1`,
      [fileId],
    );
    expect(students.length).toBeGreaterThan(0);
    expect(new Set(students.map((student) => student.congregation_id))).toEqual(new Set([congregationA]));
  });

  it('sends one packet per congregation, each page stamped with its own code, in student order', async () => {
    expect((await api(h.app, coordinatorA, 'POST', `/api/file/${fileId}/send`)).status).toBe(403);
    const sent = await api(h.app, admin, 'POST', `/api/file/${fileId}/send`);
    expect(sent.status).toBe(202);
    expect(sent.json).toEqual({ group_name: 'send_to_study_helpers', run_id: fileId });
    // A second send, while sending or after, is refused.
    expect((await api(h.app, admin, 'POST', `/api/file/${fileId}/send`)).status).toBe(409);

    const stream = await h.app.inject({ method: 'GET', url: `/api/progress/send_to_study_helpers/${fileId}`, headers: admin.headers });
    const messages = sseMessages(stream.body) as { status: string; completed: number; count: number }[];
    const last = messages[messages.length - 1]!;
    const keptPages = (await packetOrder(congregationA)).length + (await packetOrder(congregationB)).length;
    expect(last).toMatchObject({ status: 'success', completed: keptPages, count: keptPages });

    const file = (await api(h.app, admin, 'GET', `/api/file/${fileId}`)).json as unknown as { sent_at: string | null; file_status: string };
    expect(file.sent_at).not.toBeNull();
    expect(file.file_status).toBe('grading');
    expect(await steps()).toMatchObject({ step: 'grading', complete: 0, prepped: false, downloaded: false });
    expect((await api(h.app, admin, 'POST', `/api/file/${fileId}/send`)).status).toBe(409);

    const list = (await api(h.app, admin, 'GET', `/api/file/${fileId}/congregations`)).json as unknown as { id: string; status: string; packet_id: string }[];
    expect(list.map((row) => [row.id, row.status]).sort()).toEqual([[congregationA, 'unprinted'], [congregationB, 'unprinted']].sort());
    for (const [congregationId, who] of [[congregationA, coordinatorA], [congregationB, coordinatorB]] as const) {
      const packetId = list.find((row) => row.id === congregationId)!.packet_id;
      expect((await api(h.app, who, 'GET', `/api/study-helpers/distributed-files/${packetId}/exists`)).json).toEqual({ exists: true });
      const download = await api(h.app, who, 'GET', `/api/study-helpers/distributed-files/${packetId}.pdf`);
      expect(download.status).toBe(200);
      expect(download.raw.headers['content-type']).toBe('application/pdf');
      expect(String(download.raw.headers['content-disposition'])).toContain('Lagos batch 7 - NG 000');
      const pdf = new Uint8Array(download.raw.rawPayload);
      packets.set(congregationId, pdf);
      const expected = await packetOrder(congregationId);
      const read = await codesOnPages(pdf);
      expect(read).toEqual(expected.map((row) => ({ prefix: 'p', id: row.code_id })));
    }
    // Downloading is printing: the congregation's state moves on, the file counts as printed.
    expect(await statesOf()).toEqual({ [congregationA]: 'grading', [congregationB]: 'grading' });
    expect(((await api(h.app, admin, 'GET', `/api/file/${fileId}`)).json as unknown as { printed: boolean }).printed).toBe(true);
  });

  it("fixes the sheets' congregations once sent (409 SHEET_ALREADY_SENT), and names to each coordinator only its own", async () => {
    const sheet = await h.db.one<{ id: string }>(`SELECT id FROM answer_sheets WHERE file_id = $1 AND assigned_group = $2 LIMIT 1`, [fileId, congregationA]);
    const one = await api(h.app, admin, 'PATCH', `/api/answer-sheets/${sheet.id}`, { assigned_group: congregationB });
    expect(one.status).toBe(409);
    expect(one.json).toMatchObject({ detail: { error_type: 'SHEET_ALREADY_SENT' } });
    const all = await api(h.app, admin, 'PATCH', `/api/answer-sheets?file=${fileId}`, { assigned_group: congregationB });
    expect(all.status).toBe(409);
    expect(all.json).toMatchObject({ detail: { error_type: 'SHEET_ALREADY_SENT' } });
    expect(((await api(h.app, admin, 'GET', `/api/answer-sheets/${sheet.id}`)).json as unknown as { assigned_group: string; sent: boolean })).toMatchObject({
      assigned_group: congregationA,
      sent: true,
    });
    for (const [own, who] of [[congregationA, coordinatorA], [congregationB, coordinatorB]] as const) {
      const file = (await api(h.app, who, 'GET', `/api/file/${fileId}`)).json as unknown as { congregations: { id: string }[] };
      expect(file.congregations.map((congregation) => congregation.id)).toEqual([own]);
    }
    const whole = (await api(h.app, admin, 'GET', `/api/file/${fileId}`)).json as unknown as { congregations: { id: string }[] };
    expect(whole.congregations.map((congregation) => congregation.id).sort()).toEqual([congregationA, congregationB].sort());
  });

  it('shows a coordinator only its own packet', async () => {
    const list = (await api(h.app, admin, 'GET', `/api/file/${fileId}/congregations`)).json as unknown as { id: string; packet_id: string }[];
    const packetA = list.find((row) => row.id === congregationA)!.packet_id;
    expect((await api(h.app, coordinatorB, 'GET', `/api/study-helpers/distributed-files/${packetA}/exists`)).status).toBe(403);
    expect((await api(h.app, coordinatorB, 'GET', `/api/study-helpers/distributed-files/${packetA}.pdf`)).status).toBe(403);
    const mine = (await api(h.app, coordinatorA, 'GET', `/api/file/${fileId}/congregations`)).json as unknown as { id: string }[];
    expect(mine.map((row) => row.id)).toEqual([congregationA]);
  });

  it('matches a graded scan page by page: fronts by their code, duplex backs kept or dropped when blank', async () => {
    const back = (index: number): BackKind => (['comment', 'blank', 'none'] as const)[index % 3]!;
    const scan = await scanGradedPackets(packets.get(congregationA)!, { seed: 11, back, upsideDown: (index) => index === 1 });
    const uploaded = await uploadGraded(h.app, coordinatorA, scan);
    expect(uploaded.status).toBe(201);
    expect(uploaded.body.status).toBe('success');
    expect(await waitForUpload(h.db, uploaded.body.id!)).toBe('success');

    const expected = await packetOrder(congregationA);
    const outcomes = await uploadOutcomes(h.db, uploaded.body.id!);
    const plan: { outcome: string; page_id: string }[] = [];
    expected.forEach((row, index) => {
      plan.push({ outcome: 'matched', page_id: row.page_id });
      if (back(index) === 'comment') plan.push({ outcome: 'back', page_id: row.page_id });
      if (back(index) === 'blank') plan.push({ outcome: 'blank_back', page_id: row.page_id });
    });
    expect(outcomes.map((row) => ({ outcome: row.outcome, page_id: row.page_id }))).toEqual(plan);

    expect((await statesOf())[congregationA]).toBe('graded');
    expect((await statesOf())[congregationB]).toBe('grading');
    const sheetsA = new Set(expected.map((row) => row.sheet_id)).size;
    expect(await steps()).toMatchObject({ step: 'grading', complete: sheetsA });

    const withBack = expected[0]!.page_id;
    const front = await api(h.app, coordinatorA, 'GET', `/api/pages/${withBack}/graded-preview`);
    expect(front.status).toBe(200);
    expect(front.raw.headers['content-type']).toBe('image/jpeg');
    expect((await api(h.app, coordinatorA, 'GET', `/api/pages/${withBack}/graded-preview?is_back=true`)).status).toBe(200);
    expect((await api(h.app, coordinatorA, 'GET', `/api/pages/${expected[1]!.page_id}/graded-preview?is_back=true`)).status).toBe(404);
    expect((await api(h.app, coordinatorB, 'GET', `/api/pages/${withBack}/graded-preview`)).status).toBe(403);
    expect((await api(h.app, coordinatorA, 'GET', `/api/file/${fileId}/quiz_feedback_available`)).json).toEqual({ available: true });
    expect((await api(h.app, coordinatorB, 'GET', `/api/file/${fileId}/quiz_feedback_available`)).json).toEqual({ available: false });

    // Nothing of the return step before grading completes.
    expect((await api(h.app, admin, 'POST', `/api/file/${fileId}/regenerate`)).status).toBe(409);
    expect((await api(h.app, admin, 'GET', `/api/file/${fileId}/graded_pdf`)).status).toBe(409);
    expect((await api(h.app, admin, 'POST', `/api/file/${fileId}/archive`)).status).toBe(409);
  });

  it('moves the other congregation through partially graded to graded, then builds the return file', async () => {
    const expected = await packetOrder(congregationB);
    const firstSheet = expected.filter((row) => row.sheet_id === expected[0]!.sheet_id).length;
    const pdf = packets.get(congregationB)!;
    const part1 = await scanGradedPackets(pdf, { seed: 21, pages: [...Array(firstSheet).keys()], back: () => 'blank' });
    const first = await uploadGraded(h.app, coordinatorB, part1, { name: 'First sheet' });
    expect(first.status).toBe(201);
    expect(await waitForUpload(h.db, first.body.id!)).toBe('success');
    expect((await statesOf())[congregationB]).toBe('partially_graded');
    expect((await steps()).step).toBe('grading');

    const rest = [...Array(expected.length).keys()].slice(firstSheet);
    const part2 = await scanGradedPackets(pdf, { seed: 22, pages: rest, back: (index) => (index === 0 ? 'comment' : 'none') });
    const second = await uploadGraded(h.app, coordinatorB, part2, { name: 'The rest' });
    expect(second.status).toBe(201);
    expect(await waitForUpload(h.db, second.body.id!)).toBe('success');
    expect((await statesOf())[congregationB]).toBe('graded');

    const ready = await waitFor('the return file', async () => {
      const now = await steps();
      return now.prepped ? now : null;
    });
    expect(ready).toMatchObject({ step: 'return', prepped: true, downloaded: false });
    expect(ready.complete).toBe(ready.total);
    const file = (await api(h.app, admin, 'GET', `/api/file/${fileId}`)).json as unknown as { grading_complete: boolean };
    expect(file.grading_complete).toBe(true);
    const stream = await h.app.inject({ method: 'GET', url: `/api/progress/generate_return_file_requested/${fileId}`, headers: admin.headers });
    const messages = sseMessages(stream.body) as { status: string; completed: number; count: number }[];
    expect(messages[messages.length - 1]).toMatchObject({ status: 'success' });
  });

  it('returns per student the graded pages, front and back, then a personalised next-lesson sheet, one-sided and two-sided', async () => {
    // Expected, from the database: students in the order of their first sheet; a kept page's
    // code, then its back when its graded scan has one; the next lesson's pages for the student.
    const sheets = await h.db.query<{ id: string; student_id: string | null; next_pages: number }>(
      `SELECT a.id, a.student_id,
              (SELECT count(*)::int FROM lessons nl JOIN page_templates pt ON pt.lesson_id = nl.id
               WHERE nl.course_id = l.course_id AND nl.number = l.number + 1) AS next_pages
       FROM answer_sheets a LEFT JOIN lessons l ON l.id = a.lesson_id
       WHERE a.file_id = $1 AND EXISTS (SELECT 1 FROM pages p WHERE p.answer_sheet_id = a.id AND NOT p.ignored)
       ORDER BY a.sequence`,
      [fileId],
    );
    const pages = await h.db.query<{ sheet_id: string; code_id: string; has_back: boolean }>(
      `SELECT p.answer_sheet_id AS sheet_id,
              (SELECT pc.code_id FROM printed_codes pc WHERE pc.prefix = 'p' AND pc.target_id = p.id ORDER BY pc.created_at LIMIT 1) AS code_id,
              EXISTS (SELECT 1 FROM feedback fb WHERE fb.page_id = p.id AND fb.back_blob_key IS NOT NULL) AS has_back
       FROM pages p JOIN answer_sheets a ON a.id = p.answer_sheet_id WHERE a.file_id = $1 AND NOT p.ignored
       ORDER BY a.sequence, p.page_number`,
      [fileId],
    );
    const groups = new Map<string, typeof sheets>();
    for (const sheet of sheets) groups.set(sheet.student_id ?? sheet.id, [...(groups.get(sheet.student_id ?? sheet.id) ?? []), sheet]);
    // One block per student: its pages, a back as 'none' (no code), and whether it was a back.
    const blocks = [...groups.values()].map((group) => {
      const block: { token: string; back?: boolean }[] = [];
      for (const sheet of group) {
        for (const page of pages.filter((p) => p.sheet_id === sheet.id)) {
          block.push({ token: `p:${page.code_id}` });
          if (page.has_back) block.push({ token: 'none', back: true });
        }
      }
      const last = group[group.length - 1]!;
      if (last.student_id !== null) for (let i = 0; i < last.next_pages; i++) block.push({ token: `s:${last.student_id}` });
      return block;
    });
    const oneSided = blocks.flat().map((page) => page.token);
    expect(oneSided.filter((token) => token.startsWith('s:')).length).toBeGreaterThan(0);
    expect(blocks.some((block) => block.some((page) => page.back))).toBe(true);
    expect(blocks.some((block) => block.some((page, i) => page.token.startsWith('p:') && !block[i + 1]?.back))).toBe(true);

    const issuedTo = new Map(
      (await h.db.query<{ code_id: string; student_id: string }>(`SELECT code_id, student_id FROM printed_codes WHERE prefix = 's' AND student_id IS NOT NULL`)).map(
        (row) => [row.code_id, row.student_id],
      ),
    );
    const read = async (query: string, name: string) => {
      const download = await api(h.app, admin, 'GET', `/api/file/${fileId}/graded_pdf${query}`);
      expect(download.status).toBe(200);
      expect(String(download.raw.headers['content-disposition'])).toContain(name);
      const pdf = new Uint8Array(download.raw.rawPayload);
      // The two-sided return file is the one that goes out; cycle 2 comes back from it.
      if (query === '') returnPdf = pdf;
      const codes = await codesOnPages(pdf);
      expect(codes).toHaveLength(pdfPageCount(pdf));
      return codes.map((code) => (code === null ? 'none' : code.prefix === 's' ? `s:${issuedTo.get(code.id) ?? 'unknown'}` : `${code.prefix}:${code.id}`));
    };

    // One-sided: the pages as they are, nothing added.
    expect(await read('?sides=one', 'Lagos batch 7 - graded - one-sided.pdf')).toEqual(oneSided);

    // Two-sided (the default): read page by page, every student's block starts on an odd page,
    // every page with a code is on the front of a sheet (odd page), and what follows it is its
    // back or blank paper, never another student's or another page's code.
    const twoSided = await read('', 'Lagos batch 7 - graded.pdf');
    let at = 0;
    for (const block of blocks) {
      while (twoSided[at] === 'none') at++;
      expect(at % 2, `student block starting ${block[0]!.token} is on page ${at + 1}`).toBe(0);
      for (const page of block) {
        if (page.back) continue;
        expect(twoSided[at], `page ${at + 1}`).toBe(page.token);
        expect(at % 2, `${page.token} is on page ${at + 1}`).toBe(0);
        // Its back, or a blank page: nothing with a code.
        expect(twoSided[at + 1], `the back of page ${at + 1}`).toBe('none');
        at += 2;
      }
    }
    expect(at).toBe(twoSided.length);
    expect(twoSided.filter((token) => token !== 'none')).toEqual(oneSided.filter((token) => token !== 'none'));

    expect(await steps()).toMatchObject({ step: 'return', prepped: true, downloaded: true });
    expect(((await api(h.app, admin, 'GET', `/api/file/${fileId}`)).json as unknown as { file_status: string }).file_status).toBe('downloaded');
  });

  it('archives the file once its return file was downloaded, and only once; packets are offered until then', async () => {
    const list = (await api(h.app, admin, 'GET', `/api/file/${fileId}/congregations`)).json as unknown as { id: string; packet_id: string }[];
    const packetA = list.find((row) => row.id === congregationA)!.packet_id;
    // Printed and graded long ago, the packet still downloads (a jam, a lost download).
    const again = await api(h.app, coordinatorA, 'GET', `/api/study-helpers/distributed-files/${packetA}.pdf`);
    expect(again.status).toBe(200);
    // Compared as bytes: a deep equality over 2 MB takes vitest tens of seconds.
    expect(Buffer.compare(again.raw.rawPayload, Buffer.from(packets.get(congregationA)!))).toBe(0);
    expect((await api(h.app, coordinatorA, 'POST', `/api/file/${fileId}/archive`)).status).toBe(403);
    const archived = await api(h.app, admin, 'POST', `/api/file/${fileId}/archive`);
    expect(archived.status).toBe(200);
    expect(archived.json).toMatchObject({ id: fileId, file_status: 'archived', grading_complete: true });
    expect(await statesOf()).toEqual({ [congregationA]: 'returned', [congregationB]: 'returned' });
    expect((await api(h.app, admin, 'POST', `/api/file/${fileId}/archive`)).status).toBe(409);
    expect((await api(h.app, admin, 'POST', `/api/file/${fileId}/regenerate`)).status).toBe(409);
    expect(await steps()).toMatchObject({ step: 'return', downloaded: true });
    // Archived: the packet is no longer offered.
    const after = await api(h.app, coordinatorA, 'GET', `/api/study-helpers/distributed-files/${packetA}.pdf`);
    expect(after.status).toBe(409);
  });

  it('reads the next-lesson sheets filled in and scanned back as a new file, each assigned on arrival, at Send without Assign', async () => {
    const pdf = returnPdf!;
    const read = await codesOnPages(pdf);
    const nextLesson = read.flatMap((code, index) => (code?.prefix === 's' ? [index] : []));
    expect(nextLesson.length).toBeGreaterThan(0);
    const scan = await scanGradedPackets(pdf, { seed: 31, pages: nextLesson });
    const uploaded = await upload(h.app, admin, scan, { name: 'Lagos batch 8', answer_sheet_page_length: '0' });
    expect(uploaded.status).toBe(201);
    const cycle2 = uploaded.body.id!;
    expect(await waitForProcessing(h.db, cycle2)).toBe('success');

    const sheets = await h.db.query<{ student_id: string; assigned_group: string | null; congregation_id: string | null; lesson_id: string | null }>(
      `SELECT a.student_id, a.assigned_group, s.congregation_id, a.lesson_id FROM answer_sheets a JOIN students s ON s.id = a.student_id
       WHERE a.file_id = $1 ORDER BY a.sequence`,
      [cycle2],
    );
    // One sheet per student the return file printed a next-lesson sheet for, and no sheet without a student.
    const printedFor = await h.db.query<{ student_id: string }>(
      `SELECT DISTINCT student_id FROM printed_codes WHERE prefix = 's' AND code_id = ANY($1::text[])`,
      [read.flatMap((code) => (code?.prefix === 's' ? [code.id] : []))],
    );
    expect(sheets.map((sheet) => sheet.student_id).sort()).toEqual(printedFor.map((row) => row.student_id).sort());
    expect((await h.db.one<{ n: number }>('SELECT count(*)::int AS n FROM answer_sheets WHERE file_id = $1', [cycle2])).n).toBe(sheets.length);
    for (const sheet of sheets) {
      expect(sheet.lesson_id).not.toBeNull();
      expect(sheet.congregation_id).not.toBeNull();
      expect(sheet.assigned_group).toBe(sheet.congregation_id);
    }
    const now = (await api(h.app, admin, 'GET', `/api/file/${cycle2}/steps`)).json as unknown as { step: string };
    expect(now.step).toBe('send');
  });
});

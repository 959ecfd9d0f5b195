// Review on the mock world, driven through the generated client as the screens call it: the
// seeded files show every review reason with what Review needs beside it, each mend answers as
// the server does (and is refused in its words), and a file leaves Review only when its last flag
// is mended and every duplicate is kept or ignored. Expectations are written out here, from the
// contract and the server, not read from the mock's own rules.
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { getAnswerSheet, listAnswerSheetPages, listAnswerSheets, updateAnswerSheet } from '../../generated/hooks/answer-sheets/answer-sheets';
import { getFileStats, getFileSteps, listFiles } from '../../generated/hooks/files/files';
import type { AnswerSheet, Page, PagePatch } from '../../generated/hooks/model';
import { getPage, updatePage } from '../../generated/hooks/pages/pages';
import { getStudent } from '../../generated/hooks/students/students';
import { getUpload } from '../../generated/hooks/uploads/uploads';
import { contract } from '../../server/contract/contract';
import { ApiError } from '../../src/lib/api-client';
import { server, signInAs, useScenario } from '../../src/testing/mocks/server';
import { SHEET_HAS_STUDENT } from '../../src/testing/mocks/world/sheet-mends';

const ADMIN = 'admin@demo.local';
const SENT = { error_type: 'SHEET_ALREADY_SENT', message: 'This file was sent to study helpers: its pages can no longer be changed or moved.' };

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => {
  useScenario('default');
  signInAs('admin');
});
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/** The refusal a call answers with: its status and the spec's error body. */
async function refusalOf(call: Promise<unknown>): Promise<{ status: number; body: unknown }> {
  try {
    await call;
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, body: error.body };
    throw error;
  }
  throw new Error('the call was not refused');
}

const invalid = (message: string) => ({ status: 400, body: { detail: { error_type: 'VALIDATION_ERROR', message } } });

/** The files at Review, by name: the seeded batch read by its codes, and the intro batch. */
async function reviewFile(name: string): Promise<string> {
  const files = await listFiles({ file_state: 'review', limit: 100 });
  const file = files.items.find((row) => row.name === name);
  expect(file, `${name} is at Review`).toBeTruthy();
  return file!.id;
}
const CODED = 'ACC_2026-10-28_batch06.pdf';
const INTRO = 'ACC_2026-10-26_batch12.pdf';

async function sheetsOf(fileId: string): Promise<AnswerSheet[]> {
  return (await listAnswerSheets({ file: fileId, limit: 100 })).items;
}

/** Every page of the file's kept sheets, in file order. */
async function pagesOf(fileId: string): Promise<Page[]> {
  const pages = await Promise.all((await sheetsOf(fileId)).map((sheet) => listAnswerSheetPages(sheet.id)));
  return pages.flat().sort((a, b) => a.page_number - b.page_number);
}

async function pageWith(fileId: string, reason: Page['review_reason']): Promise<Page> {
  const page = (await pagesOf(fileId)).find((row) => row.review_reason === reason);
  expect(page, `a page of ${reason}`).toBeTruthy();
  return page!;
}

async function sentPage(): Promise<Page> {
  const sent = (await listFiles({ file_state: 'grading', limit: 1 })).items[0]!;
  return (await pagesOf(sent.id))[0]!;
}

describe('seeded paper shows every review reason', () => {
  it('a batch read by its codes: no code, reverse order, a stray page, a blank back, a double feed, a rescan', async () => {
    const file = await reviewFile(CODED);
    const stats = await getFileStats(file);
    expect(stats.flagged).toBe(5);
    expect(stats.reasons).toEqual({
      no_code_found: 0,
      unreadable: 1,
      unknown_code: 0,
      out_of_order: 1,
      stray_page: 1,
      another_course: 0,
      duplicate_sheet: 3,
      blank_back: 1,
      ambiguous_position: 0,
      page_missing: 0,
      scanned_twice: 1,
      already_uploaded: 1,
      too_complex: 0,
      no_sheet: 0,
      too_blurred: 0,
    });
    expect(stats.duplicates).toBe(3);
    const pages = await pagesOf(file);
    const twice = pages.find((page) => page.review_reason === 'scanned_twice')!;
    expect(twice).toMatchObject({ page_number: 16, flagged: true, mended: null, turns: 0 });
    expect(twice.review_detail?.copy_of).toMatchObject({ page_number: 15, file_id: file, file_name: CODED, student_taken: false });
    const rescan = pages.find((page) => page.review_reason === 'already_uploaded')!;
    expect(rescan.review_detail?.copy_of).toMatchObject({ page_number: 1, file_name: 'Scan_20261028_080759.pdf', student_taken: false });
    expect(pages.find((page) => page.review_reason === 'blank_back')).toMatchObject({ page_number: 3, blank: true, ignored: true, flagged: false });
    expect(pages.find((page) => page.review_reason === 'out_of_order')).toMatchObject({ page_number: 14, flagged: true, template: { page_number: 2 } });
    expect(pages.find((page) => page.review_reason === 'stray_page')).toMatchObject({ page_number: 17, flagged: true, template: null });
    expect(pages.filter((page) => page.review_reason === 'duplicate_sheet').map((page) => page.flagged)).toEqual([false, false, false]);
  });

  it('an intro batch: a sheet short of a page, a page two sheets could take, a rescan that took an earlier student', async () => {
    const file = await reviewFile(INTRO);
    const stats = await getFileStats(file);
    expect(stats).toMatchObject({ pages: 8, sheets: 4, flagged: 4, duplicates: 1, ignored: 1 });
    expect(stats.reasons).toMatchObject({ ambiguous_position: 1, page_missing: 1, already_uploaded: 2, blank_back: 1, no_code_found: 0 });
    const [, second, third] = await sheetsOf(file);
    const ambiguous = await pageWith(file, 'ambiguous_position');
    expect(ambiguous.review_detail).toEqual({
      candidate_sheets: [
        { id: second!.id, number: 2, student: { id: second!.student!.id, human_id: 100272 } },
        { id: third!.id, number: 3, student: { id: third!.student!.id, human_id: 100300 } },
      ],
    });
    expect(await pageWith(file, 'page_missing')).toMatchObject({ page_number: 4, flagged: true, review_detail: { missing_pages: [2] } });
    const rescan = await pageWith(file, 'already_uploaded');
    expect(rescan.review_detail?.copy_of).toMatchObject({ page_number: 1, file_name: 'Scan_20261026_005112.pdf', student_taken: true });
  });
});

describe('what Review is told fits the contract', () => {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const schemaOf = (operationId: string) => {
    const op = contract().operations.find((row) => row.operationId === operationId)!;
    return ajv.compile(op.responses['200']!['application/json']!);
  };

  it('every page view and the stats of both files at Review', async () => {
    const page = schemaOf('getPage');
    const stats = schemaOf('getFileStats');
    for (const name of [CODED, INTRO]) {
      const file = await reviewFile(name);
      expect(stats(await getFileStats(file)), ajv.errorsText(stats.errors)).toBe(true);
      for (const row of await pagesOf(file)) expect(page(await getPage(row.id)), ajv.errorsText(page.errors)).toBe(true);
    }
  });

  it('the upload report of a file at Review: flagged pages wait, the blank back is dropped', async () => {
    const report = await getUpload(await reviewFile(CODED));
    expect(report.summary).toEqual({ pages_read: 18, matched: 12, not_matched: 5, blank_dropped: 1 });
    expect(report.pages.find((row) => row.page_number === 16)).toMatchObject({
      result: 'not_matched',
      reason: 'in_review',
      detail: 'Flagged: scanned twice (a copy of another page of this file). Mend it on its response in Review.',
    });
    expect(report.pages.find((row) => row.page_number === 3)).toMatchObject({ result: 'blank_dropped', reason: null });
  });
});

describe('responses by review reason', () => {
  it('lists the responses with a page shown for a reason, and tells whether their file was sent', async () => {
    const file = await reviewFile(INTRO);
    const [, second, third, fourth] = await sheetsOf(file);
    const ids = async (reason: Page['review_reason'] & string) => (await listAnswerSheets({ file, reason, limit: 100 })).items.map((sheet) => sheet.id);
    expect(await ids('ambiguous_position')).toEqual([third!.id]);
    expect(await ids('page_missing')).toEqual([second!.id]);
    expect(await ids('already_uploaded')).toEqual([fourth!.id]);
    expect(await ids('duplicate_sheet')).toEqual([fourth!.id]);
    expect(await ids('stray_page')).toEqual([]);
    expect(fourth).toMatchObject({ sent: false, duplicate: true, duplicate_kept: false, flagged_count: 2 });
  });
});

describe('mends, as the server makes them', () => {
  it('answer_sheet moves a page to a sheet it could belong to; the sheet no longer short loses its flag', async () => {
    const file = await reviewFile(INTRO);
    const ambiguous = await pageWith(file, 'ambiguous_position');
    const target = ambiguous.review_detail!.candidate_sheets![0]!;
    const moved = await updatePage(ambiguous.id, { answer_sheet: target.id });
    expect(moved).toMatchObject({ flagged: false, review_reason: null, answer_sheet: { id: target.id }, mended: { action: 'moved', by: ADMIN } });
    const short = (await listAnswerSheetPages(target.id)).find((page) => page.page_number === 4)!;
    expect(short).toMatchObject({ flagged: false, review_reason: null, review_detail: null });
    expect((await getFileStats(file)).flagged).toBe(2);
  });

  it('answer_sheet naming its own sheet keeps the page there ("Keep It Here") and clears its flag', async () => {
    const file = await reviewFile(INTRO);
    const ambiguous = await pageWith(file, 'ambiguous_position');
    const kept = await updatePage(ambiguous.id, { answer_sheet: ambiguous.answer_sheet!.id });
    expect(kept).toMatchObject({ flagged: false, answer_sheet: { id: ambiguous.answer_sheet!.id }, mended: { action: 'moved', by: ADMIN } });
  });

  it('answer_sheet of another file is refused', async () => {
    const coded = await reviewFile(CODED);
    const page = await pageWith(await reviewFile(INTRO), 'ambiguous_position');
    const elsewhere = (await sheetsOf(coded))[0]!;
    expect(await refusalOf(updatePage(page.id, { answer_sheet: elsewhere.id }))).toEqual(invalid("answer_sheet: not an answer sheet of this page's file"));
  });

  it('new_sheet starts a response at a page, and not at a page that already starts one', async () => {
    const file = await reviewFile(INTRO);
    const before = (await sheetsOf(file)).length;
    const ambiguous = await pageWith(file, 'ambiguous_position');
    const started = await updatePage(ambiguous.id, { new_sheet: true });
    expect(started).toMatchObject({ flagged: false, mended: { action: 'new_sheet', by: ADMIN } });
    expect(started.answer_sheet!.id).not.toBe(ambiguous.answer_sheet!.id);
    // In an intro file a new sheet is a new student's.
    expect(started.answer_sheet!.student).not.toBeNull();
    expect((await sheetsOf(file)).length).toBe(before + 1);
    expect(await refusalOf(updatePage(ambiguous.id, { new_sheet: true }))).toEqual(
      invalid('new_sheet: this page already starts its response (no kept page comes before it)'),
    );
  });

  it('join_previous takes a response back into the one before; the student its start made goes with it', async () => {
    const file = await reviewFile(INTRO);
    const ambiguous = await pageWith(file, 'ambiguous_position');
    const started = await updatePage(ambiguous.id, { new_sheet: true });
    const made = started.answer_sheet!.student!.id;
    expect(await getStudent(made)).toMatchObject({ id: made });
    const joined = await updateAnswerSheet(started.answer_sheet!.id, { join_previous: true });
    expect(joined).toMatchObject({ id: ambiguous.answer_sheet!.id, student: { human_id: 100300 } });
    expect(await getPage(ambiguous.id)).toMatchObject({ answer_sheet: { id: ambiguous.answer_sheet!.id }, mended: { action: 'joined', by: ADMIN } });
    expect(await refusalOf(getStudent(made))).toMatchObject({ status: 404 });
    const first = (await sheetsOf(file))[0]!;
    expect(await refusalOf(updateAnswerSheet(first.id, { join_previous: true }))).toEqual(
      invalid('join_previous: this is the first response of its file, so there is none before it to join'),
    );
  });

  it('code takes a typed code and clears the flag; a code of the wrong form is refused', async () => {
    const page = await pageWith(await reviewFile(CODED), 'unreadable');
    expect(await refusalOf(updatePage(page.id, { code: 'hello' }))).toEqual(
      invalid("code: type the code printed beside the page's QR code, e.g. S-ABCD2345 or T-ABCD2345"),
    );
    expect(await updatePage(page.id, { code: 'S-ABCD2345' })).toMatchObject({ flagged: false, unrecognized_reason: null, mended: { action: 'code_typed', by: ADMIN } });
  });

  it('ignored sets a page aside (no longer waiting) and unignoring brings it back flagged', async () => {
    const page = await pageWith(await reviewFile(CODED), 'stray_page');
    expect(await updatePage(page.id, { ignored: true })).toMatchObject({ ignored: true, flagged: false, mended: { action: 'ignored', by: ADMIN } });
    expect(await updatePage(page.id, { ignored: false })).toMatchObject({ ignored: false, flagged: true, review_reason: 'stray_page', mended: { action: 'unignored' } });
  });

  it('template identifies a page without a code; an unknown template is refused', async () => {
    const file = await reviewFile(CODED);
    const page = await pageWith(file, 'unreadable');
    const template = (await pagesOf(file)).find((row) => row.template !== null)!.template!;
    expect(await refusalOf(updatePage(page.id, { template: '00000000-0000-4000-8000-000000000000' }))).toEqual(invalid('template: no such page template'));
    expect(await updatePage(page.id, { template: template.id })).toMatchObject({
      flagged: false,
      review_reason: null,
      template: { id: template.id },
      mended: { action: 'template_set', by: ADMIN },
    });
    // A template does not answer an out-of-order page: only a no-code flag.
    const late = await pageWith(file, 'out_of_order');
    expect(await updatePage(late.id, { template: template.id })).toMatchObject({ flagged: true, review_reason: 'out_of_order' });
  });

  it('turn turns the image, is counted and recorded, and leaves the flag for a person', async () => {
    const page = await pageWith(await reviewFile(CODED), 'unreadable');
    expect(await updatePage(page.id, { turn: 90 })).toMatchObject({ turns: 1, flagged: true, review_reason: 'unreadable', mended: { action: 'turned', by: ADMIN } });
    expect(await updatePage(page.id, { turn: 180 })).toMatchObject({ turns: 2, flagged: true });
    expect(await refusalOf(updatePage(page.id, { turn: 45 } as unknown as PagePatch))).toMatchObject({ status: 400 });
  });

  it('new_student gives a rescanned intro sheet its own student; its other rescanned page only loses its flag', async () => {
    const file = await reviewFile(INTRO);
    const [first, second] = (await pagesOf(file)).filter((page) => page.review_reason === 'already_uploaded');
    const earlier = first!.answer_sheet!.student!;
    const given = await updatePage(first!.id, { new_student: true });
    expect(given).toMatchObject({ flagged: false, review_reason: null, review_detail: null, mended: { action: 'new_student', by: ADMIN } });
    expect(given.answer_sheet!.student!.id).not.toBe(earlier.id);
    expect(given.answer_sheet!.assigned_group).toBeNull();
    // No longer the earlier student's lesson again: not a duplicate.
    expect(await getAnswerSheet(given.answer_sheet!.id)).toMatchObject({ duplicate: false });
    const then = await updatePage(second!.id, { new_student: true });
    expect(then).toMatchObject({ flagged: false, answer_sheet: { student: { id: given.answer_sheet!.student!.id } } });
  });

  it('new_student is refused on any page but an already uploaded one of an intro file', async () => {
    const message = 'new_student: only a page flagged as already uploaded, in an intro file, can take a new student';
    expect(await refusalOf(updatePage((await pageWith(await reviewFile(CODED), 'already_uploaded')).id, { new_student: true }))).toEqual(invalid(message));
    expect(await refusalOf(updatePage((await pageWith(await reviewFile(INTRO), 'page_missing')).id, { new_student: true }))).toEqual(invalid(message));
  });

  it('a mend that must come alone is refused beside another change', async () => {
    const page = await pageWith(await reviewFile(INTRO), 'ambiguous_position');
    expect(await refusalOf(updatePage(page.id, { answer_sheet: page.answer_sheet!.id, ignored: true }))).toEqual(invalid('answer_sheet: send it alone'));
    expect(await refusalOf(updatePage(page.id, { turn: 90, template: null }))).toEqual(invalid('turn: send it alone'));
  });

  it('keep_duplicate keeps a duplicate, recorded on its pages; a sheet that is none is refused', async () => {
    const file = await reviewFile(CODED);
    const sheets = await sheetsOf(file);
    const duplicate = sheets.find((sheet) => sheet.duplicate)!;
    expect(await updateAnswerSheet(duplicate.id, { keep_duplicate: true })).toMatchObject({ duplicate: true, duplicate_kept: true });
    expect((await listAnswerSheetPages(duplicate.id)).map((page) => page.mended?.action)).toContain('duplicate_kept');
    const single = sheets.find((sheet) => !sheet.duplicate)!;
    expect(await refusalOf(updateAnswerSheet(single.id, { keep_duplicate: true }))).toEqual(invalid('keep_duplicate: this response is not a duplicate'));
    expect(await refusalOf(updateAnswerSheet(duplicate.id, { keep_duplicate: true, lesson: null }))).toEqual(invalid('keep_duplicate: send it alone'));
  });

  it('student names the student of a response started by hand (student_set); never another student\'s response', async () => {
    const file = await reviewFile(CODED);
    const sheets = await sheetsOf(file);
    // A response started by hand in a coded file has no student until a person names one.
    const split = (await Promise.all(sheets.map(async (sheet) => ({ sheet, pages: (await listAnswerSheetPages(sheet.id)).filter((page) => !page.ignored) }))))
      .find(({ sheet, pages }) => sheet.student !== null && pages.length > 1 && !pages[1]!.has_photo)!;
    const started = (await updatePage(split.pages[1]!.id, { new_sheet: true })).answer_sheet!;
    expect(started.student).toBeNull();
    const other = sheets.find((sheet) => sheet.student !== null && sheet.student.id !== split.sheet.student!.id)!;
    const named = await updateAnswerSheet(started.id, { student: split.sheet.student!.id });
    expect(named.student).toMatchObject({ id: split.sheet.student!.id });
    expect((await listAnswerSheetPages(started.id)).every((page) => page.mended?.action === 'student_set' && page.mended.by === ADMIN)).toBe(true);
    // Its pages, and any other response's, never change students this way.
    const conflict = { status: 409, body: { detail: { error_type: 'CONFLICT', message: SHEET_HAS_STUDENT } } };
    expect(await refusalOf(updateAnswerSheet(started.id, { student: other.student!.id }))).toEqual(conflict);
    expect(await refusalOf(updateAnswerSheet(other.id, { student: split.sheet.student!.id }))).toEqual(conflict);
    expect((await getAnswerSheet(other.id)).student!.id).toBe(other.student!.id);
    expect(await refusalOf(updateAnswerSheet(started.id, { student: '00000000-0000-4000-8000-000000000000' }))).toEqual(invalid('student: no such student'));
  });

  it('every mend is refused once the file is sent (409 SHEET_ALREADY_SENT)', async () => {
    const page = await sentPage();
    for (const patch of [{ ignored: true }, { answer_sheet: page.answer_sheet!.id }, { new_sheet: true }, { code: 'S-ABCD2345' }, { turn: 90 }, { template: null }] as PagePatch[]) {
      expect(await refusalOf(updatePage(page.id, patch))).toEqual({ status: 409, body: { detail: SENT } });
    }
    const sheet = page.answer_sheet!.id;
    expect(await refusalOf(updateAnswerSheet(sheet, { keep_duplicate: true }))).toEqual({ status: 409, body: { detail: SENT } });
    expect(await refusalOf(updateAnswerSheet(sheet, { student: page.answer_sheet!.student!.id }))).toEqual({ status: 409, body: { detail: SENT } });
    expect(await refusalOf(updateAnswerSheet(sheet, { join_previous: true }))).toEqual({ status: 409, body: { detail: SENT } });
  });

  it('a coordinator may not mend (403)', async () => {
    const page = await pageWith(await reviewFile(INTRO), 'ambiguous_position');
    signInAs('coordinator');
    expect(await refusalOf(updatePage(page.id, { ignored: true }))).toMatchObject({ status: 403 });
    signInAs('admin');
    expect(await getPage(page.id)).toMatchObject({ ignored: false, mended: null });
  });
});

describe('a file waits at Review while anything is undecided', () => {
  it('leaves Review when its last flag is mended', async () => {
    const file = await reviewFile(INTRO);
    const step = async () => (await getFileSteps(file)).step;
    // The rescan first: its new student makes its sheet no longer a duplicate.
    const [first, second] = (await pagesOf(file)).filter((page) => page.review_reason === 'already_uploaded');
    await updatePage(first!.id, { new_student: true });
    await updatePage(second!.id, { new_student: true });
    expect(await step()).toBe('review');
    await updatePage((await pageWith(file, 'page_missing')).id, { ignored: true });
    expect(await step()).toBe('review');
    expect((await getFileStats(file)).flagged).toBe(1);
    const last = await pageWith(file, 'ambiguous_position');
    await updatePage(last.id, { answer_sheet: last.answer_sheet!.id });
    expect(await getFileStats(file)).toMatchObject({ flagged: 0, duplicates: 0 });
    // The rescan's new student has no congregation yet, so its sheet waits to be assigned.
    expect(await step()).toBe('assign');
  });

  it('a duplicate holds Review until kept, after every flag is mended', async () => {
    const file = await reviewFile(CODED);
    const step = async () => (await getFileSteps(file)).step;
    for (const page of (await pagesOf(file)).filter((row) => row.flagged)) await updatePage(page.id, { ignored: true });
    expect((await getFileStats(file)).flagged).toBe(0);
    // Of its three duplicates the rescan went with its only page; two wait for a person.
    const duplicates = (await sheetsOf(file)).filter((sheet) => sheet.duplicate);
    expect(duplicates).toHaveLength(2);
    for (const [index, sheet] of duplicates.entries()) {
      expect(await step()).toBe('review');
      expect((await getFileStats(file)).duplicates).toBe(2 - index);
      await updateAnswerSheet(sheet.id, { keep_duplicate: true });
    }
    expect((await getFileStats(file)).duplicates).toBe(0);
    expect(await step()).toBe('assign');
  });

  it('a duplicate whose pages are ignored holds nothing', async () => {
    const file = await reviewFile(INTRO);
    const rescan = (await sheetsOf(file)).find((sheet) => sheet.duplicate)!;
    for (const page of await listAnswerSheetPages(rescan.id)) await updatePage(page.id, { ignored: true });
    expect((await getFileStats(file)).duplicates).toBe(0);
  });
});

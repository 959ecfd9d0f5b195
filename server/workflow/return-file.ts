// The return file (its job: server/jobs/return-file.ts): the file that goes back to the service
// center once every answer sheet is graded. Per student, in the order the file brought them: the graded scans of
// each of their sheets, front then back, page by page; then, when the course goes on, a
// personalised sheet of the next lesson whose pages carry `s` codes issued to that student (and
// the student's human id in the name field), so the next answers come back already identified.
// Sheets without a student bring only their graded pages.
//
// Two layouts are written in one pass, page by page, each straight to the blob store:
//   two-sided (the default download): made for duplex printers. Every student's block starts on
//     an odd page; every graded front is followed by its back or a blank page, so front and back
//     share one sheet of paper; each next-lesson page is printed as its master is meant to be,
//     alone on the front of its own sheet (blank back), so the student's answers never share a
//     sheet with anything else and the scanner drops the blank back.
//   one-sided: the same pages with no blank page added (`?sides=one`).
import type { BlobStore } from '../blob-store';
import type { Database } from '../db/database';
import { conflictError, FILE_NOT_FOUND, notFound } from '../http-error';
import {
  cancelReturnRequest,
  lockFileForReturnRequest,
  markReturnRequested,
  nextLessonTemplates,
  pendingReturnRequest,
  returnPagesOfFile,
  returnSheetsOfFile,
  storeReturnFileOfRequest,
  type NextLessonTemplateRow,
  type ReturnRequest,
  type ReturnSheetRow,
} from '../repositories/file-returns';
import type { AnswerSheetMasterInput } from '../pdf/answer-sheet-master';
import { pdfDrawing } from '../pdf/lazy-drawing';
import { readAhead } from './blob-files';
import { JOB } from './job-progress';
import { startProgress } from '../repositories/job-progress';
import type { NextLessonPage } from '../pdf/next-lesson-page';
import { issuedKey, issuedSheetCodes } from './printed-codes';

/** POST /regenerate: 409 before grading completes, after archiving, or while one is being made. */
export async function requestReturnFile(db: Database, fileId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const file = await lockFileForReturnRequest(tx, fileId);
    if (file === null) throw notFound(FILE_NOT_FOUND);
    if (!file.grading_complete) throw conflictError('The return file can be made once every answer sheet is graded.');
    if (file.file_status === 'archived') throw conflictError('This file is archived.');
    if (file.return_requested_at !== null && !file.return_prepped) throw conflictError('The return file is being generated.');
    await markReturnRequested(tx, fileId);
    await startProgress(tx, JOB.generateReturnFile, fileId, 0);
  });
}

/** One page of the return file: a scan, a page of a personalised next-lesson sheet, or blank paper. */
export type ReturnPage =
  | { kind: 'scan'; blob_key: string | null }
  | { kind: 'next_lesson'; page: NextLessonPage }
  | { kind: 'blank' };

/** One sheet of paper's worth: a graded front with its back (if scanned), or a next-lesson page. */
export type ReturnLeaf =
  | { kind: 'graded'; front: string | null; back: string | null }
  | { kind: 'next_lesson'; page: NextLessonPage };

/** Everything one student (or one sheet without a student) gets back, in order. */
export type ReturnBlock = ReturnLeaf[];

export type ReturnSides = 'two' | 'one';

/**
 * The pages to print for a layout. Two-sided: each block starts on an odd page and every leaf
 * fills both sides of one sheet (its back, or a blank page). One-sided: the pages as they are.
 */
export function layOutReturnFile(blocks: readonly ReturnBlock[], sides: ReturnSides): ReturnPage[] {
  const out: ReturnPage[] = [];
  for (const block of blocks) {
    // Every leaf takes two pages, so a block always ends on an even page: this only guards it.
    if (sides === 'two' && out.length % 2 === 1) out.push({ kind: 'blank' });
    for (const leaf of block) {
      if (leaf.kind === 'graded') {
        out.push({ kind: 'scan', blob_key: leaf.front });
        if (leaf.back !== null) out.push({ kind: 'scan', blob_key: leaf.back });
        else if (sides === 'two') out.push({ kind: 'blank' });
      } else {
        out.push({ kind: 'next_lesson', page: leaf.page });
        if (sides === 'two') out.push({ kind: 'blank' });
      }
    }
  }
  return out;
}

/** The return file's student blocks, in order. Issues the `s` codes it needs. */
export async function returnFileBlocks(db: Database, fileId: string, publicUrl: string): Promise<ReturnBlock[]> {
  const sheets = await returnSheetsOfFile(db, fileId);
  const pagesOf = groupBy(await returnPagesOfFile(db, fileId), (page) => page.answer_sheet_id);
  // Students in the order of their first sheet; each one's sheets in file order.
  const groups = groupBy(sheets, (sheet) => sheet.student_id ?? `sheet:${sheet.id}`);
  const nextLessons = [...new Set(sheets.map((sheet) => sheet.next_lesson_id).filter((id): id is string => id !== null))];
  const templatesOf = groupBy(nextLessons.length === 0 ? [] : await nextLessonTemplates(db, nextLessons), (template) => template.lesson_id);

  // Next-lesson copies each student gets: the lesson after the student's last sheet in this file.
  const nextOf = (group: ReturnSheetRow[]) => {
    const last = group[group.length - 1]!;
    const next = last.next_lesson_id === null ? [] : (templatesOf.get(last.next_lesson_id) ?? []);
    return last.student_id === null ? [] : next;
  };
  const copies = [...groups.values()].flatMap((group) => nextOf(group).map((template) => ({ studentId: group[0]!.student_id!, templateId: template.id })));
  const codes = await issuedSheetCodes(db, copies);

  const out: ReturnBlock[] = [];
  for (const group of groups.values()) {
    const block: ReturnBlock = group.flatMap((sheet) =>
      (pagesOf.get(sheet.id) ?? []).map((page): ReturnLeaf => ({ kind: 'graded', front: page.front_key, back: page.back_key })),
    );
    const next = nextOf(group);
    if (next.length > 0) block.push(...nextLessonLeaves(group[group.length - 1]!, next, codes, publicUrl));
    out.push(block);
  }
  return out.filter((block) => block.length > 0);
}

/** Rows grouped by a key, the groups in the order their first row came. */
function groupBy<T>(rows: readonly T[], keyOf: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const key = keyOf(row);
    const group = groups.get(key) ?? [];
    group.push(row);
    groups.set(key, group);
  }
  return groups;
}

/** The personalised pages of a student's next lesson, each with the `s` code issued for it. */
function nextLessonLeaves(last: ReturnSheetRow, next: NextLessonTemplateRow[], codes: ReadonlyMap<string, string>, publicUrl: string): ReturnLeaf[] {
  const studentId = last.student_id!;
  const first = next[0]!;
  const humanId = last.student_human_id === null ? null : Number(last.student_human_id);
  const name = last.student_name?.trim() ?? '';
  const input: AnswerSheetMasterInput = {
    courseName: first.course_name,
    lessonName: first.lesson_name,
    lessonNumber: first.lesson_number,
    pages: next.map((template) => ({ page_number: template.page_number, code: { prefix: 's', id: codes.get(issuedKey(studentId, template.id))! } })),
    publicUrl,
    studentName: [name, humanId === null ? '' : `(ID ${humanId})`].filter(Boolean).join(' '),
  };
  // Everything the master prints: a renamed lesson is drawn afresh, not taken from the cache.
  const master = (template: NextLessonTemplateRow) => JSON.stringify([template.id, input.courseName, input.lessonName, input.lessonNumber, next.length, publicUrl]);
  return next.map((template, index) => ({ kind: 'next_lesson', page: { input, index, masterKey: master(template) } }));
}

/** The request to serve; null when there is none (not graded yet, made already, file deleted). */
export async function returnRequest(db: Database, fileId: string): Promise<ReturnRequest | null> {
  return pendingReturnRequest(db, fileId);
}

/** The two layouts' blobs as stored. */
export interface ReturnBlobs {
  two: { key: string };
  one: { key: string };
  /** Pages of the two-sided layout. */
  pageCount: number;
}

/**
 * Writes both layouts in one pass over the scans, page by page, each straight to the blob store:
 * the one-sided pages are the two-sided ones without their blank pages, in the same order.
 */
export async function writeReturnFile(
  blobStore: BlobStore,
  blocks: readonly ReturnBlock[],
  options: { signal: AbortSignal; afterPage: () => Promise<void> },
): Promise<ReturnBlobs> {
  const twoSided = layOutReturnFile(blocks, 'two');
  const oneSided = layOutReturnFile(blocks, 'one');
  const { createBlobPdfWriter, drawNextLessonPage, drawScan, PAGE_SIZES } = await pdfDrawing();
  const writers = {
    two: createBlobPdfWriter(blobStore, { title: 'Return file', signal: options.signal }),
    one: createBlobPdfWriter(blobStore, { title: 'Return file (one-sided)', signal: options.signal }),
  };
  const addPage = async (writer: typeof writers.two, page: ReturnPage, jpeg: Uint8Array | null) => {
    if (page.kind === 'next_lesson') await writer.addPage(PAGE_SIZES.a4, (pageContext) => drawNextLessonPage(pageContext, page.page, PAGE_SIZES.a4));
    else
      await writer.addPage(PAGE_SIZES.a4, async ({ page: pdfPage }) => {
        if (page.kind === 'scan' && jpeg !== null) await drawScan(pdfPage, jpeg);
      });
  };
  try {
    let twoIndex = 0;
    let index = 0;
    const keys = oneSided.map((page) => (page.kind === 'scan' ? page.blob_key : null));
    for await (const jpeg of readAhead(blobStore, keys)) {
      const page = oneSided[index++]!;
      while (twoSided[twoIndex]?.kind === 'blank') await addPage(writers.two, twoSided[twoIndex++]!, null);
      await addPage(writers.two, twoSided[twoIndex++]!, jpeg);
      await addPage(writers.one, page, jpeg);
      await options.afterPage();
    }
    while (twoIndex < twoSided.length) await addPage(writers.two, twoSided[twoIndex++]!, null);
    return { two: (await writers.two.finish()).blob, one: (await writers.one.finish()).blob, pageCount: twoSided.length };
  } catch (error) {
    await writers.two.abort();
    await writers.one.abort();
    throw error;
  }
}

/**
 * Records the return file on the file, only for the request it served (a newer regenerate
 * request waits for its own run). Returns whether it was stored, and the blobs no row uses any
 * more: the replaced ones, or the new ones when the request was not served.
 */
export async function storeReturnFile(
  db: Database,
  fileId: string,
  request: ReturnRequest,
  blobs: ReturnBlobs,
): Promise<{ stored: boolean; unusedBlobs: string[] }> {
  const stored = await storeReturnFileOfRequest(db, fileId, request.return_requested_at, {
    twoSidedKey: blobs.two.key,
    oneSidedKey: blobs.one.key,
    pageCount: blobs.pageCount,
  });
  if (!stored) return { stored: false, unusedBlobs: [blobs.two.key, blobs.one.key] };
  const replaced = [
    request.return_one_sided_blob_key === blobs.one.key ? null : request.return_one_sided_blob_key,
    request.return_blob_key === blobs.two.key ? null : request.return_blob_key,
  ];
  return { stored: true, unusedBlobs: replaced.filter((key): key is string => key !== null) };
}

/** Building keeps failing: the request is dropped. False when the file was made meanwhile. */
export async function cancelReturnFile(db: Database, fileId: string): Promise<boolean> {
  return cancelReturnRequest(db, fileId);
}

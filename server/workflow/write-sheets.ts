// The last step of processing an upload: cut its stored pages into answer sheets and write them,
// all in one transaction, so a crash never leaves half a split behind. What to write is decided
// by domain/write-sheets-plan.ts from what is read here; this module reads and saves.
import { randomUUID } from 'node:crypto';
import type { Database } from '../db/database';
import {
  planWriteSheets,
  serviceCenterOfSplit,
  studentLessonKey,
  studentLessonsOfSplit,
  studentsNamedBySplit,
  type PlannedFlagDetail,
  type WriteSheetsPlan,
} from '../domain/write-sheets-plan';
import type { Code, CodePrefix } from '../domain/codes';
import { splitIntoSheets, type AnswerSheetPageLength, type SplitResult } from '../domain/split';
import { deleteSheetsBeforeSplit, firstSheetsOfStudentLessons, insertSplitSheets } from '../repositories/answer-sheets';
import { lockPendingFileForSplit, markFileSplit } from '../repositories/files';
import { pagesOfFileForSplit, placeSplitPages, unplacePagesBeforeSplit, type SplitPageRow } from '../repositories/pages';
import { countryOfSplitServiceCenter } from '../repositories/service-centers';
import { congregationsOfSplitStudents, createSplitStudent, markSplitStudentsActive } from '../repositories/students';
import { paperSeenBefore } from './paper-seen';
import { identifyFilePages } from './printed-text-pages';
import { resolveCodes } from './resolve-codes';

export interface WriteSheetsResult {
  sheets: number;
  split: SplitResult;
}

const codeOf = (page: SplitPageRow<CodePrefix>): Code | null =>
  page.code_prefix !== null && page.code_id !== null ? { prefix: page.code_prefix, id: page.code_id } : null;

/**
 * Splits and writes in one transaction and marks the file processed. Returns null when the file
 * is no longer pending (deleted, already processed). The job calls it while it holds the file.
 */
export async function writeSheets(db: Database, fileId: string): Promise<WriteSheetsResult | null> {
  return db.transaction(async (tx) => {
    const file = await lockPendingFileForSplit(tx, fileId);
    if (file === null) return null;
    // Codeless pages whose printed text confirms one issued sheet page get its code first.
    await identifyFilePages(tx, fileId);
    const pages = await pagesOfFileForSplit<CodePrefix>(tx, fileId);
    const meanings = await resolveCodes(
      tx,
      pages.map(codeOf).filter((code): code is Code => code !== null),
    );
    const paper = await paperSeenBefore(tx, fileId);
    const split = splitIntoSheets(
      pages.map((page) => ({
        page_number: page.page_number,
        code: codeOf(page),
        reason: page.unrecognized_reason,
        blank: page.blank,
        copy_of: paper.copyOf.get(page.page_number) ?? null,
        seen_before: paper.seenBefore.get(page.page_number) ?? null,
      })),
      meanings.resolve,
      Number(file.answer_sheet_page_length) as AnswerSheetPageLength,
    );
    // Safety for a split run again on a file (only possible if an earlier run was rolled back half way).
    await unplacePagesBeforeSplit(tx, fileId);
    await deleteSheetsBeforeSplit(tx, fileId);

    const firstSheets = await firstSheetsOfStudentLessons(tx, studentLessonsOfSplit(split));
    const plan = planWriteSheets({
      fileId,
      pages: pages.map((page) => ({ id: page.id, page_number: page.page_number, code: codeOf(page) })),
      split,
      templateOfPage: templatesOfPages(pages, meanings.templateOf),
      copyOf: paper.copyOf,
      seenBefore: paper.seenBefore,
      congregationOf: await congregationsOfSplitStudents(tx, studentsNamedBySplit(split)),
      firstSheetOf: new Map(firstSheets.map((row) => [studentLessonKey(row.student_id, row.lesson_id), row.id])),
    });
    await saveWriteSheetsPlan(tx, fileId, plan, serviceCenterOfSplit(split, file.service_center_id));
    return { sheets: split.sheets.length, split };
  });
}

/** Page number → the template its code names. */
function templatesOfPages(pages: readonly SplitPageRow<CodePrefix>[], templateOf: (code: Code) => string | null): Map<number, string> {
  const templates = new Map<number, string>();
  for (const page of pages) {
    const code = codeOf(page);
    const template = code === null ? null : templateOf(code);
    if (template !== null) templates.set(page.page_number, template);
  }
  return templates;
}

/**
 * Applies a plan with the file's earlier sheets gone. The sheets are written with a few statements
 * for the whole file rather than several per sheet (193 sheets of the 500-page test scan took ~800
 * round trips); their ids are made here, so a sheet can point at an earlier one as its duplicate.
 */
export async function saveWriteSheetsPlan(tx: Database, fileId: string, plan: WriteSheetsPlan, serviceCenterId: string | null): Promise<void> {
  const newStudentIds: string[] = [];
  if (plan.newStudents > 0) {
    const country = serviceCenterId === null ? null : ((await countryOfSplitServiceCenter(tx, serviceCenterId))?.country_iso ?? null);
    // One at a time and in order: intro sheets get the next human ids as the file brings them.
    for (let n = 0; n < plan.newStudents; n++) newStudentIds.push(await createSplitStudent(tx, serviceCenterId, country));
  }
  const sheetIds = plan.sheets.map(() => randomUUID());
  await insertSplitSheets(
    tx,
    fileId,
    plan.sheets.map((sheet, index) => ({
      id: sheetIds[index]!,
      student_id: sheet.student === null ? null : 'existing' in sheet.student ? sheet.student.existing : newStudentIds[sheet.student.new]!,
      lesson_id: sheet.lesson_id,
      assigned_group: sheet.assigned_group,
      duplicate_of: sheet.duplicate_of === null ? null : 'existing' in sheet.duplicate_of ? sheet.duplicate_of.existing : sheetIds[sheet.duplicate_of.sheet]!,
    })),
  );
  await markSplitStudentsActive(tx, plan.activeStudents);
  const storedDetail = (detail: PlannedFlagDetail | null) =>
    detail === null
      ? null
      : JSON.stringify(detail.candidate_sheets ? { ...detail, candidate_sheets: detail.candidate_sheets.map((index) => sheetIds[index]!) } : detail);
  await placeSplitPages(
    tx,
    fileId,
    plan.pages.map((page) => ({ ...page, sheet_id: page.sheet === null ? null : sheetIds[page.sheet]!, detail: storedDetail(page.detail) })),
  );
  await markFileSplit(tx, fileId, plan.cover.page_id, plan.cover.service_center_id);
}

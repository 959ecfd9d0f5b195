// A study helper's intro file: answer sheets of the helper's own recruits. Like a service
// center's intro upload (page length 1 or 2), every group of that many pages is one new
// student's sheet; here each new student belongs to the uploading congregation and the chosen
// helper. The group length is the page count of the lesson the codes name (1 or 2); a longer
// lesson is split by its codes instead. The sheets are written to a file of their own (the
// upload's bytes), already assigned to the congregation, so they follow the usual workflow.
import { randomUUID } from 'node:crypto';
import type { Database } from '../db/database';
import type { Code } from '../domain/codes';
import { isPhotoReason, type PhotoReason } from '../domain/page-reasons';
import { splitIntoSheets, type AnswerSheetPageLength, type SplitResult, type SplitSheetPage } from '../domain/split';
import { insertIntroAnswerSheet } from '../repositories/answer-sheets';
import { insertIntroFile } from '../repositories/files';
import { lockPendingUpload, linkUploadToFile } from '../repositories/graded-uploads';
import { templatePageCountOfLesson } from '../repositories/page-templates';
import { flagUnplacedPhotoPage, ignoreUnplacedPage, insertIntroPages, placeIntroPage } from '../repositories/pages';
import { insertRecruitedStudent } from '../repositories/students';
import { markStudyHelperActiveAfterIntro } from '../repositories/study-helpers';
import { copyUploadPhotosToFile } from '../repositories/upload-photos';
import { comparePaper, type EarlierPaper, type PaperSeen } from './paper-seen';
import { resolveCodes, type CodeMeanings } from './resolve-codes';
import { codeOf, finishUpload, stagedPages, writeOutcomes, type StagedPage, type UploadRow } from './upload-staging';

/** A page's line in the upload's report. */
interface IntroOutcome {
  page_number: number;
  outcome: string;
  page_id: string | null;
  detail: string | null;
}

/** The upload's pages split into new students' sheets, with what the split needed to know. */
interface IntroSplit {
  staged: StagedPage[];
  meanings: CodeMeanings;
  pageLength: AnswerSheetPageLength;
  paper: PaperSeen;
  split: SplitResult;
}

/** The file made of the upload, its pages' ids by number. */
interface IntroFile {
  id: string;
  pageIdOf: ReadonlyMap<number, string>;
}

export async function writeIntroSheets(db: Database, upload: UploadRow): Promise<number | null> {
  return db.transaction(async (tx) => {
    if (!(await lockPendingUpload(tx, upload.id))) return null;
    const intro = await splitIntroPages(tx, upload);
    const file = await storeIntroFile(tx, upload, intro);
    const outcomes = [...(await writeNewSheets(tx, upload, intro, file)), ...(await setAsidePages(tx, intro.split, file))];
    await writeOutcomes(tx, upload.id, outcomes);
    await linkUploadToFile(tx, upload.id, file.id);
    if (upload.study_helper_id !== null) await markStudyHelperActiveAfterIntro(tx, upload.study_helper_id);
    await finishUpload(tx, upload.id, intro.staged.length);
    return intro.staged.length;
  });
}

/** Splits the staged pages into sheets, by the lesson's page count and the paper seen before. */
async function splitIntroPages(tx: Database, upload: UploadRow): Promise<IntroSplit> {
  const staged = await stagedPages(tx, upload.id);
  const codes = staged.map(codeOf).filter((code): code is Code => code !== null);
  const meanings = await resolveCodes(tx, codes);
  const pageLength = await groupLength(tx, codes.map((code) => meanings.resolve(code)).flatMap((m) => (m?.kind === 'sheet_page' ? [m.lesson_id] : [])));
  const paper = await comparePaper(tx, staged, null);
  const split = splitIntoSheets(
    staged.map((page) => ({
      page_number: page.page_number,
      code: codeOf(page),
      reason: page.reason,
      blank: page.blank,
      copy_of: paper.copyOf.get(page.page_number) ?? null,
      seen_before: paper.seenBefore.get(page.page_number) ?? null,
    })),
    meanings.resolve,
    pageLength,
    { firstPageCover: false },
  );
  return { staged, meanings, pageLength, paper, split };
}

/** The file of the upload's bytes, with its pages and photos. */
async function storeIntroFile(tx: Database, upload: UploadRow, intro: IntroSplit): Promise<IntroFile> {
  const { staged } = intro;
  const fileId = await insertIntroFile(tx, {
    name: upload.name,
    sha256: upload.sha256,
    blob_key: upload.blob_key,
    size_bytes: upload.size_bytes ?? 0,
    page_count: staged.length,
    answer_sheet_page_length: intro.pageLength,
    uploaded_by: upload.uploaded_by,
  });
  const pageIds = await insertIntroPages(
    tx,
    fileId,
    upload.id,
    staged.map((p) => ({
      page_number: p.page_number,
      blank: p.blank,
      code_prefix: p.code_prefix,
      code_id: p.code_id,
      reason: p.code_prefix === null ? p.reason : null,
      image_blob_key: p.image_blob_key,
      read_error: p.read_error,
    })),
  );
  // Photos of pages are the file's pages too (its download is made of them).
  await copyUploadPhotosToFile(tx, upload.id, fileId);
  return { id: fileId, pageIdOf: new Map(pageIds.map((row) => [row.page_number, row.id])) };
}

/** Each sheet of the split, with a new student where it makes one, and its pages placed on it. */
async function writeNewSheets(tx: Database, upload: UploadRow, intro: IntroSplit, file: IntroFile): Promise<IntroOutcome[]> {
  const { staged, meanings, paper, split } = intro;
  const outcomes: IntroOutcome[] = [];
  // Ids first: a page's flag can name other sheets of the file (the ones it could belong to).
  const sheetIds = split.sheets.map(() => randomUUID());
  for (const [sequence, sheet] of split.sheets.entries()) {
    const studentId = sheet.new_student ? await insertRecruitedStudent(tx, upload.congregation_id, upload.study_helper_id) : sheet.student_id;
    const sheetId = await insertIntroAnswerSheet(tx, {
      id: sheetIds[sequence]!,
      file_id: file.id,
      sequence,
      student_id: studentId,
      lesson_id: sheet.lesson_id,
      assigned_group: upload.congregation_id,
    });
    for (const page of sheet.pages) {
      const stagedPage = staged.find((p) => p.page_number === page.page_number);
      const code = stagedPage ? codeOf(stagedPage) : null;
      const detail = flagDetail(page, sheetIds, file.pageIdOf, paper.copyOf.get(page.page_number), paper.seenBefore.get(page.page_number), file.id);
      await placeIntroPage(tx, file.id, page.page_number, {
        answer_sheet_id: sheetId,
        template_id: code && !page.unrecognized ? meanings.templateOf(code) : null,
        ignored: page.ignored,
        unrecognized_reason: page.unrecognized ? page.reason : null,
        flag: page.flag,
        flag_detail: detail === null ? null : JSON.stringify(detail),
      });
      outcomes.push(sheetPageOutcome(page, sequence, file.pageIdOf.get(page.page_number) ?? null));
    }
  }
  return outcomes;
}

function sheetPageOutcome(page: SplitSheetPage, sequence: number, pageId: string | null): IntroOutcome {
  return page.ignored
    ? { page_number: page.page_number, outcome: 'blank', page_id: pageId, detail: `Blank back in answer sheet ${sequence + 1}` }
    : { page_number: page.page_number, outcome: 'intro', page_id: pageId, detail: `Answer sheet ${sequence + 1}${flagWords(page)}` };
}

/** Pages on no sheet: photos stay in view with their reason, the rest are ignored. */
async function setAsidePages(tx: Database, split: SplitResult, file: IntroFile): Promise<IntroOutcome[]> {
  const outcomes: IntroOutcome[] = [];
  for (const page of split.ignored_pages) {
    const pageId = file.pageIdOf.get(page.page_number) ?? null;
    if (isPhotoReason(page.reason)) {
      // Kept in view with its reason, on no sheet and no student.
      await flagUnplacedPhotoPage(tx, file.id, page.page_number, page.reason);
      outcomes.push({ page_number: page.page_number, outcome: page.reason, page_id: pageId, detail: `${PHOTO_WORDS[page.reason]}: the photo is kept, on no answer sheet` });
      continue;
    }
    await ignoreUnplacedPage(tx, file.id, page.page_number);
    outcomes.push({ page_number: page.page_number, outcome: 'blank', page_id: pageId, detail: null });
  }
  return outcomes;
}

/** 1 or 2 when the lesson most pages name has that many pages; otherwise split by codes (0). */
async function groupLength(db: Database, lessonIds: string[]): Promise<AnswerSheetPageLength> {
  if (lessonIds.length === 0) return 1;
  const counts = new Map<string, number>();
  for (const id of lessonIds) counts.set(id, (counts.get(id) ?? 0) + 1);
  const [lessonId] = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]!;
  const pages = await templatePageCountOfLesson(db, lessonId);
  return pages === 1 || pages === 2 ? pages : 0;
}

/** pages.flag_detail (migration 017) of an intro page. */
function flagDetail(
  page: SplitSheetPage,
  sheetIds: readonly string[],
  pageIdOf: ReadonlyMap<number, string>,
  copyOf: number | undefined,
  seen: EarlierPaper | undefined,
  fileId: string,
): Record<string, unknown> | null {
  const detail: Record<string, unknown> = {
    ...(page.detail?.candidates ? { candidate_sheets: page.detail.candidates.map((i) => sheetIds[i]) } : {}),
    ...(page.detail?.missing_pages ? { missing_pages: page.detail.missing_pages } : {}),
    ...(seen ? { copy_page_id: seen.page_id, copy_file_id: seen.file_id } : {}),
    ...(copyOf !== undefined ? { copy_page_id: pageIdOf.get(copyOf), copy_file_id: fileId } : {}),
  };
  return Object.keys(detail).length === 0 ? null : detail;
}

/** A photo's reason in the report's words. */
const PHOTO_WORDS: Record<PhotoReason, string> = {
  no_sheet: 'No sheet found in the photo',
  too_blurred: 'Too blurred',
};

/** What the upload report adds for a flagged page: what a person will find in Review. */
function flagWords(page: SplitSheetPage): string {
  switch (page.flag) {
    case 'scanned_twice':
      return `: scanned twice (the same paper as page ${page.detail?.copy_of}); it made no student`;
    case 'already_uploaded':
      return ': already uploaded before; it made no new student';
    case 'ambiguous_position':
      return ': could belong to more than one sheet; waits in Review';
    case 'page_missing':
      return `: page ${page.detail?.missing_pages?.join(', ')} missing`;
    case 'too_complex':
      return ': too large or too complex to read; check the scan and upload it again, or ignore the page in Review';
    case 'no_sheet':
    case 'too_blurred':
      return `: ${PHOTO_WORDS[page.flag]}`;
    case null:
      return '';
    default:
      return `: waits in Review (${page.flag.replaceAll('_', ' ')})`;
  }
}

// The last step of processing an upload: cut its stored pages into answer sheets and write them,
// all in one transaction, so a crash never leaves half a split behind. Intro sheets create their
// students; sheets of known students go to the student's congregation; a sheet of a student and
// lesson already received is flagged as a duplicate of the first one; the cover page sets the
// file's service center and cover image.
import { isPhotoReason } from '../domain/page-reasons';
import { randomUUID } from 'node:crypto';
import type { Database } from '../db/database';
import type { Code, CodePrefix } from '../domain/codes';
import type { PageReason } from '../domain/page-reasons';
import { splitIntoSheets, type AnswerSheetPageLength, type SplitResult } from '../domain/split';
import { paperSeenBefore } from './paper-seen';
import { identifyFilePages } from './printed-text-pages';
import { resolveCodes } from './resolve-codes';

/** pages.flag_detail as stored (see migration 017). */
interface FlagDetail {
  candidate_sheets?: string[];
  missing_pages?: number[];
}

interface StoredPage {
  id: string;
  page_number: number;
  code_prefix: CodePrefix | null;
  code_id: string | null;
  unrecognized_reason: PageReason | null;
  blank: boolean;
}

export interface WriteSheetsResult {
  sheets: number;
  split: SplitResult;
}

/**
 * Splits and writes in one transaction and marks the file processed. Returns null when the file
 * is no longer pending (deleted, already processed). The job calls it while it holds the file.
 */
export async function writeSheets(db: Database, fileId: string): Promise<WriteSheetsResult | null> {
  return db.transaction(async (tx) => {
    const file = await tx.maybeOne<{ answer_sheet_page_length: AnswerSheetPageLength; service_center_id: string | null; page_count: number | null }>(
      `SELECT answer_sheet_page_length, service_center_id, page_count FROM files
       WHERE id = $1 AND process_status = 'pending' FOR UPDATE`,
      [fileId],
    );
    if (file === null) return null;
    // Codeless pages whose printed text confirms one issued sheet page get its code first.
    await identifyFilePages(tx, fileId);

    const pages = await tx.query<StoredPage>(
      `SELECT id, page_number, code_prefix, code_id, unrecognized_reason, blank FROM pages WHERE file_id = $1 ORDER BY page_number`,
      [fileId],
    );
    const codeOf = (page: StoredPage): Code | null =>
      page.code_prefix !== null && page.code_id !== null ? { prefix: page.code_prefix, id: page.code_id } : null;
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
    const byNumber = new Map(pages.map((page) => [page.page_number, page]));

    // Safety for a split run again on a file (only possible if an earlier run was rolled back half way).
    await tx.query('UPDATE pages SET answer_sheet_id = NULL WHERE file_id = $1', [fileId]);
    await tx.query('DELETE FROM answer_sheets WHERE file_id = $1', [fileId]);

    const serviceCenterId = split.cover?.service_center_id ?? file.service_center_id;
    const serviceCenter =
      serviceCenterId === null
        ? null
        : await tx.maybeOne<{ country_iso: string | null }>('SELECT country_iso FROM service_centers WHERE id = $1', [serviceCenterId]);

    const pageNumbers: number[] = [];
    const sheetIds: (string | null)[] = [];
    const templateIds: (string | null)[] = [];
    const ignored: boolean[] = [];
    const reasons: (string | null)[] = [];
    const flags: (string | null)[] = [];
    const details: (string | null)[] = [];
    const setPage = (
      pageNumber: number,
      sheetId: string | null,
      templateId: string | null,
      isIgnored: boolean,
      reason: string | null,
      flag: string | null,
      detail: FlagDetail | null = null,
    ) => {
      pageNumbers.push(pageNumber);
      sheetIds.push(sheetId);
      templateIds.push(templateId);
      ignored.push(isIgnored);
      reasons.push(reason);
      flags.push(flag);
      // Where the paper was seen before stays with the page, whatever Review does with its flag.
      const seen = paper.seenBefore.get(pageNumber);
      const copy = paper.copyOf.get(pageNumber);
      const copyPage = seen ?? (copy === undefined ? undefined : { page_id: byNumber.get(copy)!.id, file_id: fileId });
      const full = { ...detail, ...(copyPage ? { copy_page_id: copyPage.page_id, copy_file_id: copyPage.file_id } : {}) };
      details.push(Object.keys(full).length === 0 ? null : JSON.stringify(full));
    };

    // The sheets are written with a few statements for the whole file rather than several per
    // sheet (193 sheets of the 500-page test scan took ~800 round trips). Their ids are made
    // here, so a sheet can point at an earlier one of the same file as its duplicate.
    const newSheetIds = split.sheets.map(() => randomUUID());
    const studentIds: (string | null)[] = [];
    for (const sheet of split.sheets) {
      if (!sheet.new_student) {
        studentIds.push(sheet.student_id);
        continue;
      }
      // One at a time and in order: intro sheets get the next human ids as the file brings them.
      const created = await tx.one<{ id: string }>(
        `INSERT INTO students (service_center_id, country_iso, last_active_at) VALUES ($1, $2, now()) RETURNING id`,
        [serviceCenterId, serviceCenter?.country_iso ?? null],
      );
      studentIds.push(created.id);
    }
    const known = [...new Set(split.sheets.flatMap((sheet, index) => (sheet.new_student || studentIds[index] === null ? [] : [studentIds[index]!])))];
    const congregationOf = new Map(
      (await tx.query<{ id: string; congregation_id: string | null }>('SELECT id, congregation_id FROM students WHERE id = ANY($1::uuid[])', [known])).map(
        (row) => [row.id, row.congregation_id],
      ),
    );
    // A code can name a student who no longer exists: the sheet then has none.
    split.sheets.forEach((sheet, index) => {
      if (!sheet.new_student && studentIds[index] !== null && !congregationOf.has(studentIds[index]!)) studentIds[index] = null;
    });
    // The first sheet received of each student and lesson: earlier files' first, then this one's.
    const pairKey = (studentId: string, lessonId: string) => `${studentId}/${lessonId}`;
    const pairs = split.sheets.flatMap((sheet, index) =>
      studentIds[index] !== null && sheet.lesson_id !== null ? [{ student: studentIds[index]!, lesson: sheet.lesson_id }] : [],
    );
    const firstSheet = new Map(
      (
        await tx.query<{ student_id: string; lesson_id: string; id: string }>(
          `SELECT DISTINCT ON (a.student_id, a.lesson_id) a.student_id, a.lesson_id, a.id
           FROM answer_sheets a JOIN unnest($1::uuid[], $2::uuid[]) AS pair (student_id, lesson_id)
             ON a.student_id = pair.student_id AND a.lesson_id = pair.lesson_id
           ORDER BY a.student_id, a.lesson_id, a.created_at, a.sequence`,
          [pairs.map((pair) => pair.student), pairs.map((pair) => pair.lesson)],
        )
      ).map((row) => [pairKey(row.student_id, row.lesson_id), row.id]),
    );
    const duplicateOf = split.sheets.map((sheet, index) => {
      const studentId = studentIds[index] ?? null;
      if (studentId === null || sheet.lesson_id === null) return null;
      const key = pairKey(studentId, sheet.lesson_id);
      const first = firstSheet.get(key);
      if (first !== undefined) return first;
      firstSheet.set(key, newSheetIds[index]!);
      return null;
    });
    await tx.query(
      `INSERT INTO answer_sheets (id, file_id, sequence, student_id, lesson_id, assigned_group, duplicate_of)
       SELECT sheet.id, $1, sheet.sequence - 1, sheet.student_id, sheet.lesson_id, sheet.assigned_group, sheet.duplicate_of
       FROM unnest($2::uuid[], $3::uuid[], $4::uuid[], $5::uuid[], $6::uuid[]) WITH ORDINALITY
         AS sheet (id, student_id, lesson_id, assigned_group, duplicate_of, sequence)`,
      [
        fileId,
        newSheetIds,
        studentIds,
        split.sheets.map((sheet) => sheet.lesson_id),
        studentIds.map((studentId) => (studentId === null ? null : (congregationOf.get(studentId) ?? null))),
        duplicateOf,
      ],
    );
    await tx.query('UPDATE students SET last_active_at = now() WHERE id = ANY($1::uuid[])', [known]);
    split.sheets.forEach((sheet, index) => {
      for (const page of sheet.pages) {
        const stored = byNumber.get(page.page_number);
        const code = stored ? codeOf(stored) : null;
        const templateId = code && !page.unrecognized ? meanings.templateOf(code) : null;
        const detail: FlagDetail = {
          ...(page.detail?.candidates ? { candidate_sheets: page.detail.candidates.map((i) => newSheetIds[i]!) } : {}),
          ...(page.detail?.missing_pages ? { missing_pages: page.detail.missing_pages } : {}),
        };
        setPage(page.page_number, newSheetIds[index]!, templateId, page.ignored, page.unrecognized ? page.reason : null, page.flag, detail);
      }
    });
    for (const page of split.ignored_pages) {
      // An unread photo stays in view with its reason (on no sheet); other pages set aside are ignored.
      if (isPhotoReason(page.reason)) setPage(page.page_number, null, null, false, page.reason, page.reason);
      else setPage(page.page_number, null, null, true, null, null);
    }
    if (split.cover) setPage(split.cover.page_number, null, null, false, null, null);

    await tx.query(
      `UPDATE pages p SET answer_sheet_id = v.sheet_id, template_id = v.template_id, ignored = v.ignored,
              unrecognized_reason = v.reason, flag = v.flag, flag_detail = v.detail::jsonb
       FROM unnest($2::int[], $3::uuid[], $4::uuid[], $5::boolean[], $6::text[], $7::text[], $8::text[])
         AS v(page_number, sheet_id, template_id, ignored, reason, flag, detail)
       WHERE p.file_id = $1 AND p.page_number = v.page_number`,
      [fileId, pageNumbers, sheetIds, templateIds, ignored, reasons, flags, details],
    );

    const coverPageId = split.cover ? (byNumber.get(split.cover.page_number)?.id ?? null) : null;
    await tx.query(
      `UPDATE files SET process_status = 'success', failure_reason = NULL,
              cover_page_id = $2, service_center_id = COALESCE(service_center_id, $3)
       WHERE id = $1`,
      [fileId, coverPageId, split.cover?.service_center_id ?? null],
    );
    return { sheets: split.sheets.length, split };
  });
}

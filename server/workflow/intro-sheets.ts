// A study helper's intro file: answer sheets of the helper's own recruits. Like a service
// center's intro upload (page length 1 or 2), every group of that many pages is one new
// student's sheet; here each new student belongs to the uploading congregation and the chosen
// helper. The group length is the page count of the lesson the codes name (1 or 2); a longer
// lesson is split by its codes instead. The sheets are written to a file of their own (the
// upload's bytes), already assigned to the congregation, so they follow the usual workflow.
import type { Database } from '../db/database';
import type { Code } from '../domain/codes';
import { isPhotoReason, type PhotoReason } from '../domain/page-reasons';
import { randomUUID } from 'node:crypto';
import { splitIntoSheets, type AnswerSheetPageLength, type SplitSheetPage } from '../domain/split';
import { comparePaper, type EarlierPaper } from './paper-seen';
import { resolveCodes } from './resolve-codes';
import { codeOf, finishUpload, stagedPages, writeOutcomes, type UploadRow } from './upload-staging';

export async function writeIntroSheets(db: Database, upload: UploadRow): Promise<number | null> {
  return db.transaction(async (tx) => {
    const locked = await tx.maybeOne(`SELECT 1 FROM graded_uploads WHERE id = $1 AND process_status = 'pending' FOR UPDATE`, [upload.id]);
    if (locked === null) return null;
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
    const file = await tx.one<{ id: string }>(
      `INSERT INTO files (name, sha256, blob_key, size_bytes, page_count, answer_sheet_page_length, process_status, uploaded_by)
       VALUES ($1, $2, $3, $4, $5, $6, 'success', $7) RETURNING id`,
      [upload.name, upload.sha256, upload.blob_key, upload.size_bytes ?? 0, staged.length, pageLength, upload.uploaded_by],
    );
    const pageIds = await tx.query<{ id: string; page_number: number }>(
      `INSERT INTO pages (file_id, page_number, blank, ignored, code_prefix, code_id, unrecognized_reason, image_blob_key, read_error,
                          fingerprint_hash, fingerprint, photo_blob_key)
       SELECT $1, v.page_number, v.blank, v.blank, v.code_prefix, v.code_id, v.reason, v.image_blob_key, v.read_error,
              s.fingerprint_hash, s.fingerprint, s.photo_blob_key
       FROM unnest($2::int[], $3::boolean[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[])
            AS v(page_number, blank, code_prefix, code_id, reason, image_blob_key, read_error)
       JOIN graded_upload_pages s ON s.upload_id = $9 AND s.page_number = v.page_number
       RETURNING id, page_number`,
      [
        file.id,
        staged.map((p) => p.page_number),
        staged.map((p) => p.blank),
        staged.map((p) => p.code_prefix),
        staged.map((p) => p.code_id),
        staged.map((p) => (p.code_prefix === null ? p.reason : null)),
        staged.map((p) => p.image_blob_key),
        staged.map((p) => p.read_error),
        upload.id,
      ],
    );
    const pageIdOf = new Map(pageIds.map((row) => [row.page_number, row.id]));
    // Photos of pages are the file's pages too (its download is made of them).
    await tx.query(
      `INSERT INTO upload_photos (file_id, position, blob_key, media_type)
       SELECT $1, position, blob_key, media_type FROM upload_photos WHERE upload_id = $2`,
      [file.id, upload.id],
    );
    const outcomes: { page_number: number; outcome: string; page_id: string | null; detail: string | null }[] = [];

    // Ids first: a page's flag can name other sheets of the file (the ones it could belong to).
    const sheetIds = split.sheets.map(() => randomUUID());
    for (const [sequence, sheet] of split.sheets.entries()) {
      let studentId = sheet.student_id;
      if (sheet.new_student) {
        const student = await tx.one<{ id: string; human_id: number }>(
          `INSERT INTO students (congregation_id, study_helper_id, last_active_at) VALUES ($1, $2, now()) RETURNING id, human_id`,
          [upload.congregation_id, upload.study_helper_id],
        );
        studentId = student.id;
      }
      const inserted = await tx.one<{ id: string }>(
        `INSERT INTO answer_sheets (id, file_id, sequence, student_id, lesson_id, assigned_group) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
        [sheetIds[sequence], file.id, sequence, studentId, sheet.lesson_id, upload.congregation_id],
      );
      for (const page of sheet.pages) {
        const stagedPage = staged.find((p) => p.page_number === page.page_number);
        const code = stagedPage ? codeOf(stagedPage) : null;
        const detail = flagDetail(page, sheetIds, pageIdOf, paper.copyOf.get(page.page_number), paper.seenBefore.get(page.page_number), file.id);
        await tx.query(
          `UPDATE pages SET answer_sheet_id = $3, template_id = $4, ignored = $5, unrecognized_reason = $6, flag = $7, flag_detail = $8::jsonb
           WHERE file_id = $1 AND page_number = $2`,
          [
            file.id,
            page.page_number,
            inserted.id,
            code && !page.unrecognized ? meanings.templateOf(code) : null,
            page.ignored,
            page.unrecognized ? page.reason : null,
            page.flag,
            detail === null ? null : JSON.stringify(detail),
          ],
        );
        outcomes.push(
          page.ignored
            ? { page_number: page.page_number, outcome: 'blank', page_id: pageIdOf.get(page.page_number) ?? null, detail: `Blank back in answer sheet ${sequence + 1}` }
            : {
                page_number: page.page_number,
                outcome: 'intro',
                page_id: pageIdOf.get(page.page_number) ?? null,
                detail: `Answer sheet ${sequence + 1}${flagWords(page)}`,
              },
        );
      }
    }
    for (const page of split.ignored_pages) {
      const pageId = pageIdOf.get(page.page_number) ?? null;
      if (isPhotoReason(page.reason)) {
        // Kept in view with its reason, on no sheet and no student.
        await tx.query('UPDATE pages SET unrecognized_reason = $3, flag = $3 WHERE file_id = $1 AND page_number = $2', [file.id, page.page_number, page.reason]);
        outcomes.push({ page_number: page.page_number, outcome: page.reason, page_id: pageId, detail: `${PHOTO_WORDS[page.reason]}: the photo is kept, on no answer sheet` });
        continue;
      }
      await tx.query('UPDATE pages SET ignored = true WHERE file_id = $1 AND page_number = $2', [file.id, page.page_number]);
      outcomes.push({ page_number: page.page_number, outcome: 'blank', page_id: pageId, detail: null });
    }
    await writeOutcomes(tx, upload.id, outcomes);
    await tx.query('UPDATE graded_uploads SET file_id = $2 WHERE id = $1', [upload.id, file.id]);
    if (upload.study_helper_id !== null) await tx.query('UPDATE study_helpers SET last_active_at = now() WHERE id = $1', [upload.study_helper_id]);
    await finishUpload(tx, upload.id, staged.length);
    return staged.length;
  });
}

/** 1 or 2 when the lesson most pages name has that many pages; otherwise split by codes (0). */
async function groupLength(db: Database, lessonIds: string[]): Promise<AnswerSheetPageLength> {
  if (lessonIds.length === 0) return 1;
  const counts = new Map<string, number>();
  for (const id of lessonIds) counts.set(id, (counts.get(id) ?? 0) + 1);
  const [lessonId] = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]!;
  const { pages } = await db.one<{ pages: number }>('SELECT count(*)::int AS pages FROM page_templates WHERE lesson_id = $1', [lessonId]);
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

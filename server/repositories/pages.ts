// Pages: the scanned pages as the Page screens read them (with template, sheet, mends and
// feedback), who may see one, and the images kept of a page (its thumbnails, its photo).
import type { Schemas } from '../contract/types';
import type { Database } from '../db/database';
import { sentToSql } from './files';

/** pages.flag: a Review reason a page carries itself (a duplicate sheet and a blank back are derived). */
export type PageFlagColumn = Exclude<Schemas['ReviewReason'], 'duplicate_sheet' | 'blank_back'>;

/** pages.printed_suggestion as stored: what the page's printed text names, its codes by prefix and id. */
export interface StoredPrintedSuggestion {
  student_human_id: number | null;
  lesson_number: number | null;
  page_number: number | null;
  codes: { prefix: string; id: string }[];
}

/** Select list over `pages p`; callers append WHERE/ORDER BY. */
export const PAGE_SELECT = `
  SELECT p.id, p.file_id, p.page_number, p.ignored, p.blank, p.unrecognized_reason, p.flag, a.duplicate_of,
         p.photo_blob_key IS NOT NULL AS has_photo,
         p.identified_by, p.printed_suggestion,
         p.flag_detail -> 'missing_pages' AS missing_pages,
         (SELECT json_agg(json_build_object('id', cs.id, 'number', cs.sequence + 1, 'student_id', cs.student_id,
                                            'human_id', cst.human_id) ORDER BY cs.sequence)
          FROM answer_sheets cs LEFT JOIN students cst ON cst.id = cs.student_id
          WHERE p.flag = 'ambiguous_position' AND cs.file_id = p.file_id
            AND cs.id::text IN (SELECT jsonb_array_elements_text(p.flag_detail -> 'candidate_sheets'))) AS candidate_sheets,
         (SELECT json_build_object('page_id', cp.id, 'page_number', cp.page_number, 'file_id', cf.id, 'file_name', cf.name,
                                   'student_taken', p.flag = 'already_uploaded' AND pf.answer_sheet_page_length > 0)
          FROM pages cp JOIN files cf ON cf.id = cp.file_id JOIN files pf ON pf.id = p.file_id
          WHERE p.flag IN ('scanned_twice', 'already_uploaded') AND cp.id = (p.flag_detail ->> 'copy_page_id')::uuid) AS copy_of,
         (SELECT json_build_object('action', m.action, 'by', m.user_email, 'at', m.created_at)
          FROM review_mends m WHERE m.page_id = p.id ORDER BY m.created_at DESC, m.id LIMIT 1) AS mended,
         (SELECT count(*) FROM review_mends m WHERE m.page_id = p.id AND m.action = 'turned') AS turns,
         p.template_id, pt.name AS template_name, pt.page_number AS template_page_number, pt.code_id AS template_code,
         pt.lesson_id AS template_lesson_id, tl.name AS template_lesson_name, tl.number AS template_lesson_number,
         tl.course_id AS template_course_id,
         p.answer_sheet_id, a.assigned_group, g.wbs_code AS group_wbs_code, g.display_name AS group_display_name,
         a.student_id, st.human_id AS student_human_id, st.attributes ->> 'name' AS student_name,
         a.lesson_id AS sheet_lesson_id, sl.name AS sheet_lesson_name, sl.number AS sheet_lesson_number,
         sl.course_id AS sheet_course_id,
         (SELECT coalesce(json_agg(json_build_object('id', fb.id, 'has_back', fb.back_blob_key IS NOT NULL,
                                                     'created_at', fb.created_at) ORDER BY fb.created_at), '[]'::json)
          FROM feedback fb WHERE fb.page_id = p.id) AS feedback
  FROM pages p
  LEFT JOIN page_templates pt ON pt.id = p.template_id
  LEFT JOIN lessons tl ON tl.id = pt.lesson_id
  LEFT JOIN answer_sheets a ON a.id = p.answer_sheet_id
  LEFT JOIN congregations g ON g.id = a.assigned_group
  LEFT JOIN students st ON st.id = a.student_id
  LEFT JOIN lessons sl ON sl.id = a.lesson_id`;

export interface PageRow {
  id: string;
  file_id: string;
  page_number: number;
  ignored: boolean;
  blank: boolean;
  unrecognized_reason: Schemas['UnrecognizedReason'] | null;
  flag: PageFlagColumn | null;
  duplicate_of: string | null;
  identified_by: Schemas['IdentifiedBy'] | null;
  printed_suggestion: StoredPrintedSuggestion | null;
  missing_pages: number[] | null;
  candidate_sheets: { id: string; number: number; student_id: string | null; human_id: number | null }[] | null;
  copy_of: Schemas['ReviewDetail']['copy_of'] | null;
  mended: { action: Schemas['ReviewMendAction']; by: string; at: string } | null;
  turns: number;
  has_photo: boolean;
  template_id: string | null;
  template_name: string | null;
  template_page_number: number | null;
  template_code: string | null;
  template_lesson_id: string | null;
  template_lesson_name: string | null;
  template_lesson_number: number | null;
  template_course_id: string | null;
  answer_sheet_id: string | null;
  assigned_group: string | null;
  group_wbs_code: string | null;
  group_display_name: string | null;
  student_id: string | null;
  student_human_id: number | null;
  student_name: string | null;
  sheet_lesson_id: string | null;
  sheet_lesson_name: string | null;
  sheet_lesson_number: number | null;
  sheet_course_id: string | null;
  feedback: { id: string; has_back: boolean; created_at: string }[];
}

/** Whether a caller limited to `scope` (null: an admin) may see the page; null when no such page. */
export async function pageVisibleInScope(db: Database, pageId: string, scope: string | null): Promise<boolean | null> {
  const row = await db.maybeOne<{ visible: boolean }>(
    `SELECT ($2::uuid IS NULL OR (a.assigned_group = $2::uuid AND ${sentToSql('p.file_id', '$2')})) AS visible
     FROM pages p LEFT JOIN answer_sheets a ON a.id = p.answer_sheet_id WHERE p.id = $1`,
    [pageId, scope],
  );
  return row === null ? null : row.visible === true;
}

export async function pageForView(db: Database, pageId: string): Promise<PageRow | null> {
  return db.maybeOne<PageRow>(`${PAGE_SELECT} WHERE p.id = $1`, [pageId]);
}

/** The sheet's pages in page order. */
export async function pagesOfSheetForView(db: Database, sheetId: string): Promise<PageRow[]> {
  return db.query<PageRow>(`${PAGE_SELECT} WHERE p.answer_sheet_id = $1 ORDER BY p.page_number`, [sheetId]);
}

const THUMBNAIL_OF_PAGE = {
  500: 'SELECT image_blob_key, thumbnail_500_blob_key AS thumbnail FROM pages WHERE id = $1',
  1000: 'SELECT image_blob_key, thumbnail_1000_blob_key AS thumbnail FROM pages WHERE id = $1',
} as const;

/** The widths a page's thumbnails are kept at, each in its own column. */
export type ThumbnailColumnWidth = keyof typeof THUMBNAIL_OF_PAGE;

const SAVE_THUMBNAIL: Record<ThumbnailColumnWidth, string> = {
  500: 'UPDATE pages SET thumbnail_500_blob_key = $2 WHERE id = $1',
  1000: 'UPDATE pages SET thumbnail_1000_blob_key = $2 WHERE id = $1',
};

/** The page's image and its thumbnail of this width (null: not made yet), or null when no such page. */
export async function pageImageAndThumbnail(
  db: Database,
  pageId: string,
  width: ThumbnailColumnWidth,
): Promise<{ image_blob_key: string | null; thumbnail: string | null } | null> {
  return db.maybeOne<{ image_blob_key: string | null; thumbnail: string | null }>(THUMBNAIL_OF_PAGE[width], [pageId]);
}

export async function savePageThumbnail(db: Database, pageId: string, width: ThumbnailColumnWidth, blobKey: string): Promise<void> {
  await db.query(SAVE_THUMBNAIL[width], [pageId, blobKey]);
}

/** The image of the file's page with this number, or null. */
export async function imageKeyOfFilePage(db: Database, fileId: string, pageNumber: number): Promise<string | null> {
  const row = await db.maybeOne<{ image_blob_key: string | null }>('SELECT image_blob_key FROM pages WHERE file_id = $1 AND page_number = $2', [fileId, pageNumber]);
  return row?.image_blob_key ?? null;
}

/** The photo kept beside each of the file's pages (null: not read yet), in page order. */
export async function photoKeysOfFilePages(db: Database, fileId: string): Promise<(string | null)[]> {
  const rows = await db.query<{ photo_blob_key: string | null }>('SELECT photo_blob_key FROM pages WHERE file_id = $1 ORDER BY page_number', [fileId]);
  return rows.map((row) => row.photo_blob_key);
}

/** The page's upright image (null: none yet); the page must exist. */
export async function pageImageKey(db: Database, pageId: string): Promise<string | null> {
  return (await db.one<{ image_blob_key: string | null }>('SELECT image_blob_key FROM pages WHERE id = $1', [pageId])).image_blob_key;
}

/** The photo the page came as (null: it was scanned); the page must exist. */
export async function pagePhotoKey(db: Database, pageId: string): Promise<string | null> {
  return (await db.one<{ photo_blob_key: string | null }>('SELECT photo_blob_key FROM pages WHERE id = $1', [pageId])).photo_blob_key;
}

/** A stored page as the split reads it; the caller narrows the code prefix to its own type. */
export interface SplitPageRow<Prefix extends string = string> {
  id: string;
  page_number: number;
  code_prefix: Prefix | null;
  code_id: string | null;
  unrecognized_reason: Schemas['UnrecognizedReason'] | null;
  blank: boolean;
}

/** A file's pages in order, as the split reads them. */
export async function pagesOfFileForSplit<Prefix extends string>(db: Database, fileId: string): Promise<SplitPageRow<Prefix>[]> {
  return db.query<SplitPageRow<Prefix>>(
    `SELECT id, page_number, code_prefix, code_id, unrecognized_reason, blank FROM pages WHERE file_id = $1 ORDER BY page_number`,
    [fileId],
  );
}

/** Takes every page of the file off its sheet (before its sheets are written again). */
export async function unplacePagesBeforeSplit(db: Database, fileId: string): Promise<void> {
  await db.query('UPDATE pages SET answer_sheet_id = NULL WHERE file_id = $1', [fileId]);
}

/** Where the split puts one page, with its flag; `detail` is pages.flag_detail as JSON text. */
export interface PagePlacement {
  page_number: number;
  sheet_id: string | null;
  template_id: string | null;
  ignored: boolean;
  reason: Schemas['UnrecognizedReason'] | null;
  flag: Schemas['ReviewReason'] | null;
  detail: string | null;
}

/** Writes the split's placement of the file's pages in one statement. */
export async function placeSplitPages(db: Database, fileId: string, pages: readonly PagePlacement[]): Promise<void> {
  await db.query(
    `UPDATE pages p SET answer_sheet_id = v.sheet_id, template_id = v.template_id, ignored = v.ignored,
            unrecognized_reason = v.reason, flag = v.flag, flag_detail = v.detail::jsonb
     FROM unnest($2::int[], $3::uuid[], $4::uuid[], $5::boolean[], $6::text[], $7::text[], $8::text[])
       AS v(page_number, sheet_id, template_id, ignored, reason, flag, detail)
     WHERE p.file_id = $1 AND p.page_number = v.page_number`,
    [
      fileId,
      pages.map((page) => page.page_number),
      pages.map((page) => page.sheet_id),
      pages.map((page) => page.template_id),
      pages.map((page) => page.ignored),
      pages.map((page) => page.reason),
      pages.map((page) => page.flag),
      pages.map((page) => page.detail),
    ],
  );
}

/** The file's pages without a code on which printed text was read, in order. */
export async function codelessPagesWithPrintedText<Reading>(db: Database, fileId: string): Promise<{ id: string; printed_text: Reading }[]> {
  return db.query<{ id: string; printed_text: Reading }>(
    `SELECT id, printed_text FROM pages
     WHERE file_id = $1 AND code_id IS NULL AND NOT blank AND read_error IS NULL AND printed_text IS NOT NULL ORDER BY page_number`,
    [fileId],
  );
}

/** A page identified by its printed text takes the code of the sheet page it is. */
export async function identifyPageByPrintedText(db: Database, pageId: string, code: { prefix: string; id: string }): Promise<void> {
  await db.query(
    `UPDATE pages SET code_prefix = $2, code_id = $3, unrecognized_reason = NULL, identified_by = 'printed_text', printed_suggestion = NULL
     WHERE id = $1`,
    [pageId, code.prefix, code.id],
  );
}

/** A page not identified keeps a suggestion for Review (JSON text), or none. */
export async function setPrintedSuggestion(db: Database, pageId: string, suggestion: string | null): Promise<void> {
  await db.query('UPDATE pages SET printed_suggestion = $2 WHERE id = $1', [pageId, suggestion]);
}

/** Pages whose print is older than `version`, made in the last `days`, newest first. */
export async function pagesWithOldPrints(db: Database, version: number, days: number, limit: number): Promise<{ id: string; image_blob_key: string | null }[]> {
  return db.query<{ id: string; image_blob_key: string | null }>(
    `SELECT id, image_blob_key FROM pages
     WHERE fingerprint IS NOT NULL AND get_byte(fingerprint, 0) < $1
       AND created_at > now() - make_interval(days => $2)
     ORDER BY created_at DESC LIMIT $3`,
    [version, days, limit],
  );
}

/** Stores a page's print made again (null: its image is gone, and it is no longer compared). */
export async function storePagePrint(db: Database, pageId: string, hash: Uint8Array | null, print: Uint8Array | null): Promise<void> {
  await db.query('UPDATE pages SET fingerprint_hash = $2, fingerprint = $3 WHERE id = $1', [pageId, hash, print]);
}

/** What the pipeline read of one page, as stored. */
export interface ReadPageValues {
  page_number: number;
  blank: boolean;
  rotation: number;
  code_prefix: string | null;
  code_id: string | null;
  unrecognized_reason: string | null;
  image_blob_key: string | null;
  read_error: string | null;
  fingerprint_hash: Uint8Array | null;
  fingerprint: Uint8Array | null;
  photo_blob_key: string | null;
  /** JSON text, or null. */
  printed_text: string | null;
  identified_by: Schemas['IdentifiedBy'] | null;
}

/** Stores a page as read (a blank page is ignored); reading the same page again replaces it. */
export async function upsertReadPage(db: Database, fileId: string, page: ReadPageValues): Promise<void> {
  await db.query(
    `INSERT INTO pages (file_id, page_number, blank, ignored, rotation, code_prefix, code_id, unrecognized_reason, image_blob_key, read_error,
                        fingerprint_hash, fingerprint, photo_blob_key, printed_text, identified_by)
     VALUES ($1, $2, $3, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
     ON CONFLICT (file_id, page_number) DO UPDATE SET
       blank = EXCLUDED.blank, ignored = EXCLUDED.ignored, rotation = EXCLUDED.rotation,
       code_prefix = EXCLUDED.code_prefix, code_id = EXCLUDED.code_id,
       unrecognized_reason = EXCLUDED.unrecognized_reason, image_blob_key = EXCLUDED.image_blob_key,
       read_error = EXCLUDED.read_error, fingerprint_hash = EXCLUDED.fingerprint_hash, fingerprint = EXCLUDED.fingerprint,
       photo_blob_key = EXCLUDED.photo_blob_key, printed_text = EXCLUDED.printed_text, identified_by = EXCLUDED.identified_by`,
    [
      fileId,
      page.page_number,
      page.blank,
      page.rotation,
      page.code_prefix,
      page.code_id,
      page.unrecognized_reason,
      page.image_blob_key,
      page.read_error,
      page.fingerprint_hash,
      page.fingerprint,
      page.photo_blob_key,
      page.printed_text,
      page.identified_by,
    ],
  );
}

/** The numbers of the file's stored pages, in order. */
export async function storedPageNumbers(db: Database, fileId: string): Promise<number[]> {
  const rows = await db.query<{ page_number: number }>('SELECT page_number FROM pages WHERE file_id = $1 ORDER BY page_number', [fileId]);
  return rows.map((row) => row.page_number);
}

/** Pages of the file the pipeline could not process (read errors). */
export async function countPagesWithReadError(db: Database, fileId: string): Promise<number> {
  const row = await db.one<{ failed: number }>('SELECT count(*) AS failed FROM pages WHERE file_id = $1 AND read_error IS NOT NULL', [fileId]);
  return Number(row.failed);
}

/** Flagged pages on the file's sheets still waiting for a person, counted per flag, most first. */
export async function flagCountsOfFile(db: Database, fileId: string): Promise<{ flag: string; pages: number }[]> {
  return db.query<{ flag: string; pages: number }>(
    `SELECT flag, count(*)::int AS pages FROM pages
     WHERE file_id = $1 AND answer_sheet_id IS NOT NULL AND NOT ignored AND flag IS NOT NULL
     GROUP BY flag ORDER BY count(*) DESC, flag`,
    [fileId],
  );
}

/** A page's paper as stored: its code and fingerprint. */
export interface StoredPaperPage {
  page_number: number;
  code_prefix: string | null;
  code_id: string | null;
  blank: boolean;
  fingerprint_hash: Uint8Array | null;
  fingerprint: Uint8Array | null;
}

/** The file's pages' paper, in page order. */
export async function paperPagesOfFile(db: Database, fileId: string): Promise<StoredPaperPage[]> {
  return db.query<StoredPaperPage>(
    `SELECT page_number, code_prefix, code_id, blank, fingerprint_hash, fingerprint FROM pages WHERE file_id = $1 ORDER BY page_number`,
    [fileId],
  );
}

/** A page of an earlier file that may be the same paper (its coarse hash; its fine print is read later). */
export interface EarlierPaperRow {
  id: string;
  file_id: string;
  prefix: string | null;
  code_id: string | null;
  fingerprint_hash: Uint8Array;
  student_id: string | null;
}

/** How far back, and how many pages per code, earlier paper is searched; `fileId`'s own pages are left out. */
export interface EarlierPaperSearch {
  fileId: string | null;
  days: number;
  pagesPerCode: number;
}

/** Earlier non-blank fingerprinted pages carrying each of these codes (`prefix/id`), oldest first. */
export async function earlierPaperWithCodes(db: Database, codes: readonly { prefix: string; id: string }[], search: EarlierPaperSearch): Promise<EarlierPaperRow[]> {
  return db.query<EarlierPaperRow>(
    `SELECT e.id, e.file_id, e.code_prefix AS prefix, e.code_id, e.fingerprint_hash, a.student_id
     FROM unnest($1::text[], $2::text[]) AS c(prefix, code_id)
     CROSS JOIN LATERAL (
       SELECT p.id, p.file_id, p.code_prefix, p.code_id, p.fingerprint_hash, p.answer_sheet_id, p.created_at FROM pages p
       WHERE p.code_prefix = c.prefix AND p.code_id = c.code_id AND p.fingerprint_hash IS NOT NULL
         AND p.file_id IS DISTINCT FROM $3::uuid AND NOT p.blank
         AND p.created_at > now() - make_interval(days => $4)
       ORDER BY p.created_at DESC LIMIT $5) e
     LEFT JOIN answer_sheets a ON a.id = e.answer_sheet_id
     ORDER BY e.created_at`,
    [codes.map((code) => code.prefix), codes.map((code) => code.id), search.fileId, search.days, search.pagesPerCode],
  );
}

/**
 * Earlier codeless pages that gave a student (a codeless page set aside, a letter or a cover,
 * says nothing of who), oldest first.
 */
export async function earlierCodelessPaper(db: Database, search: EarlierPaperSearch): Promise<EarlierPaperRow[]> {
  return db.query<EarlierPaperRow>(
    `SELECT e.id, e.file_id, NULL AS prefix, NULL AS code_id, e.fingerprint_hash, e.student_id
     FROM (SELECT p.id, p.file_id, p.fingerprint_hash, a.student_id, p.created_at FROM pages p
           JOIN answer_sheets a ON a.id = p.answer_sheet_id AND a.student_id IS NOT NULL
           WHERE p.code_prefix IS NULL AND p.fingerprint_hash IS NOT NULL AND NOT p.ignored
             AND p.file_id IS DISTINCT FROM $1::uuid AND NOT p.blank
             AND p.created_at > now() - make_interval(days => $2)
           ORDER BY p.created_at DESC LIMIT $3) e
     ORDER BY e.created_at`,
    [search.fileId, search.days, search.pagesPerCode],
  );
}

/** The fine prints of these pages, by page id. */
export async function fingerprintsOfPages(db: Database, pageIds: readonly string[]): Promise<Map<string, Uint8Array>> {
  const rows = await db.query<{ id: string; fingerprint: Uint8Array }>('SELECT id, fingerprint FROM pages WHERE id = ANY($1::uuid[])', [pageIds]);
  return new Map(rows.map((row) => [row.id, row.fingerprint]));
}

/** Those of these pages whose file's return file was downloaded (its grading closed), with the file's name. */
export async function pagesOfDownloadedFiles(db: Database, pageIds: readonly string[]): Promise<{ page_id: string; name: string }[]> {
  return db.query<{ page_id: string; name: string }>(
    `SELECT p.id AS page_id, f.name FROM pages p JOIN files f ON f.id = p.file_id
     WHERE p.id = ANY($1::uuid[]) AND f.file_status = 'downloaded'`,
    [pageIds],
  );
}

/** The answer sheets these pages are on, each once. */
export async function sheetsOfPages(db: Database, pageIds: readonly string[]): Promise<string[]> {
  const rows = await db.query<{ id: string }>('SELECT DISTINCT answer_sheet_id AS id FROM pages WHERE id = ANY($1::uuid[]) AND answer_sheet_id IS NOT NULL', [pageIds]);
  return rows.map((row) => row.id);
}

/** A staged page of an intro upload as it becomes a page of the upload's file. */
export interface IntroPageValues {
  page_number: number;
  blank: boolean;
  code_prefix: string | null;
  code_id: string | null;
  reason: string | null;
  image_blob_key: string | null;
  read_error: string | null;
}

/**
 * Inserts the file's pages from the upload's staged pages (their fingerprints and photos come
 * from the staging rows; a blank page is ignored). Returns each page's id by number.
 */
export async function insertIntroPages(
  db: Database,
  fileId: string,
  uploadId: string,
  pages: readonly IntroPageValues[],
): Promise<{ id: string; page_number: number }[]> {
  return db.query<{ id: string; page_number: number }>(
    `INSERT INTO pages (file_id, page_number, blank, ignored, code_prefix, code_id, unrecognized_reason, image_blob_key, read_error,
                        fingerprint_hash, fingerprint, photo_blob_key)
     SELECT $1, v.page_number, v.blank, v.blank, v.code_prefix, v.code_id, v.reason, v.image_blob_key, v.read_error,
            s.fingerprint_hash, s.fingerprint, s.photo_blob_key
     FROM unnest($2::int[], $3::boolean[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[])
          AS v(page_number, blank, code_prefix, code_id, reason, image_blob_key, read_error)
     JOIN graded_upload_pages s ON s.upload_id = $9 AND s.page_number = v.page_number
     RETURNING id, page_number`,
    [
      fileId,
      pages.map((p) => p.page_number),
      pages.map((p) => p.blank),
      pages.map((p) => p.code_prefix),
      pages.map((p) => p.code_id),
      pages.map((p) => p.reason),
      pages.map((p) => p.image_blob_key),
      pages.map((p) => p.read_error),
      uploadId,
    ],
  );
}

/** Where a page of a new sheet goes, and what is flagged on it. */
export interface IntroPagePlacement {
  answer_sheet_id: string;
  template_id: string | null;
  ignored: boolean;
  unrecognized_reason: string | null;
  flag: string | null;
  /** JSON text, or null. */
  flag_detail: string | null;
}

/** Places page `pageNumber` of the file on a sheet. */
export async function placeIntroPage(db: Database, fileId: string, pageNumber: number, placement: IntroPagePlacement): Promise<void> {
  await db.query(
    `UPDATE pages SET answer_sheet_id = $3, template_id = $4, ignored = $5, unrecognized_reason = $6, flag = $7, flag_detail = $8::jsonb
     WHERE file_id = $1 AND page_number = $2`,
    [fileId, pageNumber, placement.answer_sheet_id, placement.template_id, placement.ignored, placement.unrecognized_reason, placement.flag, placement.flag_detail],
  );
}

/** A photo on no sheet stays in view, flagged with its reason. */
export async function flagUnplacedPhotoPage(db: Database, fileId: string, pageNumber: number, reason: string): Promise<void> {
  await db.query('UPDATE pages SET unrecognized_reason = $3, flag = $3 WHERE file_id = $1 AND page_number = $2', [fileId, pageNumber, reason]);
}

export async function ignoreUnplacedPage(db: Database, fileId: string, pageNumber: number): Promise<void> {
  await db.query('UPDATE pages SET ignored = true WHERE file_id = $1 AND page_number = $2', [fileId, pageNumber]);
}

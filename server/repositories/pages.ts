// pages: every page of a service center's file (or of an intro file made from an upload), as
// read by the scan pipeline and then placed on answer sheets.
import type { Schemas } from '../contract/types';
import type { Database } from '../db/database';

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

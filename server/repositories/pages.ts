// The pages table: a file's scanned pages, what was read on them and where they are placed.
import type { Schemas } from '../contract/types';
import type { Database } from '../db/database';

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

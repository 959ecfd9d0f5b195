// The pages of a graded upload as staged while it is read (graded_upload_pages), and
// the last writes of its processing: every page's outcome and the upload marked done.
import type { Database } from '../db/database';
import type { Code, CodePrefix } from '../domain/codes';
import type { PrintedTextReading } from '../pipeline/printed-text';
import { stagedPagesOfUpload, writeStagedOutcomes, type PageOutcomeRow, type StagedPageRow } from '../repositories/graded-upload-pages';
import { markGradedUploadDone, type UploadToRead } from '../repositories/graded-uploads';

export type UploadRow = UploadToRead;

export type StagedPage = StagedPageRow<CodePrefix, PrintedTextReading>;

export async function stagedPages(db: Database, uploadId: string): Promise<StagedPage[]> {
  return stagedPagesOfUpload<CodePrefix, PrintedTextReading>(db, uploadId);
}

export function codeOf(page: StagedPage): Code | null {
  return page.code_prefix !== null && page.code_id !== null ? { prefix: page.code_prefix, id: page.code_id } : null;
}

/** Records every page's outcome; every page keeps its image, so the upload's report can show it. */
export async function writeOutcomes(db: Database, uploadId: string, results: readonly PageOutcomeRow[]): Promise<void> {
  await writeStagedOutcomes(db, uploadId, results);
}

export async function finishUpload(db: Database, uploadId: string, pageCount: number): Promise<void> {
  await markGradedUploadDone(db, uploadId, pageCount);
}


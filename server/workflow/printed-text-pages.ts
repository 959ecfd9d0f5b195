// The database side of identifying codeless pages by their printed text (printed-identity): the
// sheet pages a file could hold, looked up for the student IDs read, and what is written back. A
// page identified gets the code of the sheet page it is, as if its QR had been read, and says how
// (identified_by = 'printed_text'); one that is not keeps its flag and, when something legible was
// read, a suggestion for Review.
import type { Database } from '../db/database';
import type { Code } from '../domain/codes';
import type { PrintedTextReading } from '../pipeline/printed-text';
import { codelessPagesWithPrintedText, identifyPageByPrintedText, setPrintedSuggestion } from '../repositories/pages';
import { packetPagesAwaitingGrading, sheetPagesIssuedTo } from '../repositories/printed-codes';
import { identifyStagedPageByPrintedText } from '../repositories/graded-upload-pages';
import { describeSuggestion, identifyByPrintedText, type PrintedCandidate, type PrintedSuggestion } from '../domain/printed-identity';

const humanIdsOf = (readings: readonly (PrintedTextReading | null)[]) => [
  ...new Set(readings.map((reading) => reading?.student_human_id ?? null).filter((id): id is number => id !== null)),
];

/**
 * Packet pages of the congregation's files being graded that have no feedback yet, for these
 * students, numbered within their sheet as the packet prints them (send-packets); pages whose
 * code this upload read elsewhere are taken already.
 */
async function packetCandidates(db: Database, congregationId: string, humanIds: number[], codesRead: string[]): Promise<PrintedCandidate[]> {
  if (humanIds.length === 0) return [];
  const rows = await packetPagesAwaitingGrading(db, congregationId, humanIds, codesRead);
  return rows.map((row) => ({
    code: { prefix: 'p', id: row.code_id },
    identity: row.page_id,
    student_human_id: Number(row.human_id),
    lesson_number: Number(row.lesson_number),
    page_number: Number(row.sheet_page),
    page_count: Number(row.sheet_pages),
  }));
}

/** Sheet pages issued to these students (`s` codes of next-lesson sheets). */
async function issuedCandidates(db: Database, humanIds: number[]): Promise<PrintedCandidate[]> {
  if (humanIds.length === 0) return [];
  const rows = await sheetPagesIssuedTo(db, humanIds);
  return rows.map((row) => ({
    code: { prefix: 's', id: row.code_id },
    identity: `${row.student_id}/${row.template_id}`,
    student_human_id: Number(row.human_id),
    lesson_number: Number(row.lesson_number),
    page_number: Number(row.page_number),
    page_count: Number(row.page_count),
  }));
}

/** A staged graded page as this step needs it. */
export interface StagedForPrintedText {
  page_number: number;
  code_prefix: string | null;
  code_id: string | null;
  blank: boolean;
  read_error: string | null;
  printed_text: PrintedTextReading | null;
}

/**
 * Graded upload: gives each codeless page its packet page's `p` code when its printed text
 * confirms exactly one, recorded on the staged page; returns, by page number, what a page not
 * identified was read as (for its report detail).
 */
export async function identifyStagedPages(
  db: Database,
  uploadId: string,
  congregationId: string,
  staged: StagedForPrintedText[],
): Promise<Map<number, string>> {
  const waiting = staged.filter((page) => page.code_id === null && !page.blank && page.read_error === null && page.printed_text !== null);
  const notes = new Map<number, string>();
  if (waiting.length === 0) return notes;
  const codesRead = staged.filter((page) => page.code_prefix === 'p' && page.code_id !== null).map((page) => page.code_id!);
  const candidates = await packetCandidates(db, congregationId, humanIdsOf(waiting.map((page) => page.printed_text)), codesRead);
  for (const page of waiting) {
    const identity = identifyByPrintedText(page.printed_text, candidates);
    if (identity.kind === 'identified') {
      page.code_prefix = identity.code.prefix;
      page.code_id = identity.code.id;
      await identifyStagedPageByPrintedText(db, uploadId, page.page_number, identity.code);
    } else if (identity.kind === 'suggested') notes.set(page.page_number, gradedNote(identity.suggestion));
  }
  return notes;
}

function gradedNote(suggestion: PrintedSuggestion): string {
  const read = describeSuggestion(suggestion);
  const fits = suggestion.codes.length;
  if (fits === 0) return `Not matched: no code. Its printed text reads "${read}", which fits no page of this congregation waiting for grading.`;
  return `Not matched: no code. Its printed text reads "${read}", which fits ${fits} pages waiting for grading: scan it again with its codes uncovered.`;
}

/**
 * Service-center file: gives each codeless page the `s` code of the issued sheet page its printed
 * text confirms, and keeps a suggestion on the others. Runs before the split, which then places
 * the page as it places any page with a code.
 */
export async function identifyFilePages(db: Database, fileId: string): Promise<void> {
  const pages = await codelessPagesWithPrintedText<PrintedTextReading>(db, fileId);
  if (pages.length === 0) return;
  const candidates = await issuedCandidates(db, humanIdsOf(pages.map((page) => page.printed_text)));
  for (const page of pages) {
    const identity = identifyByPrintedText(page.printed_text, candidates);
    if (identity.kind === 'identified') await identifyPageByPrintedText(db, page.id, identity.code);
    else await setPrintedSuggestion(db, page.id, identity.kind === 'suggested' ? JSON.stringify(storedSuggestion(identity.suggestion)) : null);
  }
}

/** As pages.printed_suggestion holds it: codes as the short text a person would type. */
export interface StoredSuggestion {
  student_human_id: number | null;
  lesson_number: number | null;
  page_number: number | null;
  codes: { prefix: Code['prefix']; id: string }[];
}

function storedSuggestion(suggestion: PrintedSuggestion): StoredSuggestion {
  return { ...suggestion, codes: suggestion.codes.map((code) => ({ prefix: code.prefix, id: code.id })) };
}

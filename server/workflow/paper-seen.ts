// Paper seen twice (DESIGN §4): a page is also known by its image. Before a file is split, each
// page's fingerprint is compared with the file's earlier pages (a double feed) and with pages of
// earlier files carrying the same code, or none (a batch scanned again). What is found goes into
// the split as facts about the paper; the split decides what they mean for sheets and students.
import type { Database } from '../db/database';
import type { CodePrefix } from '../domain/codes';
import { HASH_CANDIDATE_DISTANCE, hashDistance, samePaper, type PageFingerprint } from '../pipeline/page-fingerprint';
import { earlierCodelessPaper, earlierPaperWithCodes, fingerprintsOfPages, paperPagesOfFile, type EarlierPaperRow } from '../repositories/pages';

/** Earlier files are searched this far back: a rescan comes within weeks, not years. */
export const SEEN_PAPER_DAYS = 180;
/** At most this many earlier pages per code (and of pages without one) are compared, the newest first. */
const EARLIER_PAGES_PER_CODE = 5000;

export interface PaperPage {
  page_number: number;
  code_prefix: CodePrefix | null;
  code_id: string | null;
  blank: boolean;
  fingerprint_hash: Uint8Array | null;
  fingerprint: Uint8Array | null;
}

export interface EarlierPaper {
  page_id: string;
  file_id: string;
  /** The student of the sheet that page is on, if any. */
  student_id: string | null;
}

export interface PaperSeen {
  /** Page number → the earlier page of the same file it is the same paper as. */
  copyOf: Map<number, number>;
  /** Page number → the page of an earlier file it is the same paper as. */
  seenBefore: Map<number, EarlierPaper>;
}

/** Covers are the same print in every batch; graded packet pages are matched by their codes. */
const comparable = (page: PaperPage): page is PaperPage & { fingerprint_hash: Uint8Array; fingerprint: Uint8Array } =>
  !page.blank && page.fingerprint_hash !== null && page.fingerprint !== null && page.code_prefix !== 'c' && page.code_prefix !== 'p';

const codeKey = (page: Pick<PaperPage, 'code_prefix' | 'code_id'>) => (page.code_prefix === null ? '' : `${page.code_prefix}/${page.code_id}`);

const print = (page: { fingerprint_hash: Uint8Array; fingerprint: Uint8Array }): PageFingerprint => ({
  hash: page.fingerprint_hash,
  print: page.fingerprint,
});

/** The file's own pages, as stored. */
export async function paperSeenBefore(db: Database, fileId: string): Promise<PaperSeen> {
  // Stored codes were read with the pipeline's prefixes.
  const pages = (await paperPagesOfFile(db, fileId)) as PaperPage[];
  return comparePaper(db, pages, fileId);
}

/** `pages` in page order; `fileId` is the file they are (or will be) in, left out of the search. */
export async function comparePaper(db: Database, pages: readonly PaperPage[], fileId: string | null): Promise<PaperSeen> {
  const seen: PaperSeen = { copyOf: new Map(), seenBefore: new Map() };
  const kept = pages.filter(comparable);

  // A double feed: the same paper as an earlier page of this file with the same code (or none).
  const originals = new Map<string, (typeof kept)[number][]>();
  for (const page of kept) {
    const group = originals.get(codeKey(page)) ?? [];
    const original = group.find(
      (earlier) => hashDistance(earlier.fingerprint_hash, page.fingerprint_hash) <= HASH_CANDIDATE_DISTANCE && samePaper(print(earlier), print(page)),
    );
    if (original) seen.copyOf.set(page.page_number, original.page_number);
    else originals.set(codeKey(page), [...group, page]);
  }

  // A rescan: the same paper as a page of an earlier file carrying the same code, or, for a page
  // without one (a codeless form, covered codes), as any earlier page without one.
  const unseen = kept.filter((page) => !seen.copyOf.has(page.page_number));
  const keys = [...new Set(unseen.filter((page) => page.code_prefix !== null).map(codeKey))];
  const hasCodeless = unseen.some((page) => page.code_prefix === null);
  const search = { fileId, days: SEEN_PAPER_DAYS, pagesPerCode: EARLIER_PAGES_PER_CODE };
  const earlier: EarlierPaperRow[] = [];
  if (keys.length > 0) earlier.push(...(await earlierPaperWithCodes(db, keys.map((key) => ({ prefix: key.split('/')[0]!, id: key.split('/')[1]! })), search)));
  // Only pages that gave a student: a codeless page set aside (a letter, a cover) says nothing of who.
  if (hasCodeless) earlier.push(...(await earlierCodelessPaper(db, search)));
  if (earlier.length === 0) return seen;
  const byCode = new Map<string, EarlierPaperRow[]>();
  for (const row of earlier) {
    const key = codeKey({ code_prefix: row.prefix as CodePrefix | null, code_id: row.code_id });
    byCode.set(key, [...(byCode.get(key) ?? []), row]);
  }
  const near = new Map<number, EarlierPaperRow[]>();
  for (const page of unseen) {
    const list = (byCode.get(codeKey(page)) ?? []).filter((row) => hashDistance(row.fingerprint_hash, page.fingerprint_hash) <= HASH_CANDIDATE_DISTANCE);
    if (list.length > 0) near.set(page.page_number, list);
  }
  if (near.size === 0) return seen;
  const ids = [...new Set([...near.values()].flat().map((row) => row.id))];
  const prints = await fingerprintsOfPages(db, ids);
  for (const page of unseen) {
    // The earliest paper it repeats: the one first uploaded.
    const match = near
      .get(page.page_number)
      ?.find((row) => prints.has(row.id) && samePaper({ hash: row.fingerprint_hash, print: prints.get(row.id)! }, print(page)));
    if (match) seen.seenBefore.set(page.page_number, { page_id: match.id, file_id: match.file_id, student_id: match.student_id });
  }
  return seen;
}

// Deciding what each page of a graded upload is, from its code and its place in the upload. Pure:
// page results and what the `p` codes mean come in, per-page outcomes and the feedback to keep
// come out, so the rules can be tested on their own.
//
//   - A page with a `p` code of the uploader's congregation, on a file that was sent, is the
//     graded front of that original page (`matched`).
//   - The page right after a matched front, when it has no code, is that front's duplex back
//     only when it is one (DESIGN §4): blank (`blank_back`, not kept: the return file carries no
//     empty pages), at a back's place in a duplex scan, or writing without the header line every
//     packet page carries (`back`). Only one back per front. Any other page without a code is a
//     front whose codes are covered: "not matched: no code", never attached to the page before.
//   - The same original page scanned twice in one upload: the later scan wins (`replaced`), the
//     earlier one and its back are `superseded`.
//   - Everything else is refused and says why: a `p` code of another congregation's page
//     (`wrong_congregation`), of a file archived (`file_archived`) or not being graded
//     (`not_sent`), a code never printed or not ours
//     (`unknown_code`), a code of another kind (`other_kind`), a page with no code that follows
//     no front (`unrecognized`), or one the reader could not process (`unreadable`). A page
//     whose code was seen but not decoded is never taken as a back: it is most likely a front.
import type { Code } from './codes';
import type { PageReason } from './page-reasons';

export type GradedPageOutcome =
  | 'matched'
  | 'replaced'
  | 'superseded'
  | 'back'
  | 'blank_back'
  | 'blank'
  | 'wrong_congregation'
  | 'not_sent'
  | 'file_archived'
  | 'return_downloaded'
  | 'unknown_code'
  | 'other_kind'
  | 'unrecognized'
  | 'unreadable'
  | 'too_complex'
  /** A photo: no sheet found in it, or too blurred to read. */
  | 'no_sheet'
  | 'too_blurred';

export interface GradedPageInput {
  page_number: number;
  /** The `p` code read on the page (codes of other kinds are reported through `reason`). */
  code: Code | null;
  reason: PageReason | null;
  blank: boolean;
  /** The page could not be processed at all. */
  read_error: string | null;
  /** It carries the header line printed on packet pages (false: none; null or absent: not known). */
  printed_header?: boolean | null;
}

/** What a `p` code names, as the database knows it. */
export interface CodeTarget {
  page_id: string;
  /** The congregation the page's answer sheet is assigned to. */
  congregation_id: string | null;
  /** The page's file was sent to its study helpers (and not archived). */
  open_for_grading: boolean;
  /** The page's file is archived: its grading is over. */
  archived: boolean;
}

export interface GradedPageResult {
  page_number: number;
  outcome: GradedPageOutcome;
  /** The original page a kept scan (front or back) belongs to. */
  page_id: string | null;
  detail: string | null;
}

export interface FeedbackToKeep {
  page_id: string;
  front_page_number: number;
  back_page_number: number | null;
}

export interface GradedMatch {
  pages: GradedPageResult[];
  /** One per original page, in upload order of the winning front. */
  feedback: FeedbackToKeep[];
}

/** Outcomes that keep the scan as feedback. */
export const KEPT_OUTCOMES: readonly GradedPageOutcome[] = ['matched', 'replaced', 'back'];

export function matchGradedPages(
  input: readonly GradedPageInput[],
  resolve: (code: Code) => CodeTarget | null,
  congregationId: string,
): GradedMatch {
  const pages = [...input].sort((a, b) => a.page_number - b.page_number);
  const duplex = isDuplexScan(pages);
  const results: GradedPageResult[] = [];
  const feedback = new Map<string, FeedbackToKeep>();
  const resultOf = new Map<number, GradedPageResult>();
  /** The last front still waiting for its back. */
  let front: FeedbackToKeep | null = null;

  const add = (page_number: number, outcome: GradedPageOutcome, page_id: string | null, detail: string | null) => {
    const result = { page_number, outcome, page_id, detail };
    results.push(result);
    resultOf.set(page_number, result);
    return result;
  };

  /** A coded page is a graded front when its code allows; the front it makes, or null when refused. */
  const matchCodedPage = (page: GradedPageInput, code: Code): FeedbackToKeep | null => {
    const found = gradedTarget(code, resolve, congregationId);
    if ('outcome' in found) {
      add(page.page_number, found.outcome, null, found.detail);
      return null;
    }
    const { target } = found;
    const earlier = feedback.get(target.page_id);
    let detail: string | null = null;
    if (earlier) {
      // Scanned twice in this upload: the later scan is the newest.
      for (const n of [earlier.front_page_number, earlier.back_page_number]) {
        const result = n === null ? undefined : resultOf.get(n);
        if (result) {
          result.outcome = 'superseded';
          result.detail = `Scanned again as page ${page.page_number} of this upload; the newer scan was kept.`;
        }
      }
      detail = `Replaces the scan on page ${earlier.front_page_number} of this upload.`;
    }
    add(page.page_number, earlier ? 'replaced' : 'matched', target.page_id, detail);
    const matched = { page_id: target.page_id, front_page_number: page.page_number, back_page_number: null };
    feedback.delete(target.page_id);
    feedback.set(target.page_id, matched);
    return matched;
  };

  for (const page of pages) {
    const refused = unreadRefusal(page);
    if (refused !== null) {
      add(page.page_number, refused.outcome, null, refused.detail);
      front = null;
      continue;
    }
    if (page.code !== null) {
      front = matchCodedPage(page, page.code);
      continue;
    }
    if (page.blank) {
      if (front !== null) add(page.page_number, 'blank_back', front.page_id, `Blank back of page ${front.front_page_number}; not kept.`);
      else add(page.page_number, 'blank', null, null);
      front = null;
      continue;
    }
    const codeless = codelessRefusal(page);
    if (codeless !== null) {
      add(page.page_number, codeless.outcome, null, codeless.detail);
      front = null;
      continue;
    }
    // Right after its front, and a back by its place in a duplex scan or by carrying no printed lesson content.
    const backPlace =
      front !== null &&
      page.page_number === front.front_page_number + 1 &&
      ((duplex && page.page_number % 2 === 0) || page.printed_header === false);
    if (front !== null && page.reason !== 'unreadable' && backPlace) {
      add(page.page_number, 'back', front.page_id, `Back of page ${front.front_page_number}.`);
      front.back_page_number = page.page_number;
      front = null;
      continue;
    }
    add(page.page_number, 'unrecognized', null, unrecognizedDetail(page, front !== null));
    front = null;
  }
  return { pages: results, feedback: [...feedback.values()] };
}

/**
 * A duplex scan: fronts and backs alternate, so the pages come in pairs, no code is ever read on
 * an even page (a back's place), and most backs are blank (packets are printed one-sided). A
 * one-sided scan never looks like that unless most of its sheets are blank.
 */
export function isDuplexScan(pages: readonly GradedPageInput[]): boolean {
  const coded = (page: GradedPageInput) => page.code !== null || page.reason === 'other_kind' || page.reason === 'unknown_code';
  const even = pages.filter((page) => page.page_number % 2 === 0);
  if (pages.length % 2 !== 0 || even.length === 0 || even.some(coded)) return false;
  return even.filter((page) => page.blank).length * 2 > even.length;
}

interface Refusal {
  outcome: GradedPageOutcome;
  detail: string;
}

/** A page the reader could not process: too complex, or an error while reading it. */
function unreadRefusal(page: GradedPageInput): Refusal | null {
  if (page.reason === 'too_complex')
    return { outcome: 'too_complex', detail: 'This page is too large or too complex to read. Check the scan and upload it again.' };
  if (page.read_error !== null) return { outcome: 'unreadable', detail: `The page could not be read: ${page.read_error}` };
  return null;
}

/** The original page a code names when the page is its graded front, or why it is not. */
function gradedTarget(code: Code, resolve: (code: Code) => CodeTarget | null, congregationId: string): { target: CodeTarget } | Refusal {
  if (code.prefix !== 'p') return { outcome: 'other_kind', detail: 'This page carries another kind of code than a graded packet page.' };
  const target = resolve(code);
  if (target === null) return { outcome: 'unknown_code', detail: `The code P-${code.id} was never printed by this portal.` };
  if (target.congregation_id !== congregationId)
    return { outcome: 'wrong_congregation', detail: `P-${code.id} is a page of another congregation's packet; it was not taken.` };
  if (target.archived) return { outcome: 'file_archived', detail: `P-${code.id} belongs to a file that is archived; its grading is over.` };
  if (!target.open_for_grading) return { outcome: 'not_sent', detail: `P-${code.id} belongs to a file that is not being graded.` };
  return { target };
}

/** A page without a usable code that is refused whatever its place: a code not ours, or a photo nothing read on. */
function codelessRefusal(page: GradedPageInput): Refusal | null {
  if (page.reason === 'other_kind') return { outcome: 'other_kind', detail: 'This page carries another kind of code than a graded packet page.' };
  if (page.reason === 'unknown_code') return { outcome: 'unknown_code', detail: 'The QR code on this page is not one this portal printed.' };
  // A photo nothing could be read on is never a back: it could be any page.
  if (page.reason === 'no_sheet')
    return {
      outcome: 'no_sheet',
      detail: 'Not matched: no sheet found in the photo. The photo is kept; photograph the sheet again, whole, on a plain background.',
    };
  if (page.reason === 'too_blurred')
    return {
      outcome: 'too_blurred',
      detail: 'Not matched: too blurred for its code to read. The photo is kept; photograph the sheet again, holding the phone still.',
    };
  return null;
}

function unrecognizedDetail(page: GradedPageInput, afterFront: boolean): string {
  if (page.reason === 'unreadable') return 'Not matched: a code was seen on this page but could not be read. Scan it again with its codes clear.';
  if (afterFront)
    return 'Not matched: no code. A page with writing but no readable code is never taken as the back of the page before in a one-sided scan: scan it again with its codes uncovered.';
  return 'Not matched: no code, and it follows no graded page. Scan it again with its codes uncovered.';
}

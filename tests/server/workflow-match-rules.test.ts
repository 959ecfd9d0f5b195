// The rules that decide each page of a graded upload (server/domain/match-graded-pages.ts),
// page by page, without scans: fronts by their `p` code, duplex backs, refusals and rescans.
import { describe, expect, it } from 'vitest';
import type { Code } from '../../server/domain/codes';
import type { PageReason } from '../../server/domain/page-reasons';
import { matchGradedPages, type CodeTarget, type GradedPageInput } from '../../server/domain/match-graded-pages';

const MINE = 'congregation-a';
const targets: Record<string, CodeTarget> = {
  AAAA2222: { page_id: 'page-1', congregation_id: MINE, open_for_grading: true, archived: false },
  BBBB2222: { page_id: 'page-2', congregation_id: MINE, open_for_grading: true, archived: false },
  CCCC2222: { page_id: 'page-3', congregation_id: 'congregation-b', open_for_grading: true, archived: false },
  DDDD2222: { page_id: 'page-4', congregation_id: MINE, open_for_grading: false, archived: false },
  EEEE2222: { page_id: 'page-5', congregation_id: MINE, open_for_grading: false, archived: true },
};
const resolve = (code: Code) => targets[code.id] ?? null;

type Page = ['p' | 't', string] | 'back' | 'blank' | 'error' | PageReason;
function pages(...list: Page[]): GradedPageInput[] {
  return list.map((page, index) => ({
    page_number: index + 1,
    code: Array.isArray(page) ? { prefix: page[0], id: page[1] } : null,
    reason: Array.isArray(page) ? null : page === 'back' || page === 'blank' ? 'no_code_found' : page === 'error' ? 'unreadable' : page,
    blank: page === 'blank',
    read_error: page === 'error' ? 'decoder failed' : null,
  }));
}
const outcomes = (input: GradedPageInput[]) => matchGradedPages(input, resolve, MINE).pages.map((page) => [page.outcome, page.page_id]);

describe('graded upload matching rules', () => {
  it('in a duplex scan, takes the page after a front as its back, once', () => {
    // Two-sided: fronts on odd pages, most backs blank, one with the helper's writing.
    const input = pages(['p', 'AAAA2222'], 'back', ['p', 'BBBB2222'], 'blank', 'back', 'blank');
    expect(outcomes(input)).toEqual([
      ['matched', 'page-1'],
      ['back', 'page-1'],
      ['matched', 'page-2'],
      ['blank_back', 'page-2'],
      ['unrecognized', null],
      ['blank', null],
    ]);
    expect(matchGradedPages(input, resolve, MINE).feedback).toEqual([
      { page_id: 'page-1', front_page_number: 1, back_page_number: 2 },
      { page_id: 'page-2', front_page_number: 3, back_page_number: null },
    ]);
  });

  it('in a one-sided scan, never attaches a page without a code to the page before: not matched, no code', () => {
    // The graded page 2 with both codes under sticky notes, scanned one-sided.
    const match = matchGradedPages(pages(['p', 'AAAA2222'], 'back', ['p', 'BBBB2222'], 'blank'), resolve, MINE);
    expect(match.pages.map((page) => [page.outcome, page.page_id])).toEqual([
      ['matched', 'page-1'],
      ['unrecognized', null],
      ['matched', 'page-2'],
      ['blank_back', 'page-2'],
    ]);
    expect(match.pages[1]!.detail).toMatch(/^Not matched: no code\./);
    expect(match.feedback.map((item) => item.back_page_number)).toEqual([null, null]);
  });

  it("refuses other congregations' pages, files not being graded or archived, codes never printed and other kinds; their backs too", () => {
    expect(outcomes(pages(['p', 'CCCC2222'], 'back', ['p', 'DDDD2222'], ['p', 'EEEE2222'], ['p', 'ZZZZ2222'], ['t', 'AAAA2222'], 'other_kind', 'unknown_code', 'blank'))).toEqual([
      ['wrong_congregation', null],
      ['unrecognized', null],
      ['not_sent', null],
      ['file_archived', null],
      ['unknown_code', null],
      ['other_kind', null],
      ['other_kind', null],
      ['unknown_code', null],
      ['blank', null],
    ]);
  });

  it('never takes a page whose code could not be read, or could not be read at all, as a back', () => {
    expect(outcomes(pages(['p', 'AAAA2222'], 'unreadable', ['p', 'BBBB2222'], 'error', 'back'))).toEqual([
      ['matched', 'page-1'],
      ['unrecognized', null],
      ['matched', 'page-2'],
      ['unreadable', null],
      ['unrecognized', null],
    ]);
  });

  it('keeps the later scan of a page scanned twice, dropping the earlier one with its back', () => {
    const input = pages(['p', 'AAAA2222'], 'back', ['p', 'BBBB2222'], 'blank', ['p', 'AAAA2222'], 'blank');
    const match = matchGradedPages(input, resolve, MINE);
    expect(match.pages.map((page) => page.outcome)).toEqual(['superseded', 'superseded', 'matched', 'blank_back', 'replaced', 'blank_back']);
    expect(match.pages[4]!.detail).toBe('Replaces the scan on page 1 of this upload.');
    expect(match.feedback).toEqual([
      { page_id: 'page-2', front_page_number: 3, back_page_number: null },
      { page_id: 'page-1', front_page_number: 5, back_page_number: null },
    ]);
  });
});

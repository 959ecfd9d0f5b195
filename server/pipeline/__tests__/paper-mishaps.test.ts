// Paper as programmes handle it, generated (tests/fixtures/paper-mishaps.ts), through the split:
// whatever happened to the stack, no page sits under another student's name without a flag, no
// student is made from a copy or from paper seen before, and every scanned page is accounted for.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mishapCaseArbitrary, programmeResolver, type MishapCase } from '../../../tests/fixtures/paper-mishaps';
import { matchGradedPages } from '../../domain/match-graded-pages';
import type { Code } from '../../domain/codes';
import type { PageReason } from '../../domain/page-reasons';
import { splitIntoSheets, type SplitResult } from '../../domain/split';

const resolve = programmeResolver();
const RUNS = Number(process.env.MISHAP_RUNS ?? 2500);

function run(c: MishapCase): SplitResult {
  return splitIntoSheets(
    c.pages.map((page, i) => ({
      page_number: i + 1,
      code: page.code,
      reason: page.reason,
      blank: page.blank,
      copy_of: page.copyOf === null ? null : page.copyOf + 1,
      seen_before: page.seenBefore,
    })),
    resolve,
    c.pageLength,
    { firstPageCover: false },
  );
}

/** Pages a lesson has in this test's programme (tests/fixtures/paper-mishaps.ts). */
const LESSON_PAGES: Record<string, number> = { I1: 1, I2: 2, L3: 3, M1: 2 };

/**
 * True when the scan's pages up to `upTo` (1-based) read, by their codes alone, as clean paper:
 * every sheet of blank masters runs 1..n of its lesson, and nothing is a copy, foreign, covered,
 * seen before, or a sheet left short.
 */
function readsAsCleanStack(c: MishapCase, upTo: number): boolean {
  let lesson: string | null = null;
  let next = 1;
  for (const page of c.pages.slice(0, upTo)) {
    // Blank backs, and copies the fingerprint sets aside, take no place in the stack.
    if (page.blank || page.copyOf !== null) continue;
    if (page.code === null || page.code.prefix !== 't') return false;
    const match = /^T(I1|I2|L3|M1)P(\d)/.exec(page.code.id);
    if (!match) return false;
    const [, lessonId, pageText] = match;
    const n = Number(pageText);
    if (n === 1) {
      if (lesson !== null && next <= LESSON_PAGES[lesson]!) return false;
      lesson = lessonId!;
      next = 2;
    } else if (lessonId !== lesson || n !== next) return false;
    else next++;
  }
  return true;
}

describe('paper mishaps through the split', () => {
  it(`never places a page under the wrong student without a flag (${RUNS} generated files)`, () => {
    fc.assert(
      fc.property(mishapCaseArbitrary(), (c) => {
        const result = run(c);
        // A file without a single code is a form without codes: cut by the count, nothing on
        // its paper can say a page is out of place (its pages are still all accounted for).
        const coded = c.pages.some((page) => page.code !== null && !page.blank && resolve(page.code) !== null);
        const truthOf = (pageNumber: number) => c.pages[pageNumber - 1]!.truth;

        // Every scanned page is accounted for, exactly once.
        const seen = [
          ...result.sheets.flatMap((sheet) => sheet.pages.map((p) => p.page_number)),
          ...result.ignored_pages.map((p) => p.page_number),
          ...(result.cover ? [result.cover.page_number] : []),
        ].sort((a, b) => a - b);
        expect(seen).toEqual(c.pages.map((_, i) => i + 1));

        if (!coded) return;
        const silentOwners = new Map<string, number>();
        /** Read by its codes, the scan up to this page looks like a clean stack: nothing could tell. */
        const looksClean = (pageNumber: number) => readsAsCleanStack(c, pageNumber);
        for (const sheet of result.sheets) {
          // Pages placed with certainty: no flag, or only the note that the sheet is short.
          const certain = sheet.pages.filter((p) => !p.ignored && (p.flag === null || p.flag === 'page_missing'));
          const owners = new Set(certain.map((p) => truthOf(p.page_number).owner));
          for (const p of certain) {
            const truth = truthOf(p.page_number);
            // A copy or foreign paper is never placed silently.
            expect(truth.copy, `page ${p.page_number} is a copy`).toBe(false);
            // A sheet naming no student waits in Review for one (missing student): only a sheet
            // with a student, or one that makes one, must hold nobody else's paper.
            if (sheet.student_id !== null || sheet.new_student) expect(truth.owner, `page ${p.page_number} is foreign paper`).not.toBeNull();
            if (sheet.student_id !== null) expect(truth.owner).toBe(sheet.student_id);
          }
          // One sheet, one student: its certain pages are all the same person's, unless the stack
          // up to the stranger's page reads exactly like clean paper (two stacks swapped whole).
          const [firstOwner] = owners;
          // A sheet naming no student waits in Review for one: a person names it, page by page.
          if (sheet.student_id !== null || sheet.new_student)
          for (const p of certain)
            if (truthOf(p.page_number).owner !== firstOwner)
              expect(looksClean(p.page_number), `page ${p.page_number} of ${truthOf(p.page_number).owner} among ${firstOwner}'s`).toBe(true);
          if (sheet.new_student) {
            // No student is made from paper seen before, nor silently given it.
            const first = sheet.pages.find((p) => !p.ignored)!;
            expect(truthOf(first.page_number).rescan, `page ${first.page_number} was seen before`).toBe(false);
            for (const p of certain) expect(truthOf(p.page_number).rescan).toBe(false);
            // Two silent new students from one person's paper is a phantom student.
            const silent = sheet.pages.every((p) => p.flag === null);
            const owner = firstOwner;
            if (silent && owner && owners.size === 1) {
              silentOwners.set(owner, (silentOwners.get(owner) ?? 0) + 1);
              expect(silentOwners.get(owner), `student ${owner} made twice`).toBe(1);
            }
          }
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('flags the stack knocked over: A1 B1 A2 B2', () => {
    const result = run({
      pageLength: 2,
      mishaps: ['interleave'],
      pages: ['new0', 'new1', 'new0', 'new1'].map((owner, i) => ({
        code: { prefix: 't', id: `TI2P${i < 2 ? 1 : 2}`.padEnd(8, 'Z') },
        reason: null,
        blank: false,
        copyOf: null,
        seenBefore: null,
        truth: { owner, lessonPage: i < 2 ? 1 : 2, paper: `p${i}`, copy: false, rescan: false },
      })),
    });
    expect(result.sheets.map((s) => s.pages.map((p) => `${p.page_number}${p.flag ? `!${p.flag}` : ''}`))).toEqual([
      ['1', '4!ambiguous_position'],
      ['2', '3!ambiguous_position'],
    ]);
    // Each page 2 names both sheets it could belong to.
    expect(result.sheets[1]!.pages[1]!.detail).toEqual({ candidates: [0, 1] });
  });

  it('makes no second student from a double feed, and none from a rescanned page', () => {
    const page = (id: string, copyOf: number | null, seenBefore: { student_id: string | null } | null) => ({
      code: { prefix: 't' as const, id: id.padEnd(8, 'Z') },
      reason: null,
      blank: false,
      copyOf,
      seenBefore,
      truth: { owner: 'x', lessonPage: 1, paper: 'p', copy: copyOf !== null, rescan: seenBefore !== null },
    });
    const doubled = run({ pageLength: 1, mishaps: ['double_feed'], pages: [page('TI1P1', null, null), page('TI1P1', 0, null)] });
    expect(doubled.sheets).toHaveLength(1);
    expect(doubled.sheets[0]!.pages.map((p) => p.flag)).toEqual([null, 'scanned_twice']);
    const rescanned = run({ pageLength: 1, mishaps: ['rescan'], pages: [page('TI1P1', null, { student_id: 'old7' })] });
    expect(rescanned.sheets[0]).toMatchObject({ new_student: false, student_id: 'old7' });
    expect(rescanned.sheets[0]!.pages[0]!.flag).toBe('already_uploaded');
  });
});

describe('paper mishaps through the matching of graded uploads', () => {
  // Graded packet pages: p codes P0..Pn of this congregation's packet, each printed on its own
  // sheet of paper whose back is blank or carries the helper's writing.
  interface Sheet {
    front: { code: Code | null; reason: PageReason | null; original: string | null };
    back: 'blank' | 'writing';
  }
  const sheetArbitrary = fc.record({
    original: fc.integer({ min: 0, max: 30 }).map((n) => `page${n}`),
    covered: fc.boolean(),
    foreign: fc.constantFrom(null, 'letter', 'other_congregation'),
    back: fc.constantFrom<'blank' | 'writing'>('blank', 'writing'),
  });

  it(`never keeps a scan as another page's graded front or back (${RUNS} generated uploads)`, () => {
    fc.assert(
      fc.property(fc.array(sheetArbitrary, { minLength: 1, maxLength: 8 }), fc.boolean(), (drawn, duplex) => {
        const sheets: Sheet[] = drawn.map((d) => ({
          front:
            d.foreign === 'letter'
              ? { code: null, reason: 'no_code_found', original: null }
              : d.covered
                ? { code: null, reason: 'no_code_found', original: d.foreign ? null : d.original }
                : { code: { prefix: 'p', id: `${d.foreign ? 'X' : 'P'}${d.original}`.slice(0, 8).padEnd(8, 'Z') }, reason: null, original: d.foreign ? null : d.original },
          back: d.back,
        }));
        // Scanned one-sided: fronts only. Two-sided: each front, then its back.
        const scan = sheets.flatMap((sheet) => {
          // Every front carries the packet's printed header; a back never does.
          const front = { ...sheet.front, blank: false, printed: true, truth: sheet.front.original };
          if (!duplex) return [front];
          return [front, { code: null, reason: 'no_code_found' as PageReason, blank: sheet.back === 'blank', printed: false, truth: sheet.front.original, original: null }];
        });
        const result = matchGradedPages(
          scan.map((page, i) => ({ page_number: i + 1, code: page.code, reason: page.reason, blank: page.blank, read_error: null, printed_header: page.printed })),
          (code) =>
            code.id.startsWith('X')
              ? { page_id: code.id, congregation_id: 'another', open_for_grading: true, archived: false }
              : { page_id: code.id.replace(/Z+$/, '').slice(1), congregation_id: 'ours', open_for_grading: true, archived: false },
          'ours',
        );
        for (const page of result.pages) {
          if (!['matched', 'replaced', 'back'].includes(page.outcome)) continue;
          // A kept scan is of the original page it is kept for (a back: the back of that paper).
          expect(page.page_id, `page ${page.page_number} (${page.outcome})`).toBe(scan[page.page_number - 1]!.truth);
        }
      }),
      { numRuns: RUNS },
    );
  });
});

import { describe, expect, it } from 'vitest';
import type { Code } from '../codes';
import type { PageReason } from '../page-reasons';
import {
  splitIntoSheets,
  type AnswerSheetPageLength,
  type ResolvedCode,
  type SplitPageInput,
  type SplitResult,
} from '../split';

// A tiny world: lessons L1 (2 pages) and L2 (2 pages) of course K1, M1 of course K2, students A
// and B, one service center.
const meanings = new Map<string, ResolvedCode>();
const code = (prefix: Code['prefix'], id: string, meaning?: ResolvedCode): Code => {
  if (meaning) meanings.set(`${prefix}/${id}`, meaning);
  return { prefix, id };
};
const resolve = (c: Code) => meanings.get(`${c.prefix}/${c.id}`) ?? null;
const issued = (student: string | null, lesson: string, page: number) =>
  code(student ? 's' : 't', `${student ?? 'T'}${lesson}P${page}`.padEnd(8, 'Z'), {
    kind: 'sheet_page',
    student_id: student,
    lesson_id: lesson,
    lesson_page_number: page,
    course_id: lesson.startsWith('M') ? 'K2' : 'K1',
  });
const COVER = code('c', 'COVERAAA', { kind: 'cover', service_center_id: 'sc-1' });
const COVER2 = code('c', 'COVERBBB', { kind: 'cover', service_center_id: 'sc-2' });
const UNKNOWN = code('t', 'NOTINDBZ');

/**
 * Pages from short tokens: `A.L1.1` student A lesson L1 page 1 (s code), `T.L1.2` blank master
 * (t code), `C` / `C2` cover codes, `_` blank, `?` no code found, `!` unreadable, `~` foreign QR
 * (unknown_code), `p` a code of another kind, `x` a code the database does not know.
 */
function pages(...tokens: string[]): SplitPageInput[] {
  return tokens.map((token, index) => {
    const page_number = index + 1;
    const none = (reason: PageReason): SplitPageInput => ({
      page_number,
      code: null,
      reason,
      blank: false,
    });
    switch (token) {
      case '_':
        return { page_number, code: null, reason: 'no_code_found', blank: true };
      case '?':
        return none('no_code_found');
      case '!':
        return none('unreadable');
      case '~':
        return none('unknown_code');
      case 'p':
        return none('other_kind');
      case 'x':
        return { page_number, code: UNKNOWN, reason: null, blank: false };
      case 'C':
        return { page_number, code: COVER, reason: null, blank: false };
      case 'C2':
        return { page_number, code: COVER2, reason: null, blank: false };
      default: {
        const [student, lesson, page] = token.split('.');
        return {
          page_number,
          code: issued(student === 'T' ? null : student!, lesson!, Number(page)),
          reason: null,
          blank: false,
        };
      }
    }
  });
}

/** Sheets as compact strings: `A/L1: 1 2 3i 4u(unreadable)` (i ignored, u unrecognized). */
function describeSplit(result: SplitResult): string[] {
  const sheets = result.sheets.map((sheet) => {
    const who = `${sheet.new_student ? 'new' : (sheet.student_id ?? '-')}/${sheet.lesson_id ?? '-'}`;
    const list = sheet.pages
      .map(
        (p) => `${p.page_number}${p.ignored ? 'i' : ''}${p.unrecognized ? `u(${p.reason})` : ''}`,
      )
      .join(' ');
    return `${who}: ${list}`;
  });
  const cover = result.cover
    ? [`cover ${result.cover.page_number} ${result.cover.service_center_id ?? '-'}`]
    : [];
  const ignored = result.ignored_pages.map((p) => `ignored ${p.page_number} ${p.reason}`);
  return [...sheets, ...cover, ...ignored];
}

const split = (length: AnswerSheetPageLength, tokens: string[], options = {}) =>
  describeSplit(splitIntoSheets(pages(...tokens), resolve, length, options));

describe('split by codes (page length 0)', () => {
  it('keeps consecutive pages of one student and lesson together', () => {
    expect(split(0, ['C', 'A.L1.1', 'A.L1.2', 'B.L1.1', 'B.L1.2'])).toEqual([
      'A/L1: 2 3',
      'B/L1: 4 5',
      'cover 1 sc-1',
    ]);
  });

  it('starts a new sheet at page 1, even for the same student and lesson', () => {
    expect(split(0, ['A.L1.1', 'A.L1.2', 'A.L1.1', 'A.L1.2'])).toEqual(['A/L1: 1 2', 'A/L1: 3 4']);
  });

  it('starts a new sheet at a change of student or of lesson, whatever the page number', () => {
    expect(split(0, ['A.L1.1', 'B.L1.2', 'B.L2.2', 'A.L2.2'])).toEqual([
      'A/L1: 1',
      'B/L1: 2',
      'B/L2: 3',
      'A/L2: 4',
    ]);
  });

  it('separates blank-master sheets of two students when a page number repeats or goes back', () => {
    // No student on `t` codes: page 2 after page 2 can only be the next student's sheet.
    expect(split(0, ['T.L1.1', 'T.L1.2', 'T.L1.2', 'T.L1.1', 'T.L1.2'])).toEqual([
      '-/L1: 1 2',
      '-/L1: 3',
      '-/L1: 4 5',
    ]);
  });

  it('joins a page without code to the sheet before it, flagged with its reason', () => {
    const result = splitIntoSheets(pages('A.L1.1', '!', 'A.L1.2', '?', '~', 'p', 'x'), resolve, 0);
    expect(describeSplit(result)).toEqual([
      'A/L1: 1 2u(unreadable) 3 4u(no_code_found) 5u(unknown_code) 6u(other_kind) 7u(unknown_code)',
    ]);
    expect(result.sheets[0]!.unrecognized_pages).toBe(5);
    expect(result.sheets[0]!.pages.map((p) => p.lesson_page_number)).toEqual([
      1,
      null,
      2,
      null,
      null,
      null,
      null,
    ]);
  });

  it('starts an unrecognized sheet when no sheet comes before, and leaves it at the next code', () => {
    expect(split(0, ['C', '!', '?', 'A.L1.1'])).toEqual([
      '-/-: 2u(unreadable) 3u(no_code_found)',
      'A/L1: 4',
      'cover 1 sc-1',
    ]);
    const result = splitIntoSheets(pages('C', '!', '?', 'A.L1.1'), resolve, 0);
    expect(result.sheets[0]).toMatchObject({
      student_id: null,
      lesson_id: null,
      new_student: false,
      unrecognized_pages: 2,
    });
  });

  it('makes a first page without any code the cover when the file has no cover code', () => {
    expect(split(0, ['?', 'A.L1.1', 'A.L1.2'])).toEqual(['A/L1: 2 3', 'cover 1 -']);
    expect(split(0, ['_', '?', 'A.L1.1'])).toEqual(['A/L1: 3', 'cover 2 -', 'ignored 1 blank']);
  });

  it('never takes an unreadable or foreign first page for the cover', () => {
    expect(split(0, ['!', 'A.L1.1'])).toEqual(['-/-: 1u(unreadable)', 'A/L1: 2']);
    expect(split(0, ['~', 'A.L1.1'])).toEqual(['-/-: 1u(unknown_code)', 'A/L1: 2']);
    expect(split(0, ['x', 'A.L1.1'])).toEqual(['-/-: 1u(unknown_code)', 'A/L1: 2']);
  });

  it('prefers a cover code anywhere in the file over a code-less first page', () => {
    expect(split(0, ['?', 'A.L1.1', 'C'])).toEqual([
      '-/-: 1u(no_code_found)',
      'A/L1: 2',
      'cover 3 sc-1',
    ]);
  });

  it('can be told not to take a code-less first page for the cover', () => {
    expect(split(0, ['?', 'A.L1.1'], { firstPageCover: false })).toEqual([
      '-/-: 1u(no_code_found)',
      'A/L1: 2',
    ]);
  });

  it('keeps a cover page out of sheets and ends the sheet before it', () => {
    expect(split(0, ['A.L1.1', 'C', '?', 'A.L1.2'])).toEqual([
      'A/L1: 1',
      '-/-: 3u(no_code_found)',
      'A/L1: 4',
      'cover 2 sc-1',
    ]);
  });

  it('ignores a second cover sheet', () => {
    expect(split(0, ['C', 'A.L1.1', 'C2', 'B.L1.1'])).toEqual([
      'A/L1: 2',
      'B/L1: 4',
      'cover 1 sc-1',
      'ignored 3 extra_cover',
    ]);
  });

  it('keeps blank pages as ignored pages of the sheet they follow, never starting one', () => {
    expect(split(0, ['A.L1.1', '_', 'A.L1.2', '_', 'B.L1.1', '_'])).toEqual([
      'A/L1: 1 2i 3 4i',
      'B/L1: 5 6i',
    ]);
  });

  it('keeps blank pages that belong to no sheet as ignored pages of the file', () => {
    expect(split(0, ['_', 'C', '_', 'A.L1.1'])).toEqual([
      'A/L1: 4',
      'cover 2 sc-1',
      'ignored 1 blank',
      'ignored 3 blank',
    ]);
  });

  it('does not count a blank page as a sheet page after an unrecognized one', () => {
    const result = splitIntoSheets(pages('A.L1.1', '!', '_'), resolve, 0);
    expect(describeSplit(result)).toEqual(['A/L1: 1 2u(unreadable) 3i']);
    expect(result.sheets[0]!.unrecognized_pages).toBe(1);
  });

  it('sorts pages by page number first', () => {
    const input = pages('C', 'A.L1.1', 'A.L1.2').reverse();
    expect(describeSplit(splitIntoSheets(input, resolve, 0))).toEqual([
      'A/L1: 2 3',
      'cover 1 sc-1',
    ]);
  });

  it('returns nothing for an empty file', () => {
    expect(splitIntoSheets([], resolve, 0)).toEqual({ sheets: [], cover: null, ignored_pages: [] });
  });
});

describe('fixed-length intro sheets (page length 1 and 2)', () => {
  it('makes every non-blank page a new student with page length 1', () => {
    const result = splitIntoSheets(pages('C', '?', '_', '!', '?'), resolve, 1);
    // Every page without a code keeps its reason; with no code in the whole file, none is flagged.
    expect(describeSplit(result)).toEqual([
      'new/-: 2u(no_code_found) 3i',
      'new/-: 4u(unreadable)',
      'new/-: 5u(no_code_found)',
      'cover 1 sc-1',
    ]);
    expect(result.sheets.every((s) => s.new_student && s.student_id === null)).toBe(true);
    expect(result.sheets.flatMap((s) => s.pages).every((p) => p.flag === null)).toBe(true);
  });

  it('groups two non-blank pages per sheet with page length 2, blank pages not counting', () => {
    expect(split(2, ['?', '_', '?', '_', '?', '?', '?'])).toEqual([
      'new/-: 1u(no_code_found) 2i 3u(no_code_found) 4i',
      'new/-: 5u(no_code_found) 6u(no_code_found)',
      'new/-: 7u(no_code_found)',
    ]);
  });

  it('takes only a cover code as the cover, never a code-less first page', () => {
    expect(split(1, ['?', '?'])).toEqual(['new/-: 1u(no_code_found)', 'new/-: 2u(no_code_found)']);
    expect(split(2, ['_', 'C', '_', '?', '?'])).toEqual([
      'new/-: 4u(no_code_found) 5u(no_code_found)',
      'cover 2 sc-1',
      'ignored 1 blank',
      'ignored 3 blank',
    ]);
  });

  it('starts a fresh sheet after a cover in the middle', () => {
    expect(split(2, ['?', 'C', '?', '?'])).toEqual([
      'new/-: 1u(no_code_found)',
      'new/-: 3u(no_code_found) 4u(no_code_found)',
      'cover 2 sc-1',
    ]);
  });

  it('takes the lesson from a sheet-page code when the intro sheet carries one', () => {
    const result = splitIntoSheets(pages('T.L1.1', 'T.L1.2', '?', 'x'), resolve, 2);
    expect(describeSplit(result)).toEqual(['new/L1: 1 2', 'new/-: 3u(no_code_found) 4u(unknown_code)']);
    expect(result.sheets[0]!.pages.map((p) => p.lesson_page_number)).toEqual([1, 2]);
  });
});

/** Sheets with their pages' flags: `new/L1: 1 2!no_code_found`. */
function describeFlags(result: SplitResult): string[] {
  return result.sheets.map((sheet) => {
    const who = `${sheet.new_student ? 'new' : (sheet.student_id ?? '-')}/${sheet.lesson_id ?? '-'}`;
    return `${who}: ${sheet.pages.map((p) => `${p.page_number}${p.flag ? `!${p.flag}` : ''}`).join(' ')}`;
  });
}
const flags = (length: AnswerSheetPageLength, tokens: string[]) =>
  describeFlags(splitIntoSheets(pages(...tokens), resolve, length));

describe('the paper wins over the count: a page that does not fit is flagged, never joined silently', () => {
  it('keeps a stray page between two intro students to itself, so the students after it are not shifted', () => {
    // The stray page may be a page 1 whose codes are covered: every page 2 after it is a guess.
    expect(flags(2, ['T.L1.1', 'T.L1.2', '?', 'T.L1.1', 'T.L1.2', 'T.L1.1', 'T.L1.2'])).toEqual([
      'new/L1: 1 2',
      'new/-: 3!stray_page',
      'new/L1: 4 5!ambiguous_position',
      'new/L1: 6 7!ambiguous_position',
    ]);
  });

  it('flags a page 2 that comes before its page 1', () => {
    // Sheet 4 is left short, so page 6 could be its page 2 as well as page 5's.
    expect(flags(2, ['T.L1.1', 'T.L1.2', 'T.L1.2', 'T.L1.1', 'T.L1.1', 'T.L1.2'])).toEqual([
      'new/L1: 1 2',
      'new/L1: 3!out_of_order',
      'new/L1: 4!page_missing',
      'new/L1: 5 6!ambiguous_position',
    ]);
    expect(flags(2, ['T.L1.2', 'T.L1.1'])).toEqual(['new/L1: 1!out_of_order', 'new/L1: 2!page_missing']);
  });

  it('flags the page 2 before a sheet left short: it may be that sheet\'s, fed in reverse order', () => {
    // A1 A2 B1 and A1 B2 B1 read the same: either A or B lost a page 2.
    expect(flags(2, ['T.L1.1', 'T.L1.2', 'T.L1.1'])).toEqual(['new/L1: 1 2!ambiguous_position', 'new/L1: 3!page_missing']);
    expect(flags(2, ['T.L1.1', 'T.L1.2', '_', 'T.L1.1', 'T.L1.1', 'T.L1.2'])).toEqual([
      'new/L1: 1 2!ambiguous_position 3',
      'new/L1: 4!page_missing',
      'new/L1: 5 6!ambiguous_position',
    ]);
    // A sheet whose first page is not surely a page 1 owns nothing before it.
    expect(flags(2, ['T.L1.1', 'T.L1.2', '?'])).toEqual(['new/L1: 1 2', 'new/-: 3!stray_page']);
  });

  it('flags a page whose codes are covered, where a code was expected', () => {
    // Page 2 covered: it stays with its page 1, flagged.
    expect(flags(2, ['T.L1.1', '?', 'T.L1.1', 'T.L1.2'])).toEqual(['new/L1: 1 2!no_code_found', 'new/L1: 3 4!ambiguous_position']);
    // Page 1 covered: the page 2 after it goes with it, flagged too (the covered page may be a letter).
    expect(flags(2, ['T.L1.1', 'T.L1.2', '!', 'T.L1.2'])).toEqual(['new/L1: 1 2', 'new/L1: 3!unreadable 4!ambiguous_position']);
    expect(flags(1, ['T.L1.1', '?', 'T.L1.1'])).toEqual(['new/L1: 1', 'new/-: 2!no_code_found', 'new/L1: 3']);
  });

  it('flags a page beyond the sheet length and a page of another course', () => {
    expect(flags(2, ['T.L1.1', 'T.L1.2', 'T.L1.3', 'T.L1.1'])).toEqual(['new/L1: 1 2', 'new/L1: 3!stray_page', 'new/L1: 4!page_missing']);
    expect(flags(2, ['T.L1.1', 'T.L1.2', 'T.M1.1', 'T.M1.2', 'T.L1.1'])).toEqual([
      'new/L1: 1 2',
      'new/M1: 3!another_course 4!ambiguous_position',
      'new/L1: 5!page_missing',
    ]);
    expect(flags(2, ['T.L1.1', 'T.M1.2'])).toEqual(['new/L1: 1!page_missing', 'new/M1: 2!another_course']);
  });

  it('places an issued page by its student in an intro file, never in a new student', () => {
    expect(flags(2, ['T.L1.1', 'T.L1.2', 'A.L2.1', 'A.L2.2', 'T.L1.1'])).toEqual(['new/L1: 1 2', 'A/L2: 3 4', 'new/L1: 5!page_missing']);
  });

  it('by codes, flags a sheet that starts after page 1 and a page number that skips', () => {
    expect(flags(0, ['T.L1.2', 'T.L1.1', 'T.L1.3'])).toEqual(['-/L1: 1!out_of_order', '-/L1: 2 3!ambiguous_position']);
    expect(flags(0, ['A.L1.1', 'B.L1.2'])).toEqual(['A/L1: 1', 'B/L1: 2!out_of_order']);
    expect(flags(0, ['A.L1.1', '?', 'B.L1.1'])).toEqual(['A/L1: 1 2!no_code_found', 'B/L1: 3']);
  });

  it("by codes, keeps one student's pages in reverse order together, flagged", () => {
    expect(flags(0, ['A.L1.2', 'A.L1.1', 'B.L1.1'])).toEqual(['A/L1: 1!out_of_order 2!out_of_order', 'B/L1: 3']);
  });

  it('does not flag a clean file', () => {
    expect(flags(2, ['C', 'T.L1.1', 'T.L1.2', '_', 'T.L1.1', '_', 'T.L1.2'])).toEqual(['new/L1: 2 3 4', 'new/L1: 5 6 7']);
    expect(flags(0, ['C', 'A.L1.1', 'A.L1.2', 'B.L2.1', 'B.L2.2'])).toEqual(['A/L1: 2 3', 'B/L2: 4 5']);
  });
});

describe('every page ends up exactly once', () => {
  it('holds for random files in every mode', () => {
    const tokens = [
      'A.L1.1',
      'A.L1.2',
      'B.L1.1',
      'B.L2.2',
      'T.L1.1',
      'T.L1.2',
      'C',
      'C2',
      '_',
      '_',
      '?',
      '!',
      '~',
      'p',
      'x',
    ];
    let seed = 12345;
    const random = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x80000000;
    };
    for (let run = 0; run < 500; run++) {
      const length = Math.floor(random() * 14);
      const file = pages(
        ...Array.from({ length }, () => tokens[Math.floor(random() * tokens.length)]!),
      );
      for (const mode of [0, 1, 2] as const) {
        const result = splitIntoSheets(file, resolve, mode);
        const seen = [
          ...result.sheets.flatMap((s) => s.pages.map((p) => p.page_number)),
          ...result.ignored_pages.map((p) => p.page_number),
          ...(result.cover ? [result.cover.page_number] : []),
        ].sort((a, b) => a - b);
        expect(seen).toEqual(file.map((p) => p.page_number));
        for (const sheet of result.sheets) {
          // A sheet never starts with (or consists only of) blank pages.
          expect(sheet.pages[0]!.ignored).toBe(false);
          expect(sheet.unrecognized_pages).toBe(sheet.pages.filter((p) => p.unrecognized).length);
          if (mode !== 0)
            expect(sheet.pages.filter((p) => !p.ignored).length).toBeLessThanOrEqual(mode);
          // Sheet pages stay in file order.
          const numbers = sheet.pages.map((p) => p.page_number);
          expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
          // No page joins a sheet silently unless its code says it belongs there: a page 1 only
          // starts a sheet, pages of two students never share one, and in a file with codes
          // every page without one waits for a person.
          const kept = sheet.pages.filter((p) => !p.ignored);
          kept.slice(1).forEach((p) => {
            if (p.lesson_page_number === 1 || (p.lesson_page_number === null && mode === 0)) expect(p.flag).not.toBeNull();
          });
          for (const p of kept) if (p.reason !== null) expect(p.unrecognized).toBe(true);
        }
        const codesInFile = file.some((p) => !p.blank && p.code !== null && resolve(p.code)?.kind === 'sheet_page');
        for (const p of result.sheets.flatMap((s) => s.pages)) {
          if (!p.ignored && p.lesson_page_number === null && codesInFile) expect(p.flag).not.toBeNull();
        }
        for (const sheet of result.sheets) {
          const students = new Set(
            sheet.pages.flatMap((p) => {
              const input = file.find((f) => f.page_number === p.page_number)!;
              const meaning = input.code ? resolve(input.code) : null;
              return meaning?.kind === 'sheet_page' && meaning.student_id !== null ? [meaning.student_id] : [];
            }),
          );
          expect(students.size).toBeLessThanOrEqual(1);
        }
      }
    }
  });
});

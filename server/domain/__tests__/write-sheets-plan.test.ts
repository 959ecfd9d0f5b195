// The write-sheets plan on plain values: a few files written out by hand, then random files run
// through the real split, checking what must hold whatever the file.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Code } from '../codes';
import { splitIntoSheets, type AnswerSheetPageLength, type ResolvedCode, type SplitResult, type SplitSheet } from '../split';
import { planWriteSheets, studentsNamedBySplit, type WriteSheetsFacts } from '../write-sheets-plan';

const sheet = (student_id: string | null, lesson_id: string | null, pageNumbers: number[], new_student = false): SplitSheet => ({
  student_id,
  lesson_id,
  new_student,
  unrecognized_pages: 0,
  pages: pageNumbers.map((page_number) => ({ page_number, lesson_page_number: 1, ignored: false, unrecognized: false, reason: null, flag: null })),
});

const facts = (split: SplitResult, more: Partial<WriteSheetsFacts> = {}): WriteSheetsFacts => {
  const numbers = [...split.sheets.flatMap((s) => s.pages.map((p) => p.page_number)), ...split.ignored_pages.map((p) => p.page_number)];
  if (split.cover) numbers.push(split.cover.page_number);
  return {
    fileId: 'file-1',
    pages: numbers.map((page_number) => ({ id: `page-${page_number}`, page_number, code: null })),
    split,
    templateOfPage: new Map(),
    copyOf: new Map(),
    seenBefore: new Map(),
    congregationOf: new Map(),
    firstSheetOf: new Map(),
    ...more,
  };
};

describe('the write-sheets plan, by example', () => {
  it('brings one new student per intro sheet, in order, with no congregation', () => {
    const plan = planWriteSheets(facts({ sheets: [sheet(null, 'lesson-1', [1], true), sheet(null, 'lesson-1', [2], true)], cover: null, ignored_pages: [] }));
    expect(plan.newStudents).toBe(2);
    expect(plan.sheets).toEqual([
      { student: { new: 0 }, lesson_id: 'lesson-1', assigned_group: null, duplicate_of: null },
      { student: { new: 1 }, lesson_id: 'lesson-1', assigned_group: null, duplicate_of: null },
    ]);
    expect(plan.activeStudents).toEqual([]);
  });

  it('gives a known student’s sheets their congregation and marks repeats of a lesson as duplicates', () => {
    const split = { sheets: [sheet('ann', 'lesson-1', [1]), sheet('ann', 'lesson-1', [2]), sheet('bob', 'lesson-2', [3])], cover: null, ignored_pages: [] };
    const plan = planWriteSheets(
      facts(split, { congregationOf: new Map([['ann', 'north'], ['bob', null]]), firstSheetOf: new Map([['bob/lesson-2', 'earlier-sheet']]) }),
    );
    expect(plan.newStudents).toBe(0);
    expect(plan.sheets).toEqual([
      { student: { existing: 'ann' }, lesson_id: 'lesson-1', assigned_group: 'north', duplicate_of: null },
      { student: { existing: 'ann' }, lesson_id: 'lesson-1', assigned_group: 'north', duplicate_of: { sheet: 0 } },
      { student: { existing: 'bob' }, lesson_id: 'lesson-2', assigned_group: null, duplicate_of: { existing: 'earlier-sheet' } },
    ]);
    expect(plan.activeStudents).toEqual(['ann', 'bob']);
  });

  it('leaves a sheet without a student when its code names one who no longer exists', () => {
    const plan = planWriteSheets(facts({ sheets: [sheet('gone', 'lesson-1', [1])], cover: null, ignored_pages: [] }));
    expect(plan.sheets).toEqual([{ student: null, lesson_id: 'lesson-1', assigned_group: null, duplicate_of: null }]);
    expect(plan.activeStudents).toEqual(['gone']);
  });

  it('places the cover and pages set aside on no sheet; an unread photo keeps its reason in view', () => {
    const split: SplitResult = {
      sheets: [sheet(null, 'lesson-1', [2])],
      cover: { page_number: 1, service_center_id: 'center-9' },
      ignored_pages: [
        { page_number: 3, reason: 'blank' },
        { page_number: 4, reason: 'too_blurred' },
      ],
    };
    const plan = planWriteSheets(facts(split, { templateOfPage: new Map([[2, 'template-2']]) }));
    expect(plan.cover).toEqual({ page_id: 'page-1', service_center_id: 'center-9' });
    expect(plan.pages).toEqual([
      { page_number: 2, sheet: 0, template_id: 'template-2', ignored: false, reason: null, flag: null, detail: null },
      { page_number: 3, sheet: null, template_id: null, ignored: true, reason: null, flag: null, detail: null },
      { page_number: 4, sheet: null, template_id: null, ignored: false, reason: 'too_blurred', flag: 'too_blurred', detail: null },
      { page_number: 1, sheet: null, template_id: null, ignored: false, reason: null, flag: null, detail: null },
    ]);
  });

  it('keeps where the paper was seen before, and the sheets a page could belong to, in its flag detail', () => {
    const first = sheet(null, 'lesson-1', [1]);
    const second = sheet(null, 'lesson-1', [2, 3]);
    second.pages[1] = { ...second.pages[1]!, unrecognized: true, reason: 'unreadable', flag: 'ambiguous_position', detail: { candidates: [0, 1] } };
    const plan = planWriteSheets(
      facts(
        { sheets: [first, second], cover: null, ignored_pages: [] },
        {
          templateOfPage: new Map([[3, 'template-3']]),
          copyOf: new Map([[2, 1]]),
          seenBefore: new Map([[1, { page_id: 'old-page', file_id: 'old-file' }]]),
        },
      ),
    );
    expect(plan.pages).toEqual([
      { page_number: 1, sheet: 0, template_id: null, ignored: false, reason: null, flag: null, detail: { copy_page_id: 'old-page', copy_file_id: 'old-file' } },
      { page_number: 2, sheet: 1, template_id: null, ignored: false, reason: null, flag: null, detail: { copy_page_id: 'page-1', copy_file_id: 'file-1' } },
      { page_number: 3, sheet: 1, template_id: null, ignored: false, reason: 'unreadable', flag: 'ambiguous_position', detail: { candidate_sheets: [0, 1] } },
    ]);
  });
});

// Random files: codes from a small pool (template pages of two lessons, issued pages of three
// students, a cover), some unknown or unread, blank backs, double feeds, rescans.
const STUDENTS = ['ann', 'bob', 'cid'];
const LESSONS = ['lesson-a', 'lesson-b'];
const codeArb = fc.oneof(
  fc.record({ prefix: fc.constant('t' as const), id: fc.constantFrom('TA1', 'TA2', 'TB1', 'TB2', 'UNKNOWN') }),
  fc.record({ prefix: fc.constant('s' as const), id: fc.constantFrom(...STUDENTS.flatMap((s) => [`${s}:A1`, `${s}:A2`, `${s}:B1`])) }),
  fc.record({ prefix: fc.constant('c' as const), id: fc.constant('C1') }),
);
const pageArb = fc.record({
  code: fc.option(codeArb, { nil: null }),
  blank: fc.boolean(),
  reason: fc.constantFrom(null, 'no_code_found' as const, 'unreadable' as const, 'too_blurred' as const),
});
const fileArb = fc.record({
  pages: fc.array(pageArb, { minLength: 1, maxLength: 14 }),
  pageLength: fc.constantFrom<AnswerSheetPageLength>(0, 1, 2),
  copies: fc.array(fc.tuple(fc.nat(13), fc.nat(13)), { maxLength: 3 }),
  existing: fc.subarray(STUDENTS),
  earlier: fc.subarray(STUDENTS.flatMap((s) => LESSONS.map((l) => `${s}/${l}`))),
});

function resolve(code: Code): ResolvedCode | null {
  if (code.prefix === 'c') return { kind: 'cover', service_center_id: 'center-1' };
  if (code.prefix === 't' && code.id !== 'UNKNOWN')
    return { kind: 'sheet_page', student_id: null, lesson_id: `lesson-${code.id[1]!.toLowerCase()}`, lesson_page_number: Number(code.id[2]), course_id: 'course' };
  if (code.prefix === 's') {
    const [student, page] = code.id.split(':') as [string, string];
    return { kind: 'sheet_page', student_id: student, lesson_id: `lesson-${page[0]!.toLowerCase()}`, lesson_page_number: Number(page[1]), course_id: 'course' };
  }
  return null;
}

describe('the write-sheets plan, at random', () => {
  it('places every page once, on an existing sheet, and never under a student other than its code names', () => {
    fc.assert(
      fc.property(fileArb, (file) => {
        const inputs = file.pages.map((page, index) => ({
          page_number: index + 1,
          code: page.code,
          reason: page.code === null ? page.reason : null,
          blank: page.blank && page.code === null,
          copy_of: file.copies.find(([page_index, of]) => page_index === index && of < index)?.[1] ?? null,
        }));
        const split = splitIntoSheets(
          inputs.map((input) => ({ ...input, copy_of: input.copy_of === null ? null : input.copy_of + 1 })),
          resolve,
          file.pageLength,
        );
        const plan = planWriteSheets({
          fileId: 'file-1',
          pages: inputs.map((input) => ({ id: `page-${input.page_number}`, page_number: input.page_number, code: input.code })),
          split,
          templateOfPage: new Map(inputs.flatMap((input) => (input.code && resolve(input.code)?.kind === 'sheet_page' ? [[input.page_number, `template-${input.code.id}`]] : []))),
          copyOf: new Map(inputs.flatMap((input) => (input.copy_of === null ? [] : [[input.page_number, input.copy_of + 1]]))),
          seenBefore: new Map(),
          congregationOf: new Map(file.existing.map((student) => [student, `congregation-of-${student}`])),
          firstSheetOf: new Map(file.earlier.map((key) => [key, `earlier-${key}`])),
        });

        // Every page of the file is placed exactly once.
        expect(plan.pages.map((page) => page.page_number).sort((a, b) => a - b)).toEqual(inputs.map((input) => input.page_number));
        for (const page of plan.pages) if (page.sheet !== null) expect(page.sheet).toBeLessThan(plan.sheets.length);

        // A page placed with certainty (no flag for Review) never lands under a student other than
        // the one its code names.
        for (const page of plan.pages) {
          const meaning = inputs[page.page_number - 1]!.code === null ? null : resolve(inputs[page.page_number - 1]!.code!);
          if (page.sheet === null || page.reason !== null || page.flag !== null || meaning?.kind !== 'sheet_page' || meaning.student_id === null) continue;
          const student = plan.sheets[page.sheet]!.student;
          if (student !== null) expect(student).toEqual({ existing: meaning.student_id });
        }

        // Sheets belong to students who exist or whom the file brings, each brought once.
        const brought = plan.sheets.flatMap((s) => (s.student !== null && 'new' in s.student ? [s.student.new] : []));
        expect(brought).toEqual([...Array(plan.newStudents).keys()]);
        for (const s of plan.sheets) if (s.student !== null && 'existing' in s.student) expect(file.existing).toContain(s.student.existing);
        expect(plan.activeStudents).toEqual(studentsNamedBySplit(split));

        // A duplicate points at an earlier sheet of the same student and lesson.
        plan.sheets.forEach((s, index) => {
          if (s.duplicate_of === null) return;
          if ('sheet' in s.duplicate_of) {
            expect(s.duplicate_of.sheet).toBeLessThan(index);
            expect(plan.sheets[s.duplicate_of.sheet]).toMatchObject({ student: s.student, lesson_id: s.lesson_id });
          } else expect(s.duplicate_of.existing).toBe(`earlier-${(s.student as { existing: string }).existing}/${s.lesson_id}`);
        });
      }),
      { numRuns: 300 },
    );
  });
});

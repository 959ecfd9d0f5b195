// The identity rules for pages known only by their printed text (DESIGN §4 "Identity: never guess
// silently"): a page is identified only when student ID and lesson were read, nothing read
// contradicts itself, and the facts fit exactly one sheet page; else a suggestion or nothing.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Code } from '../codes';
import type { PrintedFacts } from '../printed-facts';
import { fittingCandidates, identifyByPrintedText, MAX_SUGGESTED_CODES, type PrintedCandidate } from '../printed-identity';

const candidate = (identity: string, student: number, lesson: number, page: number, pages: number, id = identity): PrintedCandidate => ({
  code: { prefix: 'p', id },
  identity,
  student_human_id: student,
  lesson_number: lesson,
  page_number: page,
  page_count: pages,
});

const facts = (over: Partial<PrintedFacts>): PrintedFacts => ({
  student_human_id: null,
  lesson_number: null,
  page_number: null,
  page_count: null,
  codes: [],
  conflicting: false,
  ...over,
});

// Few students, lessons and pages, so candidates often collide the way real files do.
const candidateArbitrary = fc
  .record({
    identity: fc.constantFrom('A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'),
    student: fc.constantFrom(1001, 1002, 1049),
    lesson: fc.integer({ min: 1, max: 3 }),
    pages: fc.integer({ min: 1, max: 3 }),
    id: fc.constantFrom('ABCD2345', 'EFGH2345', 'JKMN2345', 'PQRS2345', 'TUVW2345', 'XYZ23456'),
  })
  .chain((c) => fc.integer({ min: 1, max: c.pages }).map((page) => candidate(c.identity, c.student, c.lesson, page, c.pages, c.id)));
// One identity is one sheet page: the same student, lesson and page however often it was printed.
const consistent = (list: PrintedCandidate[]) => {
  const first = new Map<string, PrintedCandidate>();
  return list.map((c) => {
    const seen = first.get(c.identity);
    if (!seen) first.set(c.identity, c);
    return seen ? { ...seen, code: c.code } : c;
  });
};
const candidatesArbitrary = fc.array(candidateArbitrary, { maxLength: 10 }).map(consistent);
const factsArbitrary = fc.record({
  student_human_id: fc.option(fc.constantFrom(1001, 1002, 1049, 2000)),
  lesson_number: fc.option(fc.integer({ min: 1, max: 3 })),
  page_number: fc.option(fc.integer({ min: 1, max: 3 })),
  page_count: fc.option(fc.integer({ min: 1, max: 3 })),
  codes: fc.constant<Code[]>([]),
  conflicting: fc.boolean(),
});

describe('identifyByPrintedText', () => {
  it('identifies the one packet page that student, lesson and page fit', () => {
    const candidates = [candidate('p1', 1049, 2, 1, 2), candidate('p2', 1049, 2, 2, 2), candidate('p3', 1050, 2, 2, 2)];
    expect(identifyByPrintedText(facts({ student_human_id: 1049, lesson_number: 2, page_number: 2, page_count: 2 }), candidates)).toEqual({
      kind: 'identified',
      code: { prefix: 'p', id: 'p2' },
    });
  });

  it('keeps a page that fits two sheets flagged, with both offered', () => {
    const candidates = [candidate('first file', 1049, 2, 2, 2), candidate('second file', 1049, 2, 2, 2)];
    expect(identifyByPrintedText(facts({ student_human_id: 1049, lesson_number: 2, page_number: 2 }), candidates)).toEqual({
      kind: 'suggested',
      suggestion: { student_human_id: 1049, lesson_number: 2, page_number: 2, codes: [{ prefix: 'p', id: 'first file' }, { prefix: 'p', id: 'second file' }] },
    });
  });

  it('offers nothing when the student ID was not read', () => {
    expect(identifyByPrintedText(facts({ lesson_number: 2, page_number: 2 }), [candidate('p', 1049, 2, 2, 2)])).toEqual({ kind: 'none' });
    expect(identifyByPrintedText(null, [candidate('p', 1049, 2, 2, 2)])).toEqual({ kind: 'none' });
  });

  it('never identifies a page without student and lesson both read, nothing conflicting, and one identity fitting', () => {
    fc.assert(
      fc.property(factsArbitrary, candidatesArbitrary, (read, candidates) => {
        const result = identifyByPrintedText(read, candidates);
        if (result.kind !== 'identified') return;
        expect(read.conflicting).toBe(false);
        expect(read.student_human_id).not.toBeNull();
        expect(read.lesson_number).not.toBeNull();
        // Every candidate the facts fit is the same sheet page, and the code is one of its codes.
        const fitting = candidates.filter(
          (c) =>
            c.student_human_id === read.student_human_id &&
            c.lesson_number === read.lesson_number &&
            (read.page_number === null || c.page_number === read.page_number) &&
            (read.page_count === null || c.page_count === read.page_count),
        );
        expect(new Set(fitting.map((c) => c.identity)).size).toBe(1);
        expect(fitting.map((c) => c.code)).toContainEqual(result.code);
      }),
    );
  });

  it('identifies every page whose two facts fit exactly one sheet page', () => {
    fc.assert(
      fc.property(factsArbitrary, candidatesArbitrary, (read, candidates) => {
        fc.pre(!read.conflicting && read.student_human_id !== null && read.lesson_number !== null);
        const identities = new Set(fittingCandidates(read, candidates).map((c) => c.identity));
        const result = identifyByPrintedText(read, candidates);
        expect(result.kind === 'identified').toBe(identities.size === 1);
      }),
    );
  });

  it('stops identifying once a second sheet page fits the same facts', () => {
    fc.assert(
      fc.property(factsArbitrary, candidatesArbitrary, (read, candidates) => {
        const result = identifyByPrintedText(read, candidates);
        fc.pre(result.kind === 'identified');
        const twin = { ...fittingCandidates(read, candidates)[0]!, identity: 'another sheet', code: { prefix: 'p' as const, id: 'TWIN2345' } };
        const after = identifyByPrintedText(read, [...candidates, twin]);
        expect(after.kind).toBe('suggested');
        if (after.kind === 'suggested') expect(after.suggestion.codes).toContainEqual(twin.code);
      }),
    );
  });

  it('suggests only sheet pages the facts fit, one code per sheet page, at most five', () => {
    fc.assert(
      fc.property(factsArbitrary, candidatesArbitrary, (read, candidates) => {
        const result = identifyByPrintedText(read, candidates);
        if (result.kind !== 'suggested') return;
        const fitting = fittingCandidates(read, candidates);
        const identities = new Set(fitting.map((c) => c.identity));
        expect(result.suggestion.codes).toHaveLength(Math.min(MAX_SUGGESTED_CODES, identities.size));
        for (const code of result.suggestion.codes) expect(fitting.map((c) => c.code)).toContainEqual(code);
      }),
    );
  });
});

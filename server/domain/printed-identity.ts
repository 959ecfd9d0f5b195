// Which sheet page a codeless page is, from what OCR read of its printed text (printed-facts).
// Never a guess (DESIGN §4 "Identity"): the page is identified only when the student ID and the
// lesson were both read, nothing read contradicts itself, and every fact read fits exactly one
// sheet page the file could hold (graded uploads: one packet page of the uploader's congregation
// waiting for grading; service-center files: one sheet page issued to a student). Anything less
// is a suggestion for a person, or nothing when nothing legible was read. Pure: the candidates
// come in, so the rules are tested on their own.
import type { Code } from './codes';
import type { PrintedFacts } from './printed-facts';

/** A sheet page the file could hold, as the product printed it. */
export interface PrintedCandidate {
  /** The code printed on it (a `p` code of a packet page, an `s` code of an issued sheet page). */
  code: Code;
  /**
   * What the page is: candidates with the same identity are the same page (an issued sheet
   * printed twice for one student is still that student's lesson page).
   */
  identity: string;
  student_human_id: number;
  lesson_number: number;
  page_number: number;
  page_count: number;
}

export type PrintedIdentity =
  | { kind: 'identified'; code: Code }
  | { kind: 'suggested'; suggestion: PrintedSuggestion }
  | { kind: 'none' };

/** What was read, and the codes of the sheet pages it fits (one click each in Review). */
export interface PrintedSuggestion {
  student_human_id: number | null;
  lesson_number: number | null;
  page_number: number | null;
  codes: Code[];
}

/** The most candidate codes a suggestion offers. */
export const MAX_SUGGESTED_CODES = 5;

/** The candidates every fact read agrees with (a fact not read rules nothing out). */
export function fittingCandidates(facts: PrintedFacts, candidates: readonly PrintedCandidate[]): PrintedCandidate[] {
  return candidates.filter(
    (candidate) =>
      (facts.student_human_id === null || candidate.student_human_id === facts.student_human_id) &&
      (facts.lesson_number === null || candidate.lesson_number === facts.lesson_number) &&
      (facts.page_number === null || candidate.page_number === facts.page_number) &&
      (facts.page_count === null || candidate.page_count === facts.page_count),
  );
}

export function identifyByPrintedText(facts: PrintedFacts | null, candidates: readonly PrintedCandidate[]): PrintedIdentity {
  // Without the student's ID nothing read says whose page it is: nothing to offer either.
  if (facts === null || facts.student_human_id === null) return { kind: 'none' };
  const fitting = fittingCandidates(facts, candidates);
  // One code per identity: the first printed stands for the page.
  const byIdentity = new Map<string, PrintedCandidate>();
  for (const candidate of fitting) if (!byIdentity.has(candidate.identity)) byIdentity.set(candidate.identity, candidate);
  const confirmed =
    !facts.conflicting && facts.student_human_id !== null && facts.lesson_number !== null && byIdentity.size === 1;
  if (confirmed) return { kind: 'identified', code: [...byIdentity.values()][0]!.code };
  return {
    kind: 'suggested',
    suggestion: {
      student_human_id: facts.student_human_id,
      lesson_number: facts.lesson_number,
      page_number: facts.page_number,
      codes: [...byIdentity.values()].slice(0, MAX_SUGGESTED_CODES).map((candidate) => candidate.code),
    },
  };
}

/** "Student 1049, Lesson 2, page 2": what was read, in the words the page prints. */
export function describeSuggestion(suggestion: Pick<PrintedSuggestion, 'student_human_id' | 'lesson_number' | 'page_number'>): string {
  return [
    suggestion.student_human_id === null ? null : `Student ${suggestion.student_human_id}`,
    suggestion.lesson_number === null ? null : `Lesson ${suggestion.lesson_number}`,
    suggestion.page_number === null ? null : `page ${suggestion.page_number}`,
  ]
    .filter((part) => part !== null)
    .join(', ');
}

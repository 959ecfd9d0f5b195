// The words for a page known from its printed text (DESIGN §4 "Identity"): one source for the
// page item, Review's suggestion and the upload report.
import type { PrintedTextSuggestion } from '../../../generated/hooks/model';

/** Shown on a page whose code was not read but whose printed text confirmed it. */
export const READ_FROM_PRINTED_TEXT = 'Read from the printed text';

/** "Student 1049, Lesson 2, page 2": what was read, in the words the page prints. */
export function suggestionText(suggestion: Pick<PrintedTextSuggestion, 'student_human_id' | 'lesson_number' | 'page_number'>): string {
  return [
    suggestion.student_human_id === null ? null : `Student ${suggestion.student_human_id}`,
    suggestion.lesson_number === null ? null : `Lesson ${suggestion.lesson_number}`,
    suggestion.page_number === null ? null : `page ${suggestion.page_number}`,
  ]
    .filter((part) => part !== null)
    .join(', ');
}

// What the text the product prints on a page says about it, once OCR has read it (printed-text):
// the packet header ("Student 1049 | Lesson 2: Prayer | WBS | page 2 of 2"), a next-lesson sheet's
// Name field ("Anna Smith (ID 1049)"), the lesson title and page line ("Answer sheet - page 2 of 2"),
// and the short codes beside the QR codes ("P-ABCD2345-K"). Pure, so the rules are tested alone.
// A fact read twice with two values is not known: OCR misread one of them, and which is unknown.
import { isCodePrefix, readCodeText, type Code } from './codes';

export interface PrintedFacts {
  student_human_id: number | null;
  lesson_number: number | null;
  /** "page k of m": k and m. */
  page_number: number | null;
  page_count: number | null;
  /** Short codes read whose check character is right (codes printed before it never confirm). */
  codes: Code[];
  /** Some fact was read with two different values (it is then null). */
  conflicting: boolean;
}

/** A word OCR is less sure of than this (0-100) is not taken as read. */
export const MIN_WORD_CONFIDENCE = 60;

export interface ReadWord {
  text: string;
  confidence: number;
}

// "Student 1049" only as the packet header prints it, before its first separator: a name such as
// "Student 12" written or printed elsewhere is no student ID.
const STUDENT = [/\bStudent\s+(\d{1,7})(?=\s*[|!\][]|\s+Lesson\b)/gi, /\(\s*ID\s+(\d{1,7})\s*\)/gi];
const LESSON = /\bLesson\s+(\d{1,3})\b/gi;
const PAGE_LINE = /\bpage\s+(\d{1,3})\s+of\s+(\d{1,3})\b/gi;
// Any dash (or underscore) OCR may make of the printed hyphen; the id is checked against the code alphabet after.
const SHORT_CODE = /\b([PSTC])\s?[-_\u2010-\u2015]\s?([A-Z0-9]{8})\s?[-_\u2010-\u2015]\s?([A-Z0-9])\b/g;

/** Lines of words as OCR read them: words it is unsure of become `?`, so no pattern matches them. */
export function sureText(lines: readonly (readonly ReadWord[])[]): string[] {
  return lines.map((words) => words.map((word) => (word.confidence >= MIN_WORD_CONFIDENCE ? word.text : '?')).join(' '));
}

export function printedFacts(lines: readonly string[]): PrintedFacts {
  const students = new Set<number>();
  const lessons = new Set<number>();
  const pages = new Set<string>();
  const codes = new Map<string, Code>();
  for (const line of lines) {
    for (const pattern of STUDENT) for (const match of line.matchAll(pattern)) students.add(Number(match[1]));
    for (const match of line.matchAll(LESSON)) lessons.add(Number(match[1]));
    for (const match of line.matchAll(PAGE_LINE)) {
      const [k, m] = [Number(match[1]), Number(match[2])];
      if (k >= 1 && k <= m) pages.add(`${k}/${m}`);
    }
    for (const match of line.matchAll(SHORT_CODE)) {
      if (!isCodePrefix(match[1]!.toLowerCase())) continue;
      const reading = readCodeText(`${match[1]}-${match[2]}-${match[3]}`);
      if (reading.code && reading.checked) codes.set(`${reading.code.prefix}/${reading.code.id}`, reading.code);
    }
  }
  const only = <T>(values: Set<T>): T | null => (values.size === 1 ? [...values][0]! : null);
  const page = only(pages);
  return {
    student_human_id: only(students),
    lesson_number: only(lessons),
    page_number: page === null ? null : Number(page.split('/')[0]),
    page_count: page === null ? null : Number(page.split('/')[1]),
    codes: [...codes.values()],
    conflicting: students.size > 1 || lessons.size > 1 || pages.size > 1 || codes.size > 1,
  };
}

/** Nothing read that could identify the page or be offered to a person. */
export function nothingRead(facts: PrintedFacts): boolean {
  return facts.student_human_id === null && facts.lesson_number === null && facts.page_number === null && facts.codes.length === 0;
}

// What the product's printed lines say once OCR has read them: the packet header, a next-lesson
// sheet's Name field, the page line and the short codes with their check character.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { packetHeader } from '../../pdf/packet-page';
import { CODE_ID_ALPHABET, codeText, type Code } from '../codes';
import { MIN_WORD_CONFIDENCE, nothingRead, printedFacts, sureText } from '../printed-facts';

const headerArbitrary = fc.record({
  studentHumanId: fc.integer({ min: 1001, max: 999_999 }),
  lessonNumber: fc.integer({ min: 1, max: 60 }),
  lessonName: fc.constantFrom('Prayer', 'The Word', 'Faith: Hearing and Doing', 'Baptism'),
  congregationCode: fc.constantFrom('WBS', 'NG 0001', 'KE 0420'),
  pageCount: fc.integer({ min: 1, max: 6 }),
}).chain((h) => fc.record({ header: fc.constant(h), pageNumber: fc.integer({ min: 1, max: h.pageCount }) }));

describe('printedFacts', () => {
  it('reads the packet header as OCR gave it on a real print-out', () => {
    expect(printedFacts(['Student 1049 | Lesson 2: Prayer | WBS | page 2 of 2'])).toEqual({
      student_human_id: 1049,
      lesson_number: 2,
      page_number: 2,
      page_count: 2,
      codes: [],
      conflicting: false,
    });
  });

  it("reads a next-lesson sheet's head: lesson title, page line, Name field and short code", () => {
    const lines = ['The Gospel of John', 'Lesson 2: Prayer ? ? [=]', 'Answer sheet - page 2 of 2 S_ABCD2346-5 ? ?', 'Name: Anna Smith (ID 1049) Date:'];
    expect(printedFacts(lines)).toEqual({
      student_human_id: 1049,
      lesson_number: 2,
      page_number: 2,
      page_count: 2,
      codes: [{ prefix: 's', id: 'ABCD2346' }],
      conflicting: false,
    });
  });

  it('reads every packet header the product prints back to what it printed', () => {
    fc.assert(
      fc.property(headerArbitrary, ({ header, pageNumber }) => {
        const line = packetHeader({
          studentHumanId: header.studentHumanId,
          lessonName: `Lesson ${header.lessonNumber}: ${header.lessonName}`,
          congregationCode: header.congregationCode,
          pageNumber,
          pageCount: header.pageCount,
        });
        expect(printedFacts([line])).toEqual({
          student_human_id: header.studentHumanId,
          lesson_number: header.lessonNumber,
          page_number: pageNumber,
          page_count: header.pageCount,
          codes: [],
          conflicting: false,
        });
      }),
    );
  });

  it('knows no fact read with two values, and says the reading conflicts', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1001, max: 9999 }), fc.integer({ min: 1001, max: 9999 }), (a, b) => {
        fc.pre(a !== b);
        const facts = printedFacts([`Student ${a} | Lesson 2: Prayer | WBS | page 1 of 2`, `Name: Anna (ID ${b})`]);
        expect(facts.student_human_id).toBeNull();
        expect(facts.conflicting).toBe(true);
        expect(facts.lesson_number).toBe(2);
      }),
    );
  });

  it('takes a short code only with its right check character', () => {
    const code: Code = { prefix: 'p', id: 'ABCD2345' };
    expect(printedFacts([codeText(code)]).codes).toEqual([code]);
    // Printed before check characters, or misread: no code.
    expect(printedFacts(['P-ABCD2345']).codes).toEqual([]);
    fc.assert(
      fc.property(fc.constantFrom(...CODE_ID_ALPHABET), (check) => {
        fc.pre(check !== codeText(code).slice(-1));
        expect(printedFacts([`P-ABCD2345-${check}`]).codes).toEqual([]);
      }),
    );
  });

  it('reads nothing from lines with none of the printed facts', () => {
    expect(nothingRead(printedFacts(['Dear friends at the school,', 'Thank you for the lessons.', '? ? [=]']))).toBe(true);
    expect(nothingRead(printedFacts([]))).toBe(true);
  });
});

describe('sureText', () => {
  it('keeps words OCR is sure of and blanks the others, so an unsure digit never becomes a fact', () => {
    const lines = sureText([
      [
        { text: 'Student', confidence: 95 },
        { text: '1049', confidence: MIN_WORD_CONFIDENCE - 1 },
        { text: '|', confidence: 90 },
        { text: 'Lesson', confidence: 93 },
        { text: '2:', confidence: MIN_WORD_CONFIDENCE },
      ],
    ]);
    expect(lines).toEqual(['Student ? | Lesson 2:']);
    expect(printedFacts(lines)).toMatchObject({ student_human_id: null, lesson_number: 2 });
  });
});

describe('a name is no student ID', () => {
  it('takes "Student N" only as the packet header prints it, the (ID N) of a Name field always', () => {
    expect(printedFacts(['Name: Student 12 (ID 1013) Date:'])).toMatchObject({ student_human_id: 1013, conflicting: false });
    expect(printedFacts(['Student 12 wrote this'])).toMatchObject({ student_human_id: null });
    expect(printedFacts(['Student 1049 Lesson 2: Prayer'])).toMatchObject({ student_human_id: 1049 });
  });
});

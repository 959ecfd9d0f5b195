// Blank answer-sheet masters for one lesson: the pages a service center copies and hands to
// students. Each page carries its page-template code (`t`), or an issued-sheet code (`s`) when the
// sheet is personalised for one student, so a scan of it finds its lesson and page again.
import { rgb } from 'pdf-lib';
import type { Code } from '../domain/codes';
import {
  createPdfWriter,
  drawFittedText,
  type PageContext,
  type PageSize,
  type PdfWriter,
} from './pdf-writer';
import { PAGE_SIZES, mm, pageFrame, stampCode, type PageFrame } from './printed-page';

export interface AnswerSheetMasterPage {
  /** 1-based page number within the lesson. */
  page_number: number;
  code: Code;
  /** Questions printed on the page; a default set when omitted. */
  questions?: string[];
}

export interface AnswerSheetMasterInput {
  courseName: string;
  lessonName: string;
  lessonNumber: number;
  pages: AnswerSheetMasterPage[];
  publicUrl: string;
  /** Printed in the name field of a personalised next-lesson sheet (pages with `s` codes). */
  studentName?: string;
  pageSize?: PageSize;
}

const DEFAULT_QUESTIONS = [
  'What does this passage teach about God?',
  'Write the verse that means the most to you and say why.',
  'True or false: Jesus taught in parables.',
  'Who were the first disciples Jesus called?',
  'How can you put this lesson into practice this week?',
  'What question would you like to ask your study helper?',
  'Read the verses again. What did the people around Jesus expect?',
  'True or false: this lesson says faith comes by hearing.',
  'Which promise in this lesson gives you hope?',
  'Who could you share this lesson with?',
  'Write a short prayer about what you learned.',
  'What would you like to study next?',
];
const QUESTIONS_PER_PAGE = 6;

/** One PDF holding every page of the lesson, in page order. */
export async function makeAnswerSheetMaster(input: AnswerSheetMasterInput): Promise<Uint8Array> {
  const writer = await createPdfWriter({
    title: `${input.courseName} - Lesson ${input.lessonNumber}`,
  });
  await addAnswerSheetPages(writer, input);
  return writer.finish();
}

/** Adds the lesson's pages to a document being written (masters, packets, return files). */
export async function addAnswerSheetPages(
  writer: PdfWriter,
  input: AnswerSheetMasterInput,
): Promise<void> {
  const size = input.pageSize ?? PAGE_SIZES.a4;
  const pages = [...input.pages].sort((a, b) => a.page_number - b.page_number);
  const total = pages.length;
  for (const page of pages) {
    await writer.addPage(size, (context) => drawAnswerSheetPage(context, input, page, total));
  }
}

export async function drawAnswerSheetPage(
  { page, fonts }: PageContext,
  input: AnswerSheetMasterInput,
  sheetPage: AnswerSheetMasterPage,
  totalPages: number,
): Promise<void> {
  const sheet: SheetCanvas = { page, fonts, frame: pageFrame([page.getWidth(), page.getHeight()]) };
  await drawHeader(sheet, input, sheetPage, totalPages);
  const fieldsBottom = await drawStudentFields(sheet, input.studentName);
  await drawQuestions(sheet, sheetPage, fieldsBottom);
  drawFooter(sheet, input, sheetPage, totalPages);
  stampCode(page, sheetPage.code, { publicUrl: input.publicUrl, fonts });
}

/** The page being drawn and its content area, free of the codes. */
interface SheetCanvas extends PageContext {
  frame: PageFrame;
}

const INK = rgb(0, 0, 0);
const GREY = rgb(0.45, 0.45, 0.45);

/** Course, lesson and page line, beside the top-right code. */
async function drawHeader(
  { page, fonts, frame }: SheetCanvas,
  input: AnswerSheetMasterInput,
  sheetPage: AnswerSheetMasterPage,
  totalPages: number,
): Promise<void> {
  const headerWidth = frame.headerRight - frame.left;
  let y = frame.headerTop - 14;
  await drawFittedText(page, fonts, 'bold', input.courseName, {
    x: frame.left,
    y,
    size: 15,
    color: INK,
    maxWidth: headerWidth,
  });
  y -= 20;
  const lessonTitle = `Lesson ${input.lessonNumber}: ${input.lessonName}`;
  await drawFittedText(page, fonts, 'bold', lessonTitle, {
    x: frame.left,
    y,
    size: 12,
    color: INK,
    maxWidth: headerWidth,
  });
  y -= 16;
  page.drawText(`Answer sheet - page ${sheetPage.page_number} of ${totalPages}`, {
    x: frame.left,
    y,
    size: 10,
    font: fonts.regular,
    color: GREY,
  });
}

/** The Name and Date fields under the header, and the rule below them: returns that rule's height. */
async function drawStudentFields({ page, fonts, frame }: SheetCanvas, studentName: string | undefined): Promise<number> {
  let y = frame.top - 4;
  const nameLabel = 'Name:';
  page.drawText(nameLabel, { x: frame.left, y, size: 11, font: fonts.bold });
  const nameX = frame.left + fonts.bold.widthOfTextAtSize(nameLabel, 11) + 6;
  const midX = frame.left + (frame.right - frame.left) * 0.62;
  if (studentName) {
    await drawFittedText(page, fonts, 'regular', studentName, {
      x: nameX + 2,
      y: y + 1,
      size: 11,
      maxWidth: midX - nameX - 12,
    });
  }
  page.drawLine({
    start: { x: nameX, y: y - 3 },
    end: { x: midX - 10, y: y - 3 },
    thickness: 0.6,
    color: INK,
  });
  page.drawText('Date:', { x: midX, y, size: 11, font: fonts.bold });
  page.drawLine({
    start: { x: midX + 34, y: y - 3 },
    end: { x: frame.right, y: y - 3 },
    thickness: 0.6,
    color: INK,
  });
  y -= 14;
  page.drawLine({
    start: { x: frame.left, y },
    end: { x: frame.right, y },
    thickness: 1.2,
    color: INK,
  });
  return y;
}

/** Questions with ruled answer lines (or True/False boxes), filling the content area below `top`. */
async function drawQuestions(sheet: SheetCanvas, sheetPage: AnswerSheetMasterPage, top: number): Promise<void> {
  const { page, fonts, frame } = sheet;
  const start = ((sheetPage.page_number - 1) * QUESTIONS_PER_PAGE) % DEFAULT_QUESTIONS.length;
  const questions =
    sheetPage.questions ?? DEFAULT_QUESTIONS.slice(start, start + QUESTIONS_PER_PAGE);
  const firstNumber = (sheetPage.page_number - 1) * questions.length + 1;
  const available = top - 10 - frame.bottom;
  const perQuestion = available / questions.length;
  for (const [index, question] of questions.entries()) {
    const qy = top - 22 - index * perQuestion;
    const label = `${firstNumber + index}.`;
    page.drawText(label, { x: frame.left, y: qy, size: 11, font: fonts.bold });
    const textX = frame.left + 22;
    await drawFittedText(page, fonts, 'regular', question, {
      x: textX,
      y: qy,
      size: 11,
      maxWidth: frame.right - textX,
    });
    if (/^true or false/i.test(question)) drawTrueFalse(sheet, textX, qy - ANSWER_LINE_GAP);
    else drawAnswerLines(sheet, textX, qy, perQuestion);
  }
}

const ANSWER_LINE_GAP = mm(8);

function drawTrueFalse({ page, fonts }: SheetCanvas, x: number, y: number): void {
  for (const [offset, word] of [
    [0, 'True'],
    [70, 'False'],
  ] as const) {
    page.drawRectangle({
      x: x + offset,
      y: y - 2,
      width: 10,
      height: 10,
      borderColor: INK,
      borderWidth: 0.8,
    });
    page.drawText(word, { x: x + offset + 15, y, size: 11, font: fonts.regular });
  }
}

/** As many ruled lines under the question at `y` as its share of the page holds. */
function drawAnswerLines({ page, frame }: SheetCanvas, x: number, y: number, perQuestion: number): void {
  const lines = Math.max(1, Math.floor((perQuestion - 18) / ANSWER_LINE_GAP));
  for (let line = 1; line <= lines; line++) {
    const ly = y - line * ANSWER_LINE_GAP;
    page.drawLine({
      start: { x, y: ly },
      end: { x: frame.right, y: ly },
      thickness: 0.4,
      color: GREY,
    });
  }
}

/** Lesson and page, beside the bottom-left code. */
function drawFooter(
  { page, fonts, frame }: SheetCanvas,
  input: AnswerSheetMasterInput,
  sheetPage: AnswerSheetMasterPage,
  totalPages: number,
): void {
  const footer = `Lesson ${input.lessonNumber} - page ${sheetPage.page_number} of ${totalPages}`;
  const footerWidth = fonts.regular.widthOfTextAtSize(footer, 9);
  page.drawText(footer, {
    x: frame.right - footerWidth,
    y: mm(14),
    size: 9,
    font: fonts.regular,
    color: GREY,
  });
}

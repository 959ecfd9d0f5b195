// A personalised next-lesson page of a return file: the lesson's answer-sheet master (drawn by
// answer-sheet-master, once per lesson page and process, without a code) placed as a form,
// stamped with the student's own `s` code, and the student's name and human id in
// the Name field. A return file can hold thousands of these pages; drawing every one from
// scratch cost more than everything else in the file together.
import { PDFDocument, rgb, type PDFEmbeddedPage, type PDFPage } from 'pdf-lib';
import { drawAnswerSheetPage, type AnswerSheetMasterInput, type AnswerSheetMasterPage } from './answer-sheet-master';
import { drawFittedText, embedPrintFonts, type PageContext, type PageSize } from './pdf-writer';
import { pageFrame } from './printed-page';
import { qrSymbol } from './qr-symbol';
import { codeText, codeUrl } from '../domain/codes';
import { stampCodeFast } from './code-stamp';

export interface NextLessonPage {
  /** The lesson as the master prints it; `pages` carry this student's `s` codes. */
  input: AnswerSheetMasterInput;
  /** Index into input.pages. */
  index: number;
  /** Same for every student's copy of this lesson page (e.g. the page template id). */
  masterKey: string;
}

/** Masters by key (drawn once), and each PDF document's embedded copy of them. */
const masters = new Map<string, Promise<{ doc: PDFDocument; page: PDFPage }>>();
const embedded = new WeakMap<PDFDocument, Map<string, Promise<PDFEmbeddedPage>>>();
const MAX_MASTERS = 200;
/** Stands in for the student's code while the master is drawn; never printed. */
const MASTER_PLACEHOLDER_ID = '22222222';

export async function drawNextLessonPage(context: PageContext, page: NextLessonPage, size: PageSize): Promise<void> {
  const { page: pdfPage, fonts } = context;
  const sheetPage = page.input.pages[page.index]!;
  const form = await embeddedMaster(pdfPage.doc, page, size);
  pdfPage.drawPage(form, { x: 0, y: 0, width: pdfPage.getWidth(), height: pdfPage.getHeight() });
  stampCodeFast(pdfPage, sheetPage.code, { publicUrl: page.input.publicUrl, fonts });
  if (page.input.studentName) {
    // Where answer-sheet-master writes a student's name: after "Name:" on the line under the header.
    const frame = pageFrame([pdfPage.getWidth(), pdfPage.getHeight()]);
    const y = frame.top - 4;
    const nameX = frame.left + fonts.bold.widthOfTextAtSize('Name:', 11) + 6;
    const midX = frame.left + (frame.right - frame.left) * 0.62;
    await drawFittedText(pdfPage, fonts, 'regular', page.input.studentName, {
      x: nameX + 2,
      y: y + 1,
      size: 11,
      color: rgb(0, 0, 0),
      maxWidth: midX - nameX - 12,
    });
  }
}

async function embeddedMaster(doc: PDFDocument, page: NextLessonPage, size: PageSize): Promise<PDFEmbeddedPage> {
  let forms = embedded.get(doc);
  if (!forms) {
    forms = new Map();
    embedded.set(doc, forms);
  }
  let form = forms.get(page.masterKey);
  if (!form) {
    form = masterPage(page, size).then((master) => doc.embedPage(master.page));
    forms.set(page.masterKey, form);
  }
  return form;
}

function masterPage(page: NextLessonPage, size: PageSize): Promise<{ doc: PDFDocument; page: PDFPage }> {
  let master = masters.get(page.masterKey);
  if (!master) {
    if (masters.size >= MAX_MASTERS) masters.clear();
    master = drawMaster(page.input, page.input.pages[page.index]!, size);
    masters.set(page.masterKey, master);
    master.catch(() => masters.delete(page.masterKey));
  }
  return master;
}

/** The lesson page without a name; its code is replaced on every copy. */
async function drawMaster(input: AnswerSheetMasterInput, sheetPage: AnswerSheetMasterPage, size: PageSize): Promise<{ doc: PDFDocument; page: PDFPage }> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const fonts = await embedPrintFonts(doc);
  const page = doc.addPage([size[0], size[1]]);
  // No student's name or code on the shared master: both are drawn on every copy. The master
  // draws its page code last; the calls drawing this placeholder's symbol and text are dropped.
  const placeholder: AnswerSheetMasterPage = { ...sheetPage, code: { prefix: sheetPage.code.prefix, id: MASTER_PLACEHOLDER_ID } };
  const symbolPath = qrSymbol(codeUrl(input.publicUrl, placeholder.code)).path;
  const symbolText = codeText(placeholder.code);
  const withoutCode = new Proxy(page, {
    get(target, property) {
      if (property === 'drawSvgPath') {
        return (path: string, options?: Parameters<PDFPage['drawSvgPath']>[1]) => (path === symbolPath ? undefined : target.drawSvgPath(path, options));
      }
      if (property === 'drawText') {
        return (text: string, options?: Parameters<PDFPage['drawText']>[1]) => (text === symbolText ? undefined : target.drawText(text, options));
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  await drawAnswerSheetPage({ page: withoutCode, fonts }, { ...input, studentName: undefined }, placeholder, input.pages.length);
  // Fonts are written into the document on flush; embedding the page copies them from there.
  await doc.flush();
  return { doc, page };
}

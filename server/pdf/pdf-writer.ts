// Builds a PDF page by page. Page content is drawn by small "page drawers", so the same drawers can
// later feed a streaming writer for very large outputs (return files) without changing callers:
// a caller only ever adds pages and finishes.
import { PDFDocument, StandardFonts, type PDFFont, type PDFPage } from 'pdf-lib';

export interface PrintFonts {
  regular: PDFFont;
  bold: PDFFont;
  /** Fixed width, for the short codes a person may have to type. */
  mono: PDFFont;
}

export interface PageContext {
  page: PDFPage;
  fonts: PrintFonts;
}

export type PageDrawer = (context: PageContext) => void | Promise<void>;

/** [width, height] in PDF points. */
export type PageSize = readonly [number, number];

export interface PdfWriter {
  addPage(size: PageSize, draw: PageDrawer): Promise<void>;
  /** Finishes the document; the writer cannot be used afterwards. */
  finish(): Promise<Uint8Array>;
}

export interface PdfWriterOptions {
  title?: string;
}

/** In-memory writer on pdf-lib; fine for masters, cover sheets and packets of moderate size. */
export async function createPdfWriter(options: PdfWriterOptions = {}): Promise<PdfWriter> {
  const doc = await PDFDocument.create();
  if (options.title) doc.setTitle(options.title);
  doc.setProducer('bible-study-portal');
  // Fixed dates keep output byte-identical for the same input (tests, content addressing).
  doc.setCreationDate(new Date(0));
  doc.setModificationDate(new Date(0));
  const fonts: PrintFonts = {
    regular: await doc.embedFont(StandardFonts.Helvetica),
    bold: await doc.embedFont(StandardFonts.HelveticaBold),
    mono: await doc.embedFont(StandardFonts.CourierBold),
  };
  let finished = false;
  return {
    async addPage(size, draw) {
      if (finished) throw new Error('PDF writer already finished');
      const page = doc.addPage([size[0], size[1]]);
      await draw({ page, fonts });
    },
    async finish() {
      if (finished) throw new Error('PDF writer already finished');
      finished = true;
      return doc.save({ useObjectStreams: true });
    },
  };
}

/**
 * The standard fonts only encode WinAnsi (Latin-1 and a few more); names from anywhere in the
 * world must not make a whole PDF fail, so characters the font lacks become '?'.
 */
export function printableText(font: PDFFont, text: string): string {
  const supported = supportedCodePoints(font);
  let out = '';
  for (const ch of text.normalize('NFC')) {
    const cp = ch.codePointAt(0)!;
    out += cp === 0x20 || supported.has(cp) ? ch : '?';
  }
  return out;
}

const codePointCache = new WeakMap<PDFFont, Set<number>>();
function supportedCodePoints(font: PDFFont): Set<number> {
  let set = codePointCache.get(font);
  if (!set) {
    set = new Set(font.getCharacterSet());
    codePointCache.set(font, set);
  }
  return set;
}

/** Shortens text with an ellipsis so it fits `maxWidth` at `size`. */
export function fitText(font: PDFFont, text: string, size: number, maxWidth: number): string {
  let t = printableText(font, text);
  if (font.widthOfTextAtSize(t, size) <= maxWidth) return t;
  while (t.length > 1 && font.widthOfTextAtSize(`${t}...`, size) > maxWidth) t = t.slice(0, -1);
  return `${t.trimEnd()}...`;
}

// Builds a PDF page by page. Page content is drawn by small "page drawers", so the same drawers can
// later feed a streaming writer for very large outputs (return files) without changing callers:
// a caller only ever adds pages and finishes.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import fontkit from '@pdf-lib/fontkit';
import { PDFDocument, StandardFonts, type Color, type PDFFont, type PDFPage } from 'pdf-lib';
import { visualRuns } from './bidi-text';

export type TextStyle = 'regular' | 'bold';

export interface PrintFonts {
  regular: PDFFont;
  bold: PDFFont;
  /** Fixed width, for the short codes a person may have to type. */
  mono: PDFFont;
  /**
   * The font that prints `text` in `style`: the standard one when it has every character (most
   * text), else DejaVu Sans, embedded in this document on first use with only the glyphs used.
   */
  forText(style: TextStyle, text: string): Promise<PDFFont>;
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
  const fonts = await embedPrintFonts(doc);
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
 * DejaVu Sans covers the Latin, Greek, Cyrillic, Hebrew and Arabic scripts (and more) the
 * standard fonts lack; not Chinese, Japanese or Korean.
 * Read once per process; parsed and embedded only into documents that print such a name.
 */
const UNICODE_FONT_FILES: Record<TextStyle, string> = { regular: 'DejaVuSans.ttf', bold: 'DejaVuSans-Bold.ttf' };
const unicodeFontBytes = new Map<TextStyle, Uint8Array>();
function unicodeFontFile(style: TextStyle): Uint8Array {
  let bytes = unicodeFontBytes.get(style);
  if (!bytes) {
    const dir = path.join(path.dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')), 'ttf');
    bytes = readFileSync(path.join(dir, UNICODE_FONT_FILES[style]));
    unicodeFontBytes.set(style, bytes);
  }
  return bytes;
}

/** The fonts every printed page draws with, embedded in `doc`. */
export async function embedPrintFonts(doc: PDFDocument): Promise<PrintFonts> {
  doc.registerFontkit(fontkit);
  const standard: Record<TextStyle, PDFFont> = {
    regular: await doc.embedFont(StandardFonts.Helvetica),
    bold: await doc.embedFont(StandardFonts.HelveticaBold),
  };
  const unicode = new Map<TextStyle, Promise<PDFFont>>();
  return {
    ...standard,
    mono: await doc.embedFont(StandardFonts.CourierBold),
    async forText(style, text) {
      if (printableText(standard[style], text) === text.normalize('NFC')) return standard[style];
      let font = unicode.get(style);
      if (!font) {
        // Named, not given pdf-lib's numbered suffix: the same input stays byte-identical.
        font = doc.embedFont(unicodeFontFile(style), { subset: true, customName: UNICODE_FONT_FILES[style].replace('.ttf', '') });
        unicode.set(style, font);
      }
      return font;
    },
  };
}

/**
 * `text` as `font` can print it: characters the font lacks become '?', so a name from anywhere
 * in the world never makes a whole PDF fail.
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

/** A line of text as printed: the characters kept, and the font they are drawn in. */
export interface FittedText {
  text: string;
  font: PDFFont;
}

/** `text` in `style`, shortened with an ellipsis so it fits `maxWidth` at `size`. */
export async function fitText(fonts: PrintFonts, style: TextStyle, text: string, size: number, maxWidth: number): Promise<FittedText> {
  const font = await fonts.forText(style, text);
  let t = printableText(font, text);
  if (lineWidth(font, t, size) <= maxWidth) return { text: t, font };
  // Shortened at its logical end, so a right-to-left line loses its last words, on the left.
  while (t.length > 1 && lineWidth(font, `${t}...`, size) > maxWidth) t = t.slice(0, -1);
  return { text: `${t.trimEnd()}...`, font };
}

/** Width of a line as drawn by drawFittedText. */
function lineWidth(font: PDFFont, text: string, size: number): number {
  return visualRuns(text).reduce((width, run) => width + font.widthOfTextAtSize(run.text, size), 0);
}

/**
 * Draws `text` in `style` from (x, y), shortened to `maxWidth`, in the font that can print it,
 * with right-to-left words in their order (bidi-text).
 */
export async function drawFittedText(
  page: PDFPage,
  fonts: PrintFonts,
  style: TextStyle,
  text: string,
  options: { x: number; y: number; size: number; maxWidth: number; color?: Color },
): Promise<void> {
  const { maxWidth, ...place } = options;
  const { text: fitted, font } = await fitText(fonts, style, text, place.size, maxWidth);
  let x = place.x;
  for (const run of visualRuns(fitted)) {
    page.drawText(run.text, { ...place, x, font });
    x += font.widthOfTextAtSize(run.text, place.size);
  }
}

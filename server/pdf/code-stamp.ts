// The page code stamp of printed-page.ts (same QR in the top-right and bottom-left corners, short
// code beside each), drawn fast for PDFs of thousands of pages. printed-page draws the symbol
// through pdf-lib's SVG path parser, about 4 ms a page, more than everything else on a packet
// or return-file page together; here the symbol's module runs go straight into a content stream
// of rectangles, compressed with Node's zlib. Same geometry, same symbol (qrSymbol), same text:
// tests/server/workflow-printing.test.ts renders both and compares them pixel by pixel.
import { deflateSync } from 'node:zlib';
import type { PDFPage } from 'pdf-lib';
import { codeText, codeUrl, type Code } from '../domain/codes';
import { CODE_STAMP, mm, type CodeStampOptions } from './printed-page';
import { qrSymbol } from './qr-symbol';

const RUN = /M(\d+) (\d+)h(\d+)/g;

export function stampCodeFast(page: PDFPage, code: Code, options: CodeStampOptions): void {
  const { width, height } = page.getSize();
  const qr = mm(CODE_STAMP.qrSizeMm);
  const edge = mm(CODE_STAMP.edgeMarginMm);
  const gap = mm(CODE_STAMP.textGapMm);
  const symbol = qrSymbol(codeUrl(options.publicUrl, code));
  const module = qr / symbol.size;
  const text = codeText(code);
  const font = options.fonts.mono;
  const size = CODE_STAMP.textSizePt;
  const textWidth = font.widthOfTextAtSize(text, size);
  const baselineOffset = qr / 2 - size * 0.35;

  const runs: [number, number, number][] = [];
  for (const match of symbol.path.matchAll(RUN)) runs.push([Number(match[1]), Number(match[2]), Number(match[3])]);
  const topRightX = width - edge - qr;
  const topRightY = height - edge - qr;
  let ops = 'q 0 g\n';
  for (const [x, y] of [
    [topRightX, topRightY],
    [edge, edge],
  ] as const) {
    // Module rows count down from the symbol's top edge (y + qr in PDF space).
    for (const [col, row, length] of runs) {
      ops += `${(x + col * module).toFixed(3)} ${(y + qr - (row + 1) * module).toFixed(3)} ${(length * module).toFixed(3)} ${module.toFixed(3)} re\n`;
    }
  }
  ops += 'f\nQ\n';
  // The text first: it makes sure pdf-lib's own content stream exists and comes before ours, so
  // what was drawn before (white corners) stays under the symbols. Draw the stamp last.
  page.drawText(text, { x: topRightX - gap - textWidth, y: topRightY + baselineOffset, size, font });
  page.drawText(text, { x: edge + qr + gap, y: edge + baselineOffset, size, font });
  const context = page.doc.context;
  const stream = context.stream(deflateSync(Buffer.from(ops, 'latin1'), { level: 1 }), { Filter: 'FlateDecode' });
  page.node.addContentStream(context.register(stream));
}

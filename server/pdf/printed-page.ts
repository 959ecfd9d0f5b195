// Stamps a page's code where the scan pipeline looks for it: the same QR in the top-right and the
// bottom-left corners (a stapled, folded or scribbled corner still leaves one), each with the short
// code as text beside it so a person can type it when no QR reads.
import { rgb, type PDFPage } from 'pdf-lib';
import { codeText, codeUrl, type Code } from '../domain/codes';
import type { PageSize, PrintFonts } from './pdf-writer';
import { qrSymbol } from './qr-symbol';

export const POINTS_PER_MM = 72 / 25.4;
export const mm = (value: number): number => value * POINTS_PER_MM;

export const PAGE_SIZES = {
  a4: [mm(210), mm(297)],
  letter: [612, 792],
} as const satisfies Record<string, PageSize>;

/**
 * Where codes sit, in mm. The pipeline's corner crops (find-codes) are sized from these. A 26 mm
 * symbol keeps modules >= 0.75 mm (4.5 px at 150 dpi) for a typical URL. 18 mm from the edges
 * keeps it inside a scanner's A4 frame when the sheet goes in tilted by up to ~6 degrees: a tilt
 * moves both corners out of the frame at once (they are opposite), and at 12 mm the harsh test
 * scans tilted 5.7-6 degrees lost both codes.
 */
export const CODE_STAMP = {
  qrSizeMm: 26,
  edgeMarginMm: 18,
  textGapMm: 4,
  textSizePt: 11,
} as const;

export interface CodeStampOptions {
  publicUrl: string;
  fonts: PrintFonts;
}

export interface PageFrame {
  /** Content area free of codes (PDF points, origin bottom-left). */
  left: number;
  right: number;
  top: number;
  bottom: number;
  /** The header band beside the top-right code: from `top` up to `headerTop`, up to `headerRight`. */
  headerTop: number;
  headerRight: number;
}

/** The layout every printed page shares, so nothing is drawn over a code or its quiet zone. */
export function pageFrame(size: PageSize): PageFrame {
  const [width, height] = size;
  const qr = mm(CODE_STAMP.qrSizeMm);
  const edge = mm(CODE_STAMP.edgeMarginMm);
  const side = mm(18);
  return {
    left: side,
    right: width - side,
    top: height - edge - qr - mm(6),
    bottom: edge + qr + mm(6),
    headerTop: height - mm(12),
    headerRight: width - edge - qr - mm(CODE_STAMP.textGapMm) - mm(34),
  };
}

/** Draws the page's code in the top-right and bottom-left corners with its short text. */
export function stampCode(page: PDFPage, code: Code, options: CodeStampOptions): void {
  const { width, height } = page.getSize();
  const qr = mm(CODE_STAMP.qrSizeMm);
  const edge = mm(CODE_STAMP.edgeMarginMm);
  const gap = mm(CODE_STAMP.textGapMm);
  const symbol = qrSymbol(codeUrl(options.publicUrl, code));
  const text = codeText(code);
  const font = options.fonts.mono;
  const size = CODE_STAMP.textSizePt;
  const textWidth = font.widthOfTextAtSize(text, size);
  const baselineOffset = qr / 2 - size * 0.35;

  const drawSymbol = (x: number, y: number) => {
    // drawSvgPath anchors the path's origin at (x, y) and points y down: pass the top-left corner.
    page.drawSvgPath(symbol.path, {
      x,
      y: y + qr,
      scale: qr / symbol.size,
      color: rgb(0, 0, 0),
      borderWidth: 0,
    });
  };

  const topRightX = width - edge - qr;
  const topRightY = height - edge - qr;
  drawSymbol(topRightX, topRightY);
  page.drawText(text, {
    x: topRightX - gap - textWidth,
    y: topRightY + baselineOffset,
    size,
    font,
  });

  drawSymbol(edge, edge);
  page.drawText(text, { x: edge + qr + gap, y: edge + baselineOffset, size, font });
}

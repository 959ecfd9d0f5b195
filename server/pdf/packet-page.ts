// One received page as printed for its study helper: the upright scan over the whole sheet, its
// own `p` code stamped in the two code corners (over white, so the code the student's sheet was
// printed with cannot be read there again) and a header line naming student, lesson and
// congregation. What the helper scans back is matched to the page by that code.
import { degrees, rgb, type PDFPage } from 'pdf-lib';
import type { Code } from '../domain/codes';
import { shownTurn } from '../pipeline/jpeg-header';
import type { Orientation } from '../pipeline/raster';
import type { PageContext, PageSize, PrintFonts } from './pdf-writer';
import { drawFittedText, fitText } from './pdf-writer';
import { CODE_STAMP, PAGE_SIZES, mm } from './printed-page';
import { stampCodeFast } from './code-stamp';

export const PACKET_PAGE_SIZE: PageSize = PAGE_SIZES.a4;

/**
 * White areas, in mm from the page's edges, derived from where codes are printed (CODE_STAMP):
 * the scanned sheet's own code, with a few mm more for a sheet scanned tilted or shifted, and the
 * code text beside it. Nothing of the answer sheet is printed there (see answer-sheet-master).
 */
const CODE_END_MM = CODE_STAMP.edgeMarginMm + CODE_STAMP.qrSizeMm;
const CODE_AREA_MM = CODE_END_MM + 7;
const CODE_TEXT_MIDDLE_MM = CODE_STAMP.edgeMarginMm + CODE_STAMP.qrSizeMm / 2;
const CODE_TEXT_AREA = {
  fromMm: CODE_END_MM + CODE_STAMP.textGapMm - 2,
  toMm: CODE_END_MM + CODE_STAMP.textGapMm + 32,
  lowMm: CODE_TEXT_MIDDLE_MM - 8,
  highMm: CODE_TEXT_MIDDLE_MM + 8,
} as const;
const HEADER_BAND_MM = 11;

export interface PacketPage {
  /** The upright page image (JPEG); null when the scan of the page could not be read. */
  jpeg: Uint8Array | null;
  code: Code;
  /** Student human id, lesson name, congregation code (null when unknown). */
  studentHumanId: number | null;
  lessonName: string | null;
  congregationCode: string | null;
  /** Page within its sheet, e.g. 2 of 3. */
  pageNumber: number;
  pageCount: number;
}

export function packetHeader(page: Pick<PacketPage, 'studentHumanId' | 'lessonName' | 'congregationCode' | 'pageNumber' | 'pageCount'>): string {
  return [
    page.studentHumanId === null ? 'Student unknown' : `Student ${page.studentHumanId}`,
    page.lessonName ?? 'Lesson unknown',
    page.congregationCode ?? 'No congregation',
    `page ${page.pageNumber} of ${page.pageCount}`,
  ].join('  |  ');
}

const HEADER_SIZE = 9;

/** A long lesson name gives way, so the student, congregation and page number always show. */
async function withFittedLesson(fonts: PrintFonts, input: PacketPage, size: number, maxWidth: number): Promise<PacketPage> {
  if (input.lessonName === null) return input;
  const whole = await fitText(fonts, 'bold', packetHeader(input), size, maxWidth);
  if (!whole.text.endsWith('...')) return input;
  const rest = packetHeader({ ...input, lessonName: '' });
  const restWidth = (await fonts.forText('bold', rest)).widthOfTextAtSize(rest, size);
  const lesson = await fitText(fonts, 'bold', input.lessonName, size, maxWidth - restWidth);
  return { ...input, lessonName: lesson.text };
}

export async function drawPacketPage({ page, fonts }: PageContext, input: PacketPage, publicUrl: string): Promise<void> {
  const width = page.getWidth();
  const height = page.getHeight();
  if (input.jpeg !== null) await drawScan(page, input.jpeg);
  else {
    page.drawText('The scan of this page could not be read: please grade the original sheet.', {
      x: mm(CODE_STAMP.edgeMarginMm),
      y: height / 2,
      size: 12,
      font: fonts.regular,
    });
  }
  clearCodeCorners(page);
  // The band runs above the top code (it starts below HEADER_BAND_MM) to the right margin.
  const band = mm(HEADER_BAND_MM);
  page.drawRectangle({ x: 0, y: height - band, width, height: band, color: rgb(1, 1, 1) });
  const left = mm(CODE_STAMP.edgeMarginMm);
  const maxWidth = width - 2 * left;
  await drawFittedText(page, fonts, 'bold', packetHeader(await withFittedLesson(fonts, input, HEADER_SIZE, maxWidth)), {
    x: left,
    y: height - mm(7.5),
    size: HEADER_SIZE,
    color: rgb(0, 0, 0),
    maxWidth,
  });
  stampCodeFast(page, input.code, { publicUrl, fonts });
}

/** Paints the two code corners (and the code text beside each) white, ready for a new code. */
export function clearCodeCorners(page: PDFPage): void {
  const width = page.getWidth();
  const height = page.getHeight();
  const white = rgb(1, 1, 1);
  const code = mm(CODE_AREA_MM);
  page.drawRectangle({ x: width - code, y: height - code, width: code, height: code, color: white });
  page.drawRectangle({ x: 0, y: 0, width: code, height: code, color: white });
  const text = CODE_TEXT_AREA;
  const textWidth = mm(text.toMm - text.fromMm);
  const textHeight = mm(text.highMm - text.lowMm);
  page.drawRectangle({ x: width - mm(text.toMm), y: height - mm(text.highMm), width: textWidth, height: textHeight, color: white });
  page.drawRectangle({ x: mm(text.fromMm), y: mm(text.lowMm), width: textWidth, height: textHeight, color: white });
}

/**
 * A scanned page image over the whole page, kept in proportion and centred, shown as its EXIF
 * orientation says (a turned scan is kept as it came, with the turn that shows it upright): PDF
 * ignores EXIF, so the image is drawn turned.
 */
export async function drawScan(page: PDFPage, jpeg: Uint8Array): Promise<void> {
  const image = await page.doc.embedJpg(jpeg);
  const turn = shownTurn(jpeg);
  const sideways = turn === 90 || turn === 270;
  // Size as shown.
  const shownWidth = sideways ? image.height : image.width;
  const shownHeight = sideways ? image.width : image.height;
  const scale = Math.min(page.getWidth() / shownWidth, page.getHeight() / shownHeight);
  const boxWidth = shownWidth * scale;
  const boxHeight = shownHeight * scale;
  const left = (page.getWidth() - boxWidth) / 2;
  const bottom = (page.getHeight() - boxHeight) / 2;
  // pdf-lib turns the image anticlockwise about its bottom-left corner (x, y): that corner is
  // placed where the turned image then fills the box.
  const corner: Record<Orientation, { x: number; y: number }> = {
    0: { x: left, y: bottom },
    90: { x: left, y: bottom + boxHeight },
    180: { x: left + boxWidth, y: bottom + boxHeight },
    270: { x: left + boxWidth, y: bottom },
  };
  page.drawImage(image, {
    ...corner[turn],
    width: image.width * scale,
    height: image.height * scale,
    rotate: degrees(-turn),
  });
}

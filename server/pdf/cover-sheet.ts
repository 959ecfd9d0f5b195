// The cover sheet a service center puts on top of each batch it scans: its `c` code tells the
// pipeline which service center sent the file, and the page becomes the file's cover image.
import { rgb } from 'pdf-lib';
import type { Code } from '../domain/codes';
import { codeText } from '../domain/codes';
import {
  createPdfWriter,
  drawFittedText,
  type PageContext,
  type PageSize,
  type PdfWriter,
} from './pdf-writer';
import { PAGE_SIZES, mm, pageFrame, stampCode } from './printed-page';

export interface CoverSheetInput {
  /** A `c` code. */
  code: Code;
  name: string;
  location: string;
  publicUrl: string;
  pageSize?: PageSize;
}

export async function makeCoverSheet(input: CoverSheetInput): Promise<Uint8Array> {
  const writer = await createPdfWriter({ title: `Cover sheet - ${input.name}` });
  await addCoverSheetPage(writer, input);
  return writer.finish();
}

export async function addCoverSheetPage(writer: PdfWriter, input: CoverSheetInput): Promise<void> {
  if (input.code.prefix !== 'c')
    throw new Error(`A cover sheet needs a service-center code, got ${codeText(input.code)}`);
  await writer.addPage(input.pageSize ?? PAGE_SIZES.a4, (context) =>
    drawCoverSheetPage(context, input),
  );
}

export async function drawCoverSheetPage({ page, fonts }: PageContext, input: CoverSheetInput): Promise<void> {
  const frame = pageFrame([page.getWidth(), page.getHeight()]);
  const ink = rgb(0, 0, 0);
  const grey = rgb(0.4, 0.4, 0.4);
  const width = frame.right - frame.left;

  page.drawText('SERVICE CENTER', {
    x: frame.left,
    y: frame.headerTop - 16,
    size: 18,
    font: fonts.bold,
    color: ink,
  });
  page.drawText('Cover sheet', {
    x: frame.left,
    y: frame.headerTop - 38,
    size: 14,
    font: fonts.regular,
    color: ink,
  });

  let y = frame.top - 30;
  await drawFittedText(page, fonts, 'bold', input.name, {
    x: frame.left,
    y,
    size: 26,
    color: ink,
    maxWidth: width,
  });
  y -= 30;
  await drawFittedText(page, fonts, 'regular', input.location, {
    x: frame.left,
    y,
    size: 16,
    color: ink,
    maxWidth: width,
  });
  y -= 24;
  page.drawLine({
    start: { x: frame.left, y },
    end: { x: frame.right, y },
    thickness: 1.5,
    color: ink,
  });

  y -= 50;
  for (const label of ['Batch date', 'Number of answer sheets', 'Prepared by', 'Notes']) {
    page.drawText(`${label}:`, { x: frame.left, y, size: 13, font: fonts.bold, color: ink });
    const lineX = frame.left + fonts.bold.widthOfTextAtSize(`${label}:`, 13) + 8;
    page.drawLine({
      start: { x: lineX, y: y - 3 },
      end: { x: frame.right, y: y - 3 },
      thickness: 0.6,
      color: ink,
    });
    y -= mm(14);
  }
  for (let line = 0; line < 2; line++) {
    page.drawLine({
      start: { x: frame.left, y: y - 3 },
      end: { x: frame.right, y: y - 3 },
      thickness: 0.6,
      color: ink,
    });
    y -= mm(14);
  }

  y -= 10;
  const instructions = [
    'Put this sheet on top of one batch of answer sheets and scan them',
    'together as one PDF file. Scan both sides when students wrote on the back.',
    'Do not cover, staple or write over the square codes in the corners.',
  ];
  for (const line of instructions) {
    page.drawText(line, { x: frame.left, y, size: 11, font: fonts.regular, color: grey });
    y -= 16;
  }

  stampCode(page, input.code, { publicUrl: input.publicUrl, fonts });
}

// The paper side of the journeys: a PDF the portal printed is "printed", written on and
// "scanned" back (rendered at 150 dpi, pen marks, a slight tilt, JPEG), optionally with a
// blank duplex back after each page — what a service center or study helper would upload.
import { createPrng } from '../fixtures/prng';
import { renderPdfPage } from '../fixtures/render-pdf';
import { scanLook, writeAnswers } from '../fixtures/scan-effects';
import { ScanPdfBuilder } from '../fixtures/scan-pdf';
import * as mupdf from 'mupdf';

const DPI = 150;

function pageCount(pdf: Uint8Array): number {
  const doc = mupdf.Document.openDocument(pdf, 'application/pdf');
  try {
    return doc.countPages();
  } finally {
    doc.destroy();
  }
}

export async function printAndScan(
  pdfs: Uint8Array[],
  options: { seed: number; penMarks?: boolean; duplexBacks?: boolean },
): Promise<Uint8Array> {
  const prng = createPrng(options.seed);
  const scan = await ScanPdfBuilder.create();
  for (const pdf of pdfs) {
    for (let index = 0; index < pageCount(pdf); index++) {
      const printed = renderPdfPage(pdf, index, DPI);
      if (options.penMarks) writeAnswers(printed, prng, DPI, 4);
      const scanned = await scanLook(printed, { orientation: 0, tilt: prng.range(-1.5, 1.5), blur: 0, contrast: 1, brightness: 0, background: 250 });
      await scan.addPage({ raster: scanned, dpi: DPI, encoding: 'jpeg_grey', quality: 80 });
      if (options.duplexBacks) {
        const back = { width: scanned.width, height: scanned.height, data: new Uint8Array(scanned.width * scanned.height).fill(250) };
        await scan.addPage({ raster: back, dpi: DPI, encoding: 'jpeg_grey', quality: 80 });
      }
    }
  }
  return scan.save();
}

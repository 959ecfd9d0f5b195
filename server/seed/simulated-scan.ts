// A scanner made of code, for the demo programme: pages the product printed (answer-sheet masters,
// cover sheets, packets) are rendered as a 150 dpi scanner sees them, written on in pen
// (answers, a helper's ticks), optionally with a sticky note over both codes, and stored as one
// grey JPEG per page in a PDF, as scanners write them. Deterministic: the same seed gives the
// same bytes. Mirrors what the test fixtures do, in a few lines, because the product makes it.
import * as mupdf from 'mupdf';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { createPrng, type Prng as Random } from '../../demo/random';
import { CODE_STAMP } from '../pdf/printed-page';
import type { GreyRaster } from '../pipeline/raster';

export const SCAN_DPI = 150;
const JPEG_QUALITY = 72;

export type PenWork = 'answers' | 'grading' | 'none';

export interface ScannedPage {
  /** A printed PDF and the 0-based page of it that goes through the scanner. */
  pdf: Uint8Array;
  pageIndex: number;
  pen: PenWork;
  /** A sticky note over both codes: the pipeline cannot read this page's code. */
  codesCovered?: boolean;
}

/** The scan of `pages`, in order, as one PDF. */
export async function simulateScan(pages: readonly ScannedPage[], seed: number): Promise<Uint8Array> {
  const random = createPrng(seed);
  const doc = await PDFDocument.create();
  doc.setProducer('demo scanner');
  doc.setCreationDate(new Date(0));
  doc.setModificationDate(new Date(0));
  for (const page of pages) {
    const raster = renderPage(page.pdf, page.pageIndex, SCAN_DPI);
    if (page.pen === 'answers') writeAnswers(raster, random);
    if (page.pen === 'grading') gradeMarks(raster, random);
    if (page.codesCovered) coverCodes(raster, random);
    addPaperNoise(raster, random);
    const jpeg = await sharp(Buffer.from(raster.data.buffer, raster.data.byteOffset, raster.data.byteLength), {
      raw: { width: raster.width, height: raster.height, channels: 1 },
    })
      .toColourspace('b-w')
      .jpeg({ quality: JPEG_QUALITY })
      .toBuffer();
    const image = await doc.embedJpg(jpeg);
    const width = (raster.width / SCAN_DPI) * 72;
    const height = (raster.height / SCAN_DPI) * 72;
    doc.addPage([width, height]).drawImage(image, { x: 0, y: 0, width, height });
  }
  return doc.save({ useObjectStreams: false });
}

export function pdfPageCount(pdf: Uint8Array): number {
  const doc = mupdf.Document.openDocument(pdf, 'application/pdf');
  try {
    return doc.countPages();
  } finally {
    doc.destroy();
  }
}

/** A page of a PDF as grey pixels, rows packed. */
function renderPage(pdf: Uint8Array, pageIndex: number, dpi: number): GreyRaster {
  const doc = mupdf.Document.openDocument(pdf, 'application/pdf');
  try {
    const page = doc.loadPage(pageIndex);
    try {
      const pixmap = page.toPixmap(mupdf.Matrix.scale(dpi / 72, dpi / 72), mupdf.ColorSpace.DeviceGray, false);
      try {
        const width = pixmap.getWidth();
        const height = pixmap.getHeight();
        const stride = pixmap.getStride();
        const pixels = pixmap.getPixels();
        const data = new Uint8Array(width * height);
        for (let y = 0; y < height; y++) data.set(pixels.subarray(y * stride, y * stride + width), y * width);
        return { width, height, data };
      } finally {
        pixmap.destroy();
      }
    } finally {
      page.destroy();
    }
  } finally {
    doc.destroy();
  }
}

const MM = SCAN_DPI / 25.4;

/** A pen line from (x0, y0) to (x1, y1), `radius` px thick. */
function drawStroke(r: GreyRaster, x0: number, y0: number, x1: number, y1: number, radius: number, ink: number): void {
  const steps = Math.max(1, Math.ceil(Math.hypot(x1 - x0, y1 - y0) / Math.max(0.5, radius / 2)));
  const reach = Math.ceil(radius);
  for (let s = 0; s <= steps; s++) {
    const cx = Math.round(x0 + ((x1 - x0) * s) / steps);
    const cy = Math.round(y0 + ((y1 - y0) * s) / steps);
    for (let dy = -reach; dy <= reach; dy++) {
      for (let dx = -reach; dx <= reach; dx++) {
        const x = cx + dx;
        const y = cy + dy;
        if (x < 0 || y < 0 || x >= r.width || y >= r.height || dx * dx + dy * dy > radius * radius) continue;
        const i = y * r.width + x;
        if (r.data[i]! > ink) r.data[i] = ink;
      }
    }
  }
}

/** Handwriting-like scribbles on a few lines of the answer area, clear of the code corners. */
function writeAnswers(r: GreyRaster, random: Random): void {
  const lines = 4 + Math.floor(random.next() * 5);
  for (let line = 0; line < lines; line++) {
    const y = r.height * (0.3 + line * 0.06) + random.range(-2, 2) * MM;
    let x = r.width * 0.2;
    const end = r.width * random.range(0.45, 0.75);
    while (x < end) {
      const word = random.range(8, 22) * MM;
      let px = x;
      let py = y;
      while (px < x + word) {
        const nx = px + random.range(0.6, 1.4) * MM;
        const ny = y + random.range(-1.8, 1.8) * MM;
        drawStroke(r, px, py, nx, ny, 0.3 * MM, 50);
        px = nx;
        py = ny;
      }
      x = px + random.range(2, 4) * MM;
    }
  }
}

/** A study helper's ticks in the margin of the answers. */
function gradeMarks(r: GreyRaster, random: Random): void {
  for (let i = 0; i < 4; i++) {
    const x = r.width * random.range(0.62, 0.78);
    const y = r.height * random.range(0.3, 0.7);
    drawStroke(r, x, y, x + 3 * MM, y + 4 * MM, 0.5 * MM, 40);
    drawStroke(r, x + 3 * MM, y + 4 * MM, x + 10 * MM, y - 6 * MM, 0.5 * MM, 40);
  }
}

/** Sticky notes a little bigger than the codes over both corners that carry one. */
function coverCodes(r: GreyRaster, random: Random): void {
  const size = Math.round((CODE_STAMP.qrSizeMm + 12) * MM);
  const edge = Math.round((CODE_STAMP.edgeMarginMm - 6) * MM);
  const shade = Math.round(random.range(220, 235));
  const fill = (left: number, top: number) => {
    for (let y = Math.max(0, top); y < Math.min(r.height, top + size); y++) r.data.fill(shade, y * r.width + Math.max(0, left), y * r.width + Math.min(r.width, left + size));
  };
  fill(r.width - edge - size, edge);
  fill(edge, r.height - edge - size);
}

/** Paper is never quite white: a little grain keeps the JPEGs honest. */
function addPaperNoise(r: GreyRaster, random: Random): void {
  for (let i = 0; i < r.data.length; i += 1 + Math.floor(random.next() * 7)) {
    const v = r.data[i]! - Math.floor(random.next() * 6);
    r.data[i] = v < 0 ? 0 : v;
  }
}

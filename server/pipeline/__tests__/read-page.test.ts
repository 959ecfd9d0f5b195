import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as mupdf from 'mupdf';
import {
  PDFDocument,
  concatTransformationMatrix,
  drawObject,
  popGraphicsState,
  pushGraphicsState,
  rgb,
} from 'pdf-lib';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { ScanPdfBuilder, type ScanImageEncoding } from '../../../tests/fixtures/scan-pdf';
import { thresholdAt } from '../../../tests/fixtures/scan-effects';
import { makeAnswerSheetMaster } from '../../pdf/answer-sheet-master';
import { cornerCropSide } from '../find-codes';
import { cropGrey, shrinkGrey, type GreyRaster } from '../raster';
import { openScanPdf, openScanPdfBytes, UnreadablePdfError } from '../read-page';
import type { PageRaster } from '../raster';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'read-page-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A 200 dpi A4-ish page with structure in one corner, so a wrong turn shows. */
function testRaster(width = 1654, height = 2339): GreyRaster {
  const data = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const inBlock = x > 100 && x < 500 && y > 100 && y < 300;
      const stripe = y % 200 < 6 && x > 200;
      data[y * width + x] = inBlock || stripe ? 20 : 235;
    }
  }
  return { width, height, data };
}

async function scanPdf(
  encoding: ScanImageEncoding,
  raster: GreyRaster,
  extra: { viaPageRotate?: boolean } = {},
): Promise<string> {
  const builder = await ScanPdfBuilder.create();
  await builder.addPage({ raster, dpi: 200, encoding, quality: 95, ...extra });
  const file = path.join(dir, `${encoding}-${extra.viaPageRotate ? 'rot' : 'plain'}.pdf`);
  fs.writeFileSync(file, await builder.save());
  return file;
}

function meanDifference(a: GreyRaster, b: GreyRaster): number {
  expect([a.width, a.height]).toEqual([b.width, b.height]);
  let sum = 0;
  for (let i = 0; i < a.data.length; i++) sum += Math.abs(a.data[i]! - b.data[i]!);
  return sum / a.data.length;
}

/** What mupdf's renderer shows for the page at `dpi` (the reference for any placement). */
function reference(file: string, dpi: number): GreyRaster {
  const doc = mupdf.Document.openDocument(fs.readFileSync(file), 'application/pdf');
  const page = doc.loadPage(0);
  const pixmap = page.toPixmap(
    mupdf.Matrix.scale(dpi / 72, dpi / 72),
    mupdf.ColorSpace.DeviceGray,
    false,
  );
  const raster = {
    width: pixmap.getWidth(),
    height: pixmap.getHeight(),
    data: new Uint8Array(pixmap.getPixels().slice().buffer),
  };
  pixmap.destroy();
  page.destroy();
  doc.destroy();
  return raster;
}

function cropToShared(a: GreyRaster, b: GreyRaster): GreyRaster {
  return cropGrey(a, 0, 0, Math.min(a.width, b.width), Math.min(a.height, b.height));
}

async function readOnly(file: string, options = {}): Promise<PageRaster> {
  const pdf = openScanPdf(file);
  try {
    expect(pdf.pageCount).toBe(1);
    return await pdf.readPage(1, options);
  } finally {
    pdf.close();
  }
}

describe('embedded scan images', () => {
  it('takes a grey JPEG as is, at its own resolution', async () => {
    const raster = testRaster();
    const page = await readOnly(await scanPdf('jpeg_grey', raster));
    expect(page.source).toBe('embedded_image');
    expect(page.dpi).toBeCloseTo(200, 3);
    expect(meanDifference(page, raster)).toBeLessThan(2);
    expect(page.rgb).toBeUndefined();
    // Its own JPEG comes along, to be kept as the page image.
    expect([...page.jpeg!.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    const meta = await sharp(page.jpeg!).metadata();
    expect([meta.width, meta.height, meta.channels]).toEqual([raster.width, raster.height, 1]);
  });

  it('loads an upright JPEG page with only its top band decoded, the same pixels as the whole', async () => {
    const raster = testRaster();
    const pdf = openScanPdf(await scanPdf('jpeg_grey', raster));
    try {
      const page = await pdf.loadPage(1);
      const jpeg = page.jpeg!;
      expect([jpeg.width, jpeg.height, Math.round(jpeg.dpi)]).toEqual([
        raster.width,
        raster.height,
        200,
      ]);
      expect(jpeg.topRows).toBe(cornerCropSide(raster.width, raster.height));
      const top = await jpeg.top;
      expect([top.width, top.height]).toEqual([raster.width, jpeg.topRows]);
      const whole = await page.raster();
      expect(whole.jpeg).toBe(jpeg.bytes);
      expect(
        Buffer.from(top.data).equals(Buffer.from(whole.data.subarray(0, top.data.length))),
      ).toBe(true);
      // Pages that are no upright JPEG have no band: they are read whole.
      const turned = openScanPdf(await scanPdf('bilevel_flate', thresholdAt(raster, 128)));
      expect((await turned.loadPage(1)).jpeg).toBeUndefined();
      turned.close();
    } finally {
      pdf.close();
    }
  });

  it('turns a colour JPEG grey; keeps colour when asked and the page has some', async () => {
    const raster = testRaster();
    // A warm-tinted scan of black and white paper has no colour worth keeping.
    const tinted = await scanPdf('jpeg_colour', raster);
    const grey = await readOnly(tinted);
    expect(grey.source).toBe('embedded_image');
    // The warm paper reads a little darker in grey.
    expect(meanDifference(grey, raster)).toBeLessThan(10);
    expect((await readOnly(tinted, { colour: true })).rgb).toBeUndefined();

    // Red ink is colour.
    const width = 400;
    const height = 560;
    const pixels = Buffer.alloc(width * height * 3, 240);
    for (let y = 100; y < 200; y++)
      for (let x = 100; x < 300; x++) pixels.set([220, 20, 20], (y * width + x) * 3);
    const jpeg = await sharp(pixels, { raw: { width, height, channels: 3 } })
      .jpeg({ quality: 90 })
      .toBuffer();
    const doc = await PDFDocument.create();
    doc
      .addPage([144, 201.6])
      .drawImage(await doc.embedJpg(jpeg), { x: 0, y: 0, width: 144, height: 201.6 });
    const file = path.join(dir, 'red-ink.pdf');
    fs.writeFileSync(file, await doc.save());
    const colour = await readOnly(file, { colour: true });
    expect(colour.source).toBe('embedded_image');
    expect(colour.rgb).toHaveLength(width * height * 3);
    const at = (150 * width + 200) * 3;
    expect(colour.rgb![at]! - colour.rgb![at + 1]!).toBeGreaterThan(150);
    // Its grey is the luminance of red: clearly darker than the paper.
    expect(colour.data[150 * width + 200]).toBeGreaterThan(50);
    expect(colour.data[150 * width + 200]).toBeLessThan(130);
    expect(colour.data[10]).toBeGreaterThan(230);
  });

  it('decodes bilevel Flate and CCITT G4 images pixel for pixel', async () => {
    const raster = thresholdAt(testRaster(1664, 2352), 128);
    for (const encoding of ['bilevel_flate', 'bilevel_ccitt'] as const) {
      const page = await readOnly(await scanPdf(encoding, raster));
      expect(page.source).toBe('embedded_image');
      expect(meanDifference(page, raster)).toBe(0);
      expect(page.jpeg).toBeUndefined();
    }
  });

  it('shows a page with /Rotate as displayed (upright)', async () => {
    const raster = thresholdAt(testRaster(), 128);
    const page = await readOnly(await scanPdf('bilevel_flate', raster, { viaPageRotate: true }));
    expect(page.source).toBe('embedded_image');
    expect(meanDifference(page, raster)).toBe(0);
  });

  it.each([
    ['straight', [1, 0, 0, 1, 0, 0]],
    ['half turn', [-1, 0, 0, -1, 1, 1]],
    ['mirrored', [-1, 0, 0, 1, 1, 0]],
    ['quarter turn', [0, -1, 1, 0, 0, 1]],
    ['quarter turn back', [0, 1, -1, 0, 1, 0]],
    ['flipped', [1, 0, 0, -1, 0, 1]],
    ['quarter turn mirrored', [0, 1, 1, 0, 0, 0]],
    ['quarter turn flipped', [0, -1, -1, 0, 1, 1]],
  ] as const)('places a %s image as the renderer does', async (name, unit) => {
    // unit: the placement in a 1x1 page, scaled to the page below.
    const width = 595;
    const height = 842;
    const quarter = unit[0] === 0;
    const image = thresholdAt(quarter ? testRaster(2339, 1654) : testRaster(), 128);
    const jpeg = await sharp(Buffer.from(image.data), {
      raw: { width: image.width, height: image.height, channels: 1 },
    })
      .toColourspace('b-w')
      .jpeg({ quality: 95 })
      .toBuffer();
    const doc = await PDFDocument.create();
    const embedded = await doc.embedJpg(jpeg);
    const page = doc.addPage([width, height]);
    const xobject = page.node.newXObject('Scan', embedded.ref);
    const [a, b, c, d, e, f] = unit;
    page.pushOperators(
      pushGraphicsState(),
      concatTransformationMatrix(
        a * width,
        b * height,
        c * width,
        d * height,
        e * width,
        f * height,
      ),
      drawObject(xobject),
      popGraphicsState(),
    );
    const file = path.join(dir, `placed-${name.replace(/ /g, '-')}.pdf`);
    fs.writeFileSync(file, await doc.save());

    const read = await readOnly(file);
    expect(read.source).toBe('embedded_image');
    expect([read.width, read.height]).toEqual([1654, 2339]);
    // Only an image placed straight is the page as it is.
    expect(read.jpeg !== undefined).toBe(name === 'straight');
    // The renderer rounds the page box to whole pixels: compare at 1/8 scale over the shared area.
    expect(
      meanDifference(
        shrinkGrey(cropToShared(read, reference(file, read.dpi)), 8),
        shrinkGrey(cropToShared(reference(file, read.dpi), read), 8),
      ),
    ).toBeLessThan(6);
  });
});

describe('pages that are not one full-page image are rendered', () => {
  it('renders vector pages at 150 dpi', async () => {
    const pdf = await makeAnswerSheetMaster({
      courseName: 'Course',
      lessonName: 'Lesson',
      lessonNumber: 1,
      pages: [{ page_number: 1, code: { prefix: 't', id: 'AAAA2345' } }],
      publicUrl: 'https://x.test',
    });
    const read = openScanPdfBytes(pdf);
    const page = await read.readPage(1);
    read.close();
    expect(page.source).toBe('rendered');
    expect(page.dpi).toBe(150);
    expect(Math.abs(page.width - 1240)).toBeLessThanOrEqual(1);
    expect(Math.abs(page.height - 1754)).toBeLessThanOrEqual(1);
  });

  it('renders a scan with something drawn over it, a small image, or a skewed image', async () => {
    const image = testRaster(800, 1100);
    const jpeg = await sharp(Buffer.from(image.data), {
      raw: { width: image.width, height: image.height, channels: 1 },
    })
      .toColourspace('b-w')
      .jpeg()
      .toBuffer();
    const doc = await PDFDocument.create();
    const embedded = await doc.embedJpg(jpeg);
    const stamped = doc.addPage([595, 842]);
    stamped.drawImage(embedded, { x: 0, y: 0, width: 595, height: 842 });
    stamped.drawRectangle({ x: 10, y: 10, width: 50, height: 20, color: rgb(1, 0, 0) });
    doc.addPage([595, 842]).drawImage(embedded, { x: 100, y: 100, width: 300, height: 400 });
    const skewed = doc.addPage([595, 842]);
    const xobject = skewed.node.newXObject('Scan', embedded.ref);
    skewed.pushOperators(
      pushGraphicsState(),
      concatTransformationMatrix(595, 30, -40, 842, 20, 0),
      drawObject(xobject),
      popGraphicsState(),
    );
    const pdf = openScanPdfBytes(await doc.save());
    expect(await Promise.all([1, 2, 3].map(async (n) => (await pdf.readPage(n)).source))).toEqual([
      'rendered',
      'rendered',
      'rendered',
    ]);
    pdf.close();
  });
});

describe('opening files', () => {
  it('refuses files that are not PDFs', () => {
    const text = path.join(dir, 'not.pdf');
    fs.writeFileSync(text, 'hello, this is no PDF at all');
    expect(() => openScanPdf(text)).toThrow(UnreadablePdfError);
    const empty = path.join(dir, 'empty.pdf');
    fs.writeFileSync(empty, '');
    expect(() => openScanPdf(empty)).toThrow(UnreadablePdfError);
    expect(() => openScanPdfBytes(new Uint8Array([1, 2, 3]))).toThrow(UnreadablePdfError);
  });

  it('checks page numbers and refuses reads after close', async () => {
    const pdf = openScanPdf(await scanPdf('jpeg_grey', testRaster(400, 560)));
    await expect(pdf.readPage(0)).rejects.toThrow(RangeError);
    await expect(pdf.readPage(2)).rejects.toThrow(RangeError);
    pdf.close();
    pdf.close();
    await expect(pdf.readPage(1)).rejects.toThrow(/closed/);
  });

  it('fails only the broken page of a file: the other pages still read', async () => {
    const builder = await ScanPdfBuilder.create();
    await builder.addPage({ raster: testRaster(400, 560), dpi: 50, encoding: 'jpeg_grey' });
    builder.addBrokenPage();
    await builder.addPage({ raster: testRaster(400, 560), dpi: 50, encoding: 'jpeg_grey' });
    const file = path.join(dir, 'broken-page.pdf');
    fs.writeFileSync(file, await builder.save());
    const pdf = openScanPdf(file);
    expect((await pdf.readPage(1)).source).toBe('embedded_image');
    await expect(pdf.readPage(2)).rejects.toThrow();
    expect((await pdf.readPage(3)).source).toBe('embedded_image');
    pdf.close();
  });
});

describe('a page too large to render at the reading DPI', () => {
  async function pageOf(size: [number, number]): Promise<string> {
    const doc = await PDFDocument.create();
    doc.addPage(size).drawText('large', { x: 100, y: size[1] - 400, size: 200 });
    const file = path.join(dir, `large-${size[0]}x${size[1]}.pdf`);
    fs.writeFileSync(file, await doc.save());
    return file;
  }

  it('is rendered smaller, within 16 million pixels, when that is still fine enough to read', async () => {
    // A0 (2384 x 3370 pt) at 150 dpi would be 35 million pixels.
    const pdf = openScanPdf(await pageOf([2384, 3370]));
    try {
      const raster = await pdf.readPage(1);
      expect(raster.width * raster.height).toBeLessThanOrEqual(16_000_000);
      expect(raster.dpi).toBeGreaterThan(95);
      expect(raster.dpi).toBeLessThan(150);
    } finally {
      pdf.close();
    }
  });

  it('is refused as too large, at once, when it would be too coarse (not rendered at any cost)', async () => {
    // 443 bytes of PDF can ask for a 14,400 pt square: 3 GB of pixels at 150 dpi.
    const pdf = openScanPdf(await pageOf([14_400, 14_400]));
    try {
      const before = process.memoryUsage().rss;
      const started = Date.now();
      await expect(pdf.readPage(1)).rejects.toThrow('a 14400 x 14400 pt page');
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(process.memoryUsage().rss - before).toBeLessThan(100 * 1024 * 1024);
    } finally {
      pdf.close();
    }
  });
});

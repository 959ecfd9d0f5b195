import { beforeAll, describe, expect, it } from 'vitest';
import {
  addNoise,
  addShowThrough,
  addSpecks,
  drawStroke,
  fillRect,
  scanLook,
  writeLine,
} from '../../../tests/fixtures/scan-effects';
import { createPrng } from '../../../tests/fixtures/prng';
import { renderPdfPage } from '../../../tests/fixtures/render-pdf';
import { makeAnswerSheetMaster } from '../../pdf/answer-sheet-master';
import { detectBlankPage } from '../blank-page';
import type { GreyRaster } from '../raster';

const DPI = 200;
const MM = DPI / 25.4;
let printed: GreyRaster;

function paper(level = 245, dpi = DPI): GreyRaster {
  const width = Math.round(210 * (dpi / 25.4));
  const height = Math.round(297 * (dpi / 25.4));
  return { width, height, data: new Uint8Array(width * height).fill(level) };
}

beforeAll(async () => {
  const pdf = await makeAnswerSheetMaster({
    courseName: 'The Gospel of John',
    lessonName: 'Born Again',
    lessonNumber: 3,
    pages: [{ page_number: 1, code: { prefix: 't', id: 'HJK23456' } }],
    publicUrl: 'https://portal.example.org',
  });
  printed = renderPdfPage(pdf, 0, DPI);
});

describe('blank pages (duplex backs)', () => {
  it('finds clean and noisy empty paper blank, at any resolution', () => {
    expect(detectBlankPage(paper(), DPI)).toMatchObject({
      blank: true,
      marks: 0,
      inkShare: 0,
      paper: 245,
    });
    for (const [dpi, sigma] of [
      [150, 20],
      [200, 12],
      [300, 8],
    ] as const) {
      const page = paper(240, dpi);
      addNoise(page, createPrng(dpi), sigma);
      expect(detectBlankPage(page, dpi).blank).toBe(true);
    }
  });

  it('finds paper with specks of dirt blank', () => {
    const page = paper();
    addSpecks(page, createPrng(3), DPI, 12, 1.2);
    addNoise(page, createPrng(4), 6);
    const result = detectBlankPage(page, DPI);
    expect(result.blank).toBe(true);
    expect(result.inkShare).toBeGreaterThan(0);
    expect(result.largestMarkMm).toBeLessThan(3);
  });

  it('finds a back with the front showing through blank', () => {
    const page = paper();
    addShowThrough(page, printed, 0.1);
    addNoise(page, createPrng(5), 5);
    expect(detectBlankPage(page, DPI).blank).toBe(true);
  });

  it('finds faded grey paper and scanner shadows along the edges blank', () => {
    const faded = paper(150);
    addNoise(faded, createPrng(6), 8);
    expect(detectBlankPage(faded, DPI).blank).toBe(true);
    const shadowed = paper();
    fillRect(shadowed, { x: 0, y: 0, width: 8 * MM, height: shadowed.height }, 30);
    fillRect(
      shadowed,
      { x: 0, y: shadowed.height - 6 * MM, width: shadowed.width, height: 6 * MM },
      60,
    );
    expect(detectBlankPage(shadowed, DPI).blank).toBe(true);
  });

  it('keeps a back with a single handwritten word', () => {
    const page = paper();
    addNoise(page, createPrng(7), 6);
    writeLine(page, createPrng(8), page.width * 0.4, page.height * 0.5, 12 * MM, DPI);
    const result = detectBlankPage(page, DPI);
    expect(result.blank).toBe(false);
    expect(result.marks).toBeGreaterThan(0);
  });

  it('keeps a faded page with writing', () => {
    const faded = paper(170);
    writeLine(faded, createPrng(9), faded.width * 0.3, faded.height * 0.3, 40 * MM, DPI);
    for (let i = 0; i < faded.data.length; i++) faded.data[i] = Math.max(faded.data[i]!, 90);
    addNoise(faded, createPrng(10), 6);
    expect(detectBlankPage(faded, DPI).blank).toBe(false);
  });

  it('keeps a back with a short, light pencil line', () => {
    for (const dpi of [150, 200, 300]) {
      const page = paper(242, dpi);
      const mm = dpi / 25.4;
      // 0.3 mm graphite, 15 mm long, grey 150 on white.
      drawStroke(
        page,
        page.width * 0.5,
        page.height * 0.5,
        page.width * 0.5 + 15 * mm,
        page.height * 0.5 + 2 * mm,
        0.15 * mm,
        150,
      );
      addNoise(page, createPrng(dpi), 6);
      expect(detectBlankPage(page, dpi).blank).toBe(false);
    }
  });

  it('keeps printed pages, turned or not', async () => {
    expect(detectBlankPage(printed, DPI).blank).toBe(false);
    const turned = await scanLook(printed, {
      orientation: 90,
      tilt: 2,
      blur: 0.6,
      contrast: 0.6,
      brightness: 80,
      background: 250,
    });
    expect(detectBlankPage(turned, DPI).blank).toBe(false);
  });

  it('counts a mark one level under the ink threshold and not one at it, wherever its pixels lie in memory', () => {
    // Paper at 240 puts the ink threshold at 240 - 0.22 * 240 = 187.2: a pixel of 187 is ink, 188 is not.
    const look = 150;
    const markedPaper = (level: number, byteOffset: number): GreyRaster => {
      const page = paper(240, look);
      // The pixels at an offset that is not a multiple of four, as a raster inside a bigger buffer may be.
      const data = new Uint8Array(page.data.length + byteOffset).subarray(byteOffset);
      data.set(page.data);
      const raster = { ...page, data };
      // 4 mm across, starting at an odd column: its edges fall inside 4-byte words.
      const side = 4 * (look / 25.4);
      fillRect(raster, { x: 301, y: 401, width: side, height: side }, level);
      return raster;
    };
    for (const byteOffset of [0, 1, 2, 3]) {
      expect(detectBlankPage(markedPaper(187, byteOffset), look)).toMatchObject({
        blank: false,
        marks: 1,
      });
      expect(detectBlankPage(markedPaper(188, byteOffset), look)).toMatchObject({
        blank: true,
        marks: 0,
      });
    }
    // Dark paper (a threshold under 128: 150 - 40 = 110) is looked at pixel by pixel, to the same rule.
    const square = { x: 301, y: 401, width: 30, height: 30 };
    const dark = paper(150, look);
    fillRect(dark, square, 109);
    expect(detectBlankPage(dark, look).blank).toBe(false);
    const faint = paper(150, look);
    fillRect(faint, square, 110);
    expect(detectBlankPage(faint, look).blank).toBe(true);
  });
});

import { rgb } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { addNoise, addShowThrough, fillRect, scanLook } from '../../../tests/fixtures/scan-effects';
import { createPrng } from '../../../tests/fixtures/prng';
import { renderPdfPage } from '../../../tests/fixtures/render-pdf';
import { makeAnswerSheetMaster } from '../../pdf/answer-sheet-master';
import { CODE_STAMP } from '../../pdf/printed-page';
import { createPdfWriter } from '../../pdf/pdf-writer';
import { qrSymbol } from '../../pdf/qr-symbol';
import type { Code } from '../../domain/codes';
import { cornerCropSide, findCodes, findCodeInTopBand, orientationOf } from '../find-codes';
import type { GreyRaster, Orientation } from '../raster';

const DPI = 200;
const MM = DPI / 25.4;
const CODE: Code = { prefix: 's', id: 'HJK23456' };
let printed: GreyRaster;

async function printedPage(code: Code): Promise<GreyRaster> {
  const pdf = await makeAnswerSheetMaster({
    courseName: 'The Gospel of John',
    lessonName: 'Born Again',
    lessonNumber: 3,
    pages: [{ page_number: 1, code }],
    publicUrl: 'https://portal.example.org',
  });
  return renderPdfPage(pdf, 0, DPI);
}

const copy = (r: GreyRaster): GreyRaster => ({ ...r, data: r.data.slice() });

/** Where a printed code sits on the upright page, in pixels. */
function codeBox(r: GreyRaster, corner: 'top_right' | 'bottom_left') {
  const size = CODE_STAMP.qrSizeMm * MM;
  const edge = CODE_STAMP.edgeMarginMm * MM;
  return corner === 'top_right'
    ? { x: r.width - edge - size, y: edge, size }
    : { x: edge, y: r.height - edge - size, size };
}

beforeAll(async () => {
  printed = await printedPage(CODE);
});

describe('findCodes on printed pages', () => {
  it.each([
    [0, 0],
    [0, 2.5],
    [180, -2],
    [90, 1.5],
    [270, -3],
  ] as const)(
    'reads a page turned %i degrees and tilted %f: code, orientation and skew',
    async (orientation, tilt) => {
      const scan = await scanLook(printed, {
        orientation: orientation as Orientation,
        tilt,
        blur: 0,
        contrast: 1,
        brightness: 0,
        background: 255,
      });
      const result = await findCodes(scan);
      expect(result.code).toEqual(CODE);
      expect(result.reason).toBeNull();
      expect(result.orientation).toBe(orientation);
      expect(result.skew!).toBeCloseTo(tilt, 0);
      // Upright and upside-down pages have their codes in the first two corners looked at.
      expect(result.pass).toBe(orientation % 180 === 0 ? 'corners' : 'other_corners');
      expect(result.codes[0]!.text).toBe('https://portal.example.org/api/qr-api/s/HJK23456');
    },
  );

  it('reads a page in its top band alone as findCodes reads the whole page, whichever way it was fed', async () => {
    const band = (r: GreyRaster): GreyRaster => {
      const rows = cornerCropSide(r.width, r.height);
      return { width: r.width, height: rows, data: r.data.slice(0, r.width * rows) };
    };
    for (const orientation of [0, 180, 90, 270] as const) {
      const scan = await scanLook(printed, { orientation, tilt: 1, blur: 0, contrast: 1, brightness: 0, background: 255 });
      const whole = await findCodes(scan);
      expect(whole.orientation).toBe(orientation);
      // The same result, pass included: the band's two corners are the ones findCodes finds it in.
      expect(await findCodeInTopBand(band(scan), scan)).toEqual({ ...whole, attempts: expect.any(Number) });
    }
    // A code of a kind the upload does not expect is for findCodes (it may find one elsewhere).
    expect(await findCodeInTopBand(band(printed), printed, { expectedPrefixes: ['c'] })).toBeNull();
    // Both top corners covered: nothing in the band.
    const covered = copy(printed);
    const side = cornerCropSide(covered.width, covered.height);
    fillRect(covered, { x: 0, y: 0, width: covered.width, height: side }, 255);
    expect(await findCodeInTopBand(band(covered), covered)).toBeNull();
  });

  it('reads the other corner when one code is covered', async () => {
    for (const corner of ['top_right', 'bottom_left'] as const) {
      const page = copy(printed);
      const box = codeBox(page, corner);
      fillRect(
        page,
        { x: box.x - 20, y: box.y - 20, width: box.size + 40, height: box.size + 40 },
        230,
      );
      const result = await findCodes(page);
      expect(result.code).toEqual(CODE);
      expect(result.codes.map((c) => c.area)).toEqual([
        corner === 'top_right' ? 'bottom_left' : 'top_right',
      ]);
    }
  });

  it('says no_code_found when both codes are covered, after the slow passes', async () => {
    const page = copy(printed);
    for (const corner of ['top_right', 'bottom_left'] as const) {
      const box = codeBox(page, corner);
      fillRect(
        page,
        { x: box.x - 20, y: box.y - 20, width: box.size + 40, height: box.size + 40 },
        255,
      );
    }
    const result = await findCodes(page);
    expect(result).toMatchObject({
      code: null,
      reason: 'no_code_found',
      orientation: null,
      skew: null,
      codes: [],
    });
    // 4 corners, the page, then every clean-up over the 4 corners.
    expect(result.attempts).toBeGreaterThan(5);
  });

  it('says unreadable when a symbol is found but its data is damaged', async () => {
    const page = copy(printed);
    for (const corner of ['top_right', 'bottom_left'] as const) {
      const box = codeBox(page, corner);
      // A strip of correction tape across the data, finder patterns left alone.
      fillRect(
        page,
        {
          x: box.x + box.size * 0.3,
          y: box.y + box.size * 0.4,
          width: box.size * 0.65,
          height: box.size * 0.25,
        },
        255,
      );
    }
    const result = await findCodes(page);
    expect(result.code).toBeNull();
    expect(result.reason).toBe('unreadable');
  });

  it('reads a very noisy low-resolution scan through a clean-up retry', async () => {
    const pdf = await makeAnswerSheetMaster({
      courseName: 'C',
      lessonName: 'L',
      lessonNumber: 1,
      pages: [{ page_number: 1, code: CODE }],
      publicUrl: 'https://portal.example.org',
    });
    const page = renderPdfPage(pdf, 0, 150);
    const prng = createPrng(1);
    // Salt-and-pepper: one pixel in ten flipped to black or white.
    for (let i = 0; i < page.data.length; i++)
      if (prng.next() < 0.3) page.data[i] = prng.chance(0.5) ? 0 : 255;
    const plain = await findCodes(page, { cleanup: false });
    expect(plain.code).toBeNull();
    const result = await findCodes(page);
    expect(result.code).toEqual(CODE);
    expect(result.pass).toBe('cleanup:median');
    expect(result.orientation).toBe(0);
  });

  it('stops after the corners when asked (a blank page needs no slow passes)', async () => {
    const blank: GreyRaster = {
      width: 1654,
      height: 2339,
      data: new Uint8Array(1654 * 2339).fill(250),
    };
    // Corners without ink are not even read: a blank back costs no QR search.
    let asked = 0;
    const result = await findCodes(blank, { continueAfterCorners: () => (asked++, false) });
    expect(asked).toBe(1);
    expect(result).toMatchObject({ code: null, reason: 'no_code_found', attempts: 0 });
  });

  it('ignores a code showing through from the back of the sheet (mirrored)', async () => {
    const back: GreyRaster = {
      width: printed.width,
      height: printed.height,
      data: new Uint8Array(printed.data.length).fill(245),
    };
    addShowThrough(back, printed, 0.2);
    addNoise(back, createPrng(1), 2);
    const result = await findCodes(back);
    expect(result.code).toBeNull();
    expect(result.codes).toEqual([]);
  });
});

describe('the whole-page pass', () => {
  it('reads a code away from the corners of a 300-dpi page at half size, placed in page pixels', async () => {
    // A code in the middle of the page: no corner crop holds it.
    const writer = await createPdfWriter();
    const side = 70;
    await writer.addPage([595, 842], ({ page }) => {
      const symbol = qrSymbol('https://portal.example.org/api/qr-api/s/HJK23456');
      page.drawSvgPath(symbol.path, {
        x: 260,
        y: 460,
        scale: side / symbol.size,
        color: rgb(0, 0, 0),
        borderWidth: 0,
      });
    });
    const raster = renderPdfPage(await writer.finish(), 0, 300);
    expect(Math.min(raster.width, raster.height)).toBeGreaterThan(1800);
    const result = await findCodes(raster);
    expect(result).toMatchObject({ code: CODE, pass: 'page', orientation: 0 });
    // Where it was drawn, in the full raster's pixels (PDF points from the bottom-left).
    const px = 300 / 72;
    const { topLeft, bottomRight } = result.codes[0]!.position;
    expect(topLeft.x).toBeCloseTo(260 * px, -1);
    expect(topLeft.y).toBeCloseTo((842 - 460) * px, -1);
    expect(bottomRight.x - topLeft.x).toBeCloseTo(side * px, -1);
  });
});

describe('codes that are no usable code', () => {
  it('gives unknown_code for somebody else’s QR code, with the text kept', async () => {
    const writer = await createPdfWriter();
    await writer.addPage([595, 842], ({ page }) => {
      const symbol = qrSymbol('https://example.com/events/bible-week');
      page.drawSvgPath(symbol.path, {
        x: 480,
        y: 820,
        scale: 80 / symbol.size,
        color: rgb(0, 0, 0),
        borderWidth: 0,
      });
    });
    const raster = renderPdfPage(await writer.finish(), 0, DPI);
    const result = await findCodes(raster);
    expect(result.code).toBeNull();
    expect(result.reason).toBe('unknown_code');
    expect(result.orientation).toBeNull();
    expect(result.codes).toMatchObject([
      {
        text: 'https://example.com/events/bible-week',
        code: null,
        rejection: 'unknown_format',
        area: 'top_right',
      },
    ]);
  });

  it('gives other_kind for a code of a kind the upload does not expect', async () => {
    const packet = await printedPage({ prefix: 'p', id: 'PPPP2345' });
    const refused = await findCodes(packet, { expectedPrefixes: ['t', 's', 'c'] });
    expect(refused).toMatchObject({ code: null, reason: 'other_kind', orientation: 0 });
    expect(refused.codes[0]!.code).toEqual({ prefix: 'p', id: 'PPPP2345' });
    const accepted = await findCodes(packet, { expectedPrefixes: ['p'] });
    expect(accepted).toMatchObject({ code: { prefix: 'p', id: 'PPPP2345' }, reason: null });
  });
});

describe('orientationOf', () => {
  it('rounds a code angle to the nearest quarter turn', () => {
    expect([0, 44, 46, 89, 135.1, 179, -179, -91, -89, -44, 180].map(orientationOf)).toEqual([
      0, 0, 90, 90, 180, 180, 180, 270, 270, 0, 180,
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { codeText, codeUrl, type Code } from '../../domain/codes';
import { cropGrey } from '../../pipeline/raster';
import { readQrCodes } from '../../pipeline/zxing-reader';
import { pdfPageSizes, pdfPageTexts, renderPdfPage } from '../../../tests/fixtures/render-pdf';
import { makeAnswerSheetMaster } from '../answer-sheet-master';
import { makeCoverSheet } from '../cover-sheet';
import { createPdfWriter, fitText, printableText } from '../pdf-writer';
import { CODE_STAMP, PAGE_SIZES } from '../printed-page';

const PUBLIC_URL = 'https://portal.example.org';
const DPI = 150;
const MM = DPI / 25.4;

/** The QR payloads found in a page corner (a crop of 45 x 45 mm). */
async function qrTextsIn(
  pdf: Uint8Array,
  pageIndex: number,
  corner: 'top_right' | 'bottom_left' | 'top_left' | 'bottom_right',
) {
  const page = renderPdfPage(pdf, pageIndex, DPI);
  const side = 45 * MM;
  const left = corner.endsWith('right') ? page.width - side : 0;
  const top = corner.startsWith('bottom') ? page.height - side : 0;
  const results = await readQrCodes(cropGrey(page, left, top, side, side));
  return results
    .filter((r) => r.isValid)
    .map((r) => ({
      text: r.text,
      x: (left + r.position.topLeft.x) / MM,
      y: (top + r.position.topLeft.y) / MM,
    }));
}

describe('answer-sheet masters', () => {
  const pages: { page_number: number; code: Code }[] = [
    { page_number: 2, code: { prefix: 't', id: 'BBBB2345' } },
    { page_number: 1, code: { prefix: 't', id: 'AAAA2345' } },
  ];
  const input = {
    courseName: 'The Gospel of John',
    lessonName: 'The Word Became Flesh',
    lessonNumber: 3,
    pages,
    publicUrl: PUBLIC_URL,
  };

  it('prints one A4 page per lesson page, in page order, with course, lesson and page number', async () => {
    const pdf = await makeAnswerSheetMaster(input);
    expect(pdfPageSizes(pdf).map(([w, h]) => [Math.round(w), Math.round(h)])).toEqual([
      [595, 842],
      [595, 842],
    ]);
    const texts = pdfPageTexts(pdf);
    for (const [index, text] of texts.entries()) {
      expect(text).toContain('The Gospel of John');
      expect(text).toContain('Lesson 3: The Word Became Flesh');
      expect(text).toContain(`Answer sheet - page ${index + 1} of 2`);
      expect(text).toContain('Name:');
    }
    // Page 1 carries the first code, twice (beside each QR).
    expect(texts[0]!.split('T-AAAA2345').length - 1).toBe(2);
    expect(texts[1]!.split('T-BBBB2345').length - 1).toBe(2);
    expect(texts[0]).toContain('1.');
    expect(texts[1]).toContain('7.');
  });

  it('puts the same QR code in the top-right and bottom-left corners and nowhere else', async () => {
    const pdf = await makeAnswerSheetMaster(input);
    const url = codeUrl(PUBLIC_URL, { prefix: 't', id: 'AAAA2345' });
    const topRight = await qrTextsIn(pdf, 0, 'top_right');
    const bottomLeft = await qrTextsIn(pdf, 0, 'bottom_left');
    expect(topRight.map((r) => r.text)).toEqual([url]);
    expect(bottomLeft.map((r) => r.text)).toEqual([url]);
    expect(await qrTextsIn(pdf, 0, 'top_left')).toEqual([]);
    expect(await qrTextsIn(pdf, 0, 'bottom_right')).toEqual([]);
    // Upright, at the printed margin (symbol top-left corner, mm from the page's top-left).
    const edge = CODE_STAMP.edgeMarginMm;
    expect(topRight[0]!.x).toBeCloseTo(210 - edge - CODE_STAMP.qrSizeMm, 0);
    expect(topRight[0]!.y).toBeCloseTo(edge, 0);
    expect(bottomLeft[0]!.x).toBeCloseTo(edge, 0);
    expect(bottomLeft[0]!.y).toBeCloseTo(297 - edge - CODE_STAMP.qrSizeMm, 0);
  });

  it('prints the student name on personalised sheets, and Letter paper on request', async () => {
    const pdf = await makeAnswerSheetMaster({
      ...input,
      studentName: 'Grace Okafor',
      pageSize: PAGE_SIZES.letter,
      pages: [{ page_number: 1, code: { prefix: 's', id: 'SSSS2345' } }],
    });
    expect(pdfPageTexts(pdf)[0]).toContain('Grace Okafor');
    expect(pdfPageSizes(pdf)).toEqual([[612, 792]]);
    expect((await qrTextsIn(pdf, 0, 'top_right')).map((r) => r.text)).toEqual([
      codeUrl(PUBLIC_URL, { prefix: 's', id: 'SSSS2345' }),
    ]);
  });

  it('is byte-identical for the same input', async () => {
    expect(
      Buffer.from(await makeAnswerSheetMaster(input)).equals(
        Buffer.from(await makeAnswerSheetMaster(input)),
      ),
    ).toBe(true);
  });

  it('survives names the standard fonts cannot print', async () => {
    const pdf = await makeAnswerSheetMaster({
      ...input,
      courseName: 'Евангелие от Иоанна',
      studentName: '王小明',
      lessonName: 'Kraków ünd Señor',
    });
    const text = pdfPageTexts(pdf)[0]!;
    expect(text).toContain('Kraków ünd Señor');
    // Beyond the standard fonts' WinAnsi: printed in the embedded DejaVu Sans.
    expect(text).toContain('Евангелие от Иоанна');
    // No font here has Chinese: '?' rather than a failed PDF.
    expect(text).toContain('???');
  });

  it('prints Polish, Vietnamese and Greek names, and stays byte-identical with them', async () => {
    const names = { ...input, studentName: 'Łukasz Wróbel', lessonName: 'Nguyễn Thị Ánh – Ελπίδα' };
    const pdf = await makeAnswerSheetMaster(names);
    const text = pdfPageTexts(pdf)[0]!;
    expect(text).toContain('Łukasz Wróbel');
    expect(text).toContain('Nguyễn Thị Ánh – Ελπίδα');
    expect(Buffer.from(pdf).equals(Buffer.from(await makeAnswerSheetMaster(names)))).toBe(true);
  });

  it('prints Hebrew and Arabic right to left, joined, beside Latin text and numbers', async () => {
    const names = {
      ...input,
      courseName: 'دورة الكتاب المقدس',
      lessonName: 'שיעור ראשון: בראשית',
      studentName: 'Sara שרה כהן (12)',
    };
    const pdf = await makeAnswerSheetMaster(names);
    const text = pdfPageTexts(pdf)[0]!;
    // Read back in reading order: drawn in visual order, each word the right way round.
    expect(text).toContain('دورة الكتاب المقدس');
    expect(text).toContain('Lesson 3: שיעור ראשון: בראשית');
    expect(text).toContain('Sara (12) שרה כהן');
    expect(Buffer.from(pdf).equals(Buffer.from(await makeAnswerSheetMaster(names)))).toBe(true);
  });
});

describe('cover sheets', () => {
  const code: Code = { prefix: 'c', id: 'CCCC2345' };

  it('prints the service center name, location and its c code in both corners', async () => {
    const pdf = await makeCoverSheet({
      code,
      name: 'Lagos Service Center',
      location: 'Lagos, Nigeria',
      publicUrl: PUBLIC_URL,
    });
    const [text] = pdfPageTexts(pdf);
    expect(text).toContain('SERVICE CENTER');
    expect(text).toContain('Lagos Service Center');
    expect(text).toContain('Lagos, Nigeria');
    expect(text!.split(codeText(code)).length - 1).toBe(2);
    expect((await qrTextsIn(pdf, 0, 'top_right')).map((r) => r.text)).toEqual([
      codeUrl(PUBLIC_URL, code),
    ]);
    expect((await qrTextsIn(pdf, 0, 'bottom_left')).map((r) => r.text)).toEqual([
      codeUrl(PUBLIC_URL, code),
    ]);
  });

  it('refuses a code that is not a service-center code', async () => {
    await expect(
      makeCoverSheet({
        code: { prefix: 't', id: 'CCCC2345' },
        name: 'x',
        location: 'y',
        publicUrl: PUBLIC_URL,
      }),
    ).rejects.toThrow(/service-center code/);
  });
});

describe('pdf writer', () => {
  it('adds pages one by one and refuses use after finishing', async () => {
    const writer = await createPdfWriter({ title: 'Two pages' });
    await writer.addPage(PAGE_SIZES.a4, ({ page, fonts }) =>
      page.drawText('first', { x: 50, y: 700, font: fonts.regular, size: 12 }),
    );
    await writer.addPage(PAGE_SIZES.letter, ({ page, fonts }) =>
      page.drawText('second', { x: 50, y: 700, font: fonts.bold, size: 12 }),
    );
    const pdf = await writer.finish();
    expect(pdfPageTexts(pdf).map((t) => t.trim())).toEqual(['first', 'second']);
    await expect(writer.addPage(PAGE_SIZES.a4, () => undefined)).rejects.toThrow(/finished/);
    await expect(writer.finish()).rejects.toThrow(/finished/);
  });

  it('picks a font that has the characters, replaces the rest and shortens text to a width', async () => {
    const writer = await createPdfWriter();
    await writer.addPage(PAGE_SIZES.a4, async ({ fonts }) => {
      expect(printableText(fonts.regular, 'Zoë 東京')).toBe('Zoë ??');
      // WinAnsi text keeps the standard font; other scripts get the embedded one.
      expect(await fonts.forText('regular', 'Zoë Señor')).toBe(fonts.regular);
      const unicode = await fonts.forText('bold', 'Łukasz Иван');
      expect(unicode).not.toBe(fonts.bold);
      expect(printableText(unicode, 'Łukasz Иван')).toBe('Łukasz Иван');
      expect(printableText(unicode, 'Sara שרה محمد')).toBe('Sara שרה محمد');
      const long = 'A very long course name that never fits on one narrow line of the header';
      const fitted = await fitText(fonts, 'regular', long, 12, 120);
      expect(fitted.text.endsWith('...')).toBe(true);
      expect(fitted.font.widthOfTextAtSize(fitted.text, 12)).toBeLessThanOrEqual(120);
      expect((await fitText(fonts, 'regular', 'short', 12, 120)).text).toBe('short');
    });
    await writer.finish();
  });
});

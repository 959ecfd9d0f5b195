// The PDFs the workflow prints, checked by reading them back: the streaming writer's files are
// well-formed at any length (every cross-reference entry points at its object); the fast code
// stamp looks exactly like printed-page's; a packet page shows only its own `p` code (the
// student's sheet code under it is gone); a next-lesson page carries the student's `s` code in
// both corners and the student's name.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeAnswerSheetMaster } from '../../server/pdf/answer-sheet-master';
import { createPdfWriter } from '../../server/pdf/pdf-writer';
import { PAGE_SIZES, stampCode } from '../../server/pdf/printed-page';
import { scanJpegPageImage } from '../../server/pipeline/page-image';
import { cropGrey } from '../../server/pipeline/raster';
import { findCodes } from '../../server/pipeline/find-codes';
import { readQrCodes } from '../../server/pipeline/zxing-reader';
import { stampCodeFast } from '../../server/pdf/code-stamp';
import { drawNextLessonPage } from '../../server/pdf/next-lesson-page';
import { drawPacketPage } from '../../server/pdf/packet-page';
import { createStreamingPdfWriter } from '../../server/pdf/streaming-pdf-writer';
import { pdfPageSizes, pdfPageTexts, renderPdfPage } from '../fixtures/render-pdf';

const PUBLIC_URL = 'https://portal.example.org';
let dir: string;
let scanJpeg: Buffer;
const SHEET_CODE = { prefix: 't', id: 'TTTT2345' } as const;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'workflow-printing-'));
  // A student's answer sheet as scanned: the master with its own t code, at 200 dpi.
  const master = await makeAnswerSheetMaster({
    courseName: 'The Gospel of John',
    lessonName: 'The Word Became Flesh',
    lessonNumber: 1,
    pages: [{ page_number: 1, code: SHEET_CODE }],
    publicUrl: PUBLIC_URL,
  });
  const raster = renderPdfPage(master, 0, 200);
  scanJpeg = await sharp(Buffer.from(raster.data), { raw: { width: raster.width, height: raster.height, channels: 1 } }).jpeg({ quality: 80 }).toBuffer();
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the streaming PDF writer', () => {
  it('writes a well-formed PDF over several chunks: every page, in order, every object where the table says', async () => {
    const file = path.join(dir, 'long.pdf');
    const writer = await createStreamingPdfWriter(file, { title: 'Return file – Zoë', pagesPerChunk: 7 });
    for (let i = 0; i < 30; i++) {
      await writer.addPage(i % 3 === 0 ? PAGE_SIZES.letter : PAGE_SIZES.a4, ({ page, fonts }) => {
        page.drawText(`Page number ${i + 1}`, { x: 72, y: 400, size: 14, font: fonts.bold });
      });
    }
    expect(writer.pageCount).toBe(30);
    expect(await writer.finish()).toMatchObject({ pages: 30 });
    const bytes = new Uint8Array(await readFile(file));
    expect(pdfPageTexts(bytes).map((text) => text.trim())).toEqual(Array.from({ length: 30 }, (_, i) => `Page number ${i + 1}`));
    expect(pdfPageSizes(bytes).map(([w]) => Math.round(w))).toEqual(Array.from({ length: 30 }, (_, i) => (i % 3 === 0 ? 612 : 595)));

    const text = Buffer.from(bytes).toString('latin1');
    const startxref = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(text)![1]);
    const table = text.slice(startxref).split('\n');
    expect(table[0]).toBe('xref');
    const count = Number(table[1]!.split(' ')[1]);
    let objects = 0;
    for (let n = 1; n < count; n++) {
      const entry = table[2 + n]!;
      expect(entry.length).toBe(19); // 20 bytes with the newline
      if (entry.endsWith(' n ')) {
        objects++;
        expect(text.startsWith(`${n} 0 obj\n`, Number(entry.slice(0, 10)))).toBe(true);
      }
    }
    expect(objects).toBeGreaterThan(30);
  });

  it('removes its file when aborted', async () => {
    const file = path.join(dir, 'aborted.pdf');
    const writer = await createStreamingPdfWriter(file);
    await writer.addPage(PAGE_SIZES.a4, () => undefined);
    await writer.abort();
    await expect(readFile(file)).rejects.toThrow(/ENOENT/);
  });
});

describe('page codes', () => {
  it('stamps codes fast exactly as printed-page does', async () => {
    const code = { prefix: 'p', id: 'ABCD2345' } as const;
    const pdfs: Uint8Array[] = [];
    for (const stamp of [stampCode, stampCodeFast]) {
      const writer = await createPdfWriter();
      await writer.addPage(PAGE_SIZES.a4, ({ page, fonts }) => stamp(page, code, { publicUrl: PUBLIC_URL, fonts }));
      pdfs.push(await writer.finish());
    }
    const [slow, fast] = pdfs.map((pdf) => renderPdfPage(pdf, 0, 150));
    let differing = 0;
    let ink = 0;
    for (let i = 0; i < slow!.data.length; i++) {
      if (slow!.data[i]! < 128) ink++;
      if (Math.abs(slow!.data[i]! - fast!.data[i]!) > 96) differing++;
    }
    expect(ink).toBeGreaterThan(5000);
    expect(differing / ink).toBeLessThan(0.01);
    expect((await findCodes(fast!)).code).toEqual(code);
  });

  it("prints a packet page with only its own p code: the student's sheet code under it is gone", async () => {
    const writer = await createPdfWriter();
    const code = { prefix: 'p', id: 'PPPP2345' } as const;
    await writer.addPage(PAGE_SIZES.a4, (context) =>
      drawPacketPage(context, { jpeg: scanJpeg, code, studentHumanId: 1042, lessonName: 'Lesson 1: The Word', congregationCode: 'NG 0001', pageNumber: 1, pageCount: 2 }, PUBLIC_URL),
    );
    const pdf = await writer.finish();
    const page = renderPdfPage(pdf, 0, 150);
    const found = await findCodes(page);
    expect(found.code).toEqual(code);
    // Every symbol on the whole page: the p code, twice; never the sheet's t code.
    const everything = await readQrCodes(page, { maxNumberOfSymbols: 8 });
    const texts = everything.filter((r) => r.isValid).map((r) => r.text);
    expect(texts).toEqual([`${PUBLIC_URL}/api/qr-api/p/PPPP2345`, `${PUBLIC_URL}/api/qr-api/p/PPPP2345`]);
    const [text] = pdfPageTexts(pdf);
    expect(text).toContain('Student 1042  |  Lesson 1: The Word  |  NG 0001  |  page 1 of 2');
    expect(text).toContain('P-PPPP2345');
  });

  it('prints a scan kept turned (shown upright by its EXIF orientation) as it prints the upright scan', async () => {
    const code = { prefix: 'p', id: 'PPPP2345' } as const;
    const packetPage = async (jpeg: Uint8Array) => {
      const writer = await createPdfWriter();
      await writer.addPage(PAGE_SIZES.a4, (context) =>
        drawPacketPage(context, { jpeg, code, studentHumanId: 1042, lessonName: 'Lesson 1', congregationCode: 'NG 0001', pageNumber: 1, pageCount: 1 }, PUBLIC_URL),
      );
      return renderPdfPage(await writer.finish(), 0, 100);
    };
    const upright = await packetPage(scanJpeg);
    const size = await sharp(scanJpeg).metadata();
    for (const orientation of [90, 180, 270] as const) {
      // The sheet fed turned clockwise by `orientation`: its scan, kept as the pipeline keeps it.
      const scanned = await sharp(scanJpeg).rotate(orientation).jpeg({ quality: 80 }).toBuffer();
      const kept = scanJpegPageImage(scanned, { width: orientation === 180 ? size.width : size.height, height: orientation === 180 ? size.height : size.width }, orientation);
      expect([kept.width, kept.height]).toEqual([size.width, size.height]);
      const printed = await packetPage(kept.jpeg);
      expect([printed.width, printed.height]).toEqual([upright.width, upright.height]);
      let ink = 0;
      let differing = 0;
      for (let i = 0; i < upright.data.length; i++) {
        if (upright.data[i]! < 128) ink++;
        if (Math.abs(upright.data[i]! - printed.data[i]!) > 96) differing++;
      }
      expect(ink).toBeGreaterThan(5000);
      expect(differing / ink).toBeLessThan(0.02);
    }
  });

  it("prints a next-lesson page with the student's s code in both corners and the student's name", async () => {
    const writer = await createStreamingPdfWriter(path.join(dir, 'next.pdf'));
    const input = {
      courseName: 'The Gospel of John',
      lessonName: 'The Wedding at Cana',
      lessonNumber: 2,
      pages: [
        { page_number: 1, code: { prefix: 's', id: 'SSSS2345' } },
        { page_number: 2, code: { prefix: 's', id: 'SSSS6789' } },
      ] as const,
      publicUrl: PUBLIC_URL,
      studentName: 'Grace Okafor (ID 1042)',
    };
    for (const index of [0, 1]) {
      await writer.addPage(PAGE_SIZES.a4, (context) => drawNextLessonPage(context, { input: { ...input, pages: [...input.pages] }, index, masterKey: `test-lesson-${index}` }, PAGE_SIZES.a4));
    }
    await writer.finish();
    const pdf = new Uint8Array(await readFile(path.join(dir, 'next.pdf')));
    for (const [index, id] of ['SSSS2345', 'SSSS6789'].entries()) {
      const page = renderPdfPage(pdf, index, 150);
      const side = Math.round(page.width * 0.3);
      for (const [left, top] of [
        [page.width - side, 0],
        [0, page.height - side],
      ] as const) {
        const corner = await readQrCodes(cropGrey(page, left, top, side, side));
        expect(corner.filter((r) => r.isValid).map((r) => r.text)).toEqual([`${PUBLIC_URL}/api/qr-api/s/${id}`]);
      }
      const text = pdfPageTexts(pdf)[index]!;
      expect(text).toContain('Grace Okafor (ID 1042)');
      expect(text).toContain(`Answer sheet - page ${index + 1} of 2`);
      expect(text).toContain(`S-${id}`);
      expect(text).not.toContain('S-22222222');
    }
  });

  it('prints names beyond Latin-1 on packet pages, in every chunk of a streamed PDF', async () => {
    // One page per chunk: each chunk embeds its own copy of the font, with that page's glyphs.
    const writer = await createStreamingPdfWriter(path.join(dir, 'names.pdf'), { pagesPerChunk: 1 });
    const names = ['Łukasz Wróbel', 'Иван Петров'];
    for (const [index, studentName] of names.entries()) {
      const input = {
        courseName: 'The Gospel of John',
        lessonName: 'The Wedding at Cana',
        lessonNumber: 2,
        pages: [{ page_number: 1, code: { prefix: 's' as const, id: index === 0 ? 'SSSS2345' : 'SSSS6789' } }],
        publicUrl: PUBLIC_URL,
        studentName,
      };
      await writer.addPage(PAGE_SIZES.a4, (context) => drawNextLessonPage(context, { input, index: 0, masterKey: 'test-names' }, PAGE_SIZES.a4));
    }
    await writer.finish();
    const pdf = new Uint8Array(await readFile(path.join(dir, 'names.pdf')));
    expect(pdfPageTexts(pdf).map((text, index) => text.includes(names[index]!))).toEqual([true, true]);
  });
});

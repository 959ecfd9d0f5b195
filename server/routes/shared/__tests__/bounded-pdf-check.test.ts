// The upload-time PDF check runs off the event loop and is stopped past its time limit: a PDF
// whose cross-reference table must be rebuilt over 400,000 objects leaves other work on time.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { checkPdfBounded } from '../bounded-pdf-check';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pdf-check-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A one-page PDF with `objects` extra objects and a cross-reference offset that points nowhere. */
function brokenXrefPdf(objects: number): string {
  const parts = ['%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>\nendobj\n'];
  for (let i = 4; i < objects + 4; i++) parts.push(`${i} 0 obj\n<< /N ${i} /A [${i} ${i} ${i}] >>\nendobj\n`);
  parts.push('xref\n0 1\n0000000000 65535 f \ntrailer\n<< /Size 4 /Root 1 0 R >>\nstartxref\n999999999\n%%EOF\n');
  const file = path.join(dir, `broken-${objects}.pdf`);
  fs.writeFileSync(file, parts.join(''));
  return file;
}

describe('checkPdfBounded', () => {
  it('answers the page count of a sound PDF, and the problem of a bad one', async () => {
    const doc = await PDFDocument.create();
    doc.addPage();
    doc.addPage();
    const file = path.join(dir, 'two.pdf');
    fs.writeFileSync(file, await doc.save());
    expect(await checkPdfBounded(file)).toEqual({ pageCount: 2 });
    const text = path.join(dir, 'text.pdf');
    fs.writeFileSync(text, 'hello');
    await expect(checkPdfBounded(text)).rejects.toMatchObject({ problem: 'not_a_pdf' });
  }, 60_000);

  it('keeps the event loop free while mupdf rebuilds a broken file, and stops it at the time limit', async () => {
    const file = brokenXrefPdf(400_000);
    let worstLagMs = 0;
    let last = Date.now();
    const ticker = setInterval(() => {
      const now = Date.now();
      worstLagMs = Math.max(worstLagMs, now - last - 20);
      last = now;
    }, 20);
    try {
      const result = await checkPdfBounded(file).catch((error: unknown) => error);
      // Read or refused, the answer came without stalling this thread.
      expect(result).toBeDefined();
      expect(worstLagMs).toBeLessThan(200);
      // With a limit it cannot meet, the check is stopped and the file called too complex.
      const started = Date.now();
      await expect(checkPdfBounded(file, 50)).rejects.toMatchObject({ problem: 'too_complex' });
      expect(Date.now() - started).toBeLessThan(2_000);
    } finally {
      clearInterval(ticker);
    }
  }, 120_000);
});

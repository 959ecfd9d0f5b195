// Test set-up for the file workflow after review: a processed file made ready to send (warnings
// dealt with, sheets assigned), packets "printed, graded and scanned back" (rasterised,
// pen marks, tilt, noise, duplex backs), graded uploads, and reading codes back from any PDF.
import * as mupdf from 'mupdf';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { Database } from '../../server/db/database';
import type { Code } from '../../server/domain/codes';
import { findCodes } from '../../server/pipeline/find-codes';
import type { GreyRaster } from '../../server/pipeline/raster';
import { createPrng } from '../fixtures/prng';
import { renderPdfPage } from '../fixtures/render-pdf';
import { addNoise, addSpecks, drawStroke, scanLook, writeAnswers, writeLine } from '../fixtures/scan-effects';
import { ScanPdfBuilder } from '../fixtures/scan-pdf';
import type { SignedIn } from '../helpers/sign-in';
import { multipartBody } from './pipeline-world';

export const SCAN_DPI = 150;

export async function waitFor<T>(what: string, check: () => Promise<T | null | undefined | false>, timeoutMs = 60_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await check();
    if (value !== null && value !== undefined && value !== false) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function api(app: FastifyInstance, who: SignedIn | null, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) {
  const response = await app.inject({
    method,
    url,
    headers: who === null ? {} : who.headers,
    ...(payload === undefined ? {} : { payload: payload as string }),
  });
  const type = String(response.headers['content-type'] ?? '');
  return {
    status: response.statusCode,
    json: type.includes('json') ? (response.json() as Record<string, unknown> & unknown[]) : undefined,
    raw: response,
  };
}

/**
 * Deals with the file's review warnings the way an admin would (ignores pages without a usable
 * code, and sheets without a lesson), then assigns every kept sheet: all to `first`, then the
 * sheets `toSecond` picks to `second` one by one.
 */
export async function reviewAndAssign(
  app: FastifyInstance,
  db: Database,
  admin: SignedIn,
  fileId: string,
  first: string,
  second?: { congregationId: string; pick: (sheetIndex: number) => boolean },
): Promise<void> {
  const pages = await db.query<{ id: string }>(
    `SELECT p.id FROM pages p LEFT JOIN answer_sheets a ON a.id = p.answer_sheet_id
     WHERE p.file_id = $1 AND p.answer_sheet_id IS NOT NULL AND NOT p.ignored
       AND (p.unrecognized_reason IS NOT NULL OR p.flag IS NOT NULL OR a.lesson_id IS NULL)`,
    [fileId],
  );
  for (const page of pages) expect((await api(app, admin, 'PATCH', `/api/pages/${page.id}`, { ignored: true })).status).toBe(200);
  const assigned = await api(app, admin, 'PATCH', `/api/answer-sheets?file=${fileId}`, { assigned_group: first });
  expect(assigned.status).toBe(200);
  if (second) {
    const sheets = await db.query<{ id: string }>(
      `SELECT a.id FROM answer_sheets a WHERE a.file_id = $1
         AND EXISTS (SELECT 1 FROM pages p WHERE p.answer_sheet_id = a.id AND NOT p.ignored) ORDER BY a.sequence`,
      [fileId],
    );
    for (const [index, sheet] of sheets.entries()) {
      if (!second.pick(index)) continue;
      expect((await api(app, admin, 'PATCH', `/api/answer-sheets/${sheet.id}`, { assigned_group: second.congregationId })).status).toBe(200);
    }
  }
}

export type BackKind = 'none' | 'blank' | 'comment';

export interface ScanBackOptions {
  seed: number;
  /** 0-based pages of the PDF to scan, in scan order (default: all). */
  pages?: number[];
  /** What follows each scanned page (duplex back). */
  back?: (scanIndex: number) => BackKind;
  /** Turn some pages upside down on the glass. */
  upsideDown?: (scanIndex: number) => boolean;
}

/** A printed PDF as it comes back from grading: pen marks, tilt, noise, JPEG, duplex backs. */
export async function scanGradedPackets(pdf: Uint8Array, options: ScanBackOptions): Promise<Uint8Array> {
  const prng = createPrng(options.seed);
  const builder = await ScanPdfBuilder.create();
  const pages = options.pages ?? [...Array(pdfPageCount(pdf)).keys()];
  for (const [scanIndex, pageIndex] of pages.entries()) {
    const printed = renderPdfPage(pdf, pageIndex, SCAN_DPI);
    writeAnswers(printed, prng, SCAN_DPI, 3);
    gradeMarks(printed, prng);
    const scanned = await scanLook(printed, {
      orientation: options.upsideDown?.(scanIndex) ? 180 : 0,
      tilt: Math.round(prng.range(-1.5, 1.5) * 10) / 10,
      blur: 0,
      contrast: 1,
      brightness: 0,
      background: 250,
    });
    addNoise(scanned, prng, 3);
    await builder.addPage({ raster: scanned, dpi: SCAN_DPI, encoding: 'jpeg_grey', quality: 70 });
    const back = options.back?.(scanIndex) ?? 'none';
    if (back === 'none') continue;
    const paper: GreyRaster = { width: printed.width, height: printed.height, data: new Uint8Array(printed.width * printed.height).fill(248) };
    if (back === 'blank') addSpecks(paper, prng, SCAN_DPI, 3, 1);
    else for (let line = 0; line < 5; line++) writeLine(paper, prng, 30 * (SCAN_DPI / 25.4), paper.height * (0.3 + line * 0.06), paper.width * 0.6, SCAN_DPI);
    addNoise(paper, prng, 3);
    await builder.addPage({ raster: paper, dpi: SCAN_DPI, encoding: 'jpeg_grey', quality: 70 });
  }
  return builder.save();
}

/** A helper's ticks and crosses in the answer area. */
function gradeMarks(r: GreyRaster, prng: ReturnType<typeof createPrng>): void {
  const mm = SCAN_DPI / 25.4;
  for (let i = 0; i < 4; i++) {
    const x = r.width * prng.range(0.6, 0.8);
    const y = r.height * prng.range(0.25, 0.75);
    drawStroke(r, x, y, x + 3 * mm, y + 4 * mm, 0.5 * mm, 40);
    drawStroke(r, x + 3 * mm, y + 4 * mm, x + 10 * mm, y - 6 * mm, 0.5 * mm, 40);
  }
}

export function pdfPageCount(pdf: Uint8Array): number {
  const doc = mupdf.Document.openDocument(pdf, 'application/pdf');
  try {
    return doc.countPages();
  } finally {
    doc.destroy();
  }
}

/** The code printed on every page of a PDF (null where there is none), read like a scan is. */
export async function codesOnPages(pdf: Uint8Array, dpi = SCAN_DPI): Promise<(Code | null)[]> {
  const codes: (Code | null)[] = [];
  for (let i = 0; i < pdfPageCount(pdf); i++) {
    const found = await findCodes(renderPdfPage(pdf, i, dpi), { cleanup: false });
    codes.push(found.code);
  }
  return codes;
}

export async function uploadGraded(app: FastifyInstance, who: SignedIn, content: Uint8Array, fields: Record<string, string> = {}) {
  const body = multipartBody({ name: 'Graded packet', ...fields }, { filename: 'graded.pdf', content });
  const response = await app.inject({
    method: 'POST',
    url: '/api/study-helpers/file',
    headers: { ...who.headers, ...body.headers },
    payload: body.payload,
  });
  return { status: response.statusCode, body: response.json() as { status?: string; id?: string; detail?: unknown } };
}

export async function waitForUpload(db: Database, uploadId: string): Promise<string> {
  return waitFor(`upload ${uploadId}`, async () => {
    const row = await db.maybeOne<{ process_status: string }>('SELECT process_status FROM graded_uploads WHERE id = $1', [uploadId]);
    return row && row.process_status !== 'pending' ? row.process_status : null;
  });
}

export async function uploadOutcomes(db: Database, uploadId: string) {
  return db.query<{ page_number: number; outcome: string; page_id: string | null; detail: string | null }>(
    'SELECT page_number, outcome, page_id, detail FROM graded_upload_pages WHERE upload_id = $1 ORDER BY page_number',
    [uploadId],
  );
}

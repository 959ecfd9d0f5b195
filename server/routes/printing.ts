// The paper the product hands out, so what it prints it can read back: a lesson's blank
// answer-sheet master (each page with its `t` code) and a service center's batch cover sheet
// (its `c` code, issued on first print and reused afterwards).
import type { FastifyInstance, FastifyReply } from 'fastify';
import { requireAdmin } from '../auth/session';
import type { Route } from '../contract/types';
import { issuePrintedCode } from '../db/printed-codes';
import { notFound } from '../http-error';
import { contentDisposition, pdfName } from './shared/blob-response';
import { pdfDrawing } from '../pdf/lazy-drawing';

export async function printingRoutes(app: FastifyInstance) {
  const db = app.db;

  app.get<Route<'printLessonMaster'>>('/api/courses/:id/lessons/:lesson_id/master.pdf', async (request, reply) => {
    requireAdmin(request);
    const lesson = await db.maybeOne<{ name: string; number: number; course_name: string }>(
      `SELECT l.name, l.number, c.name AS course_name FROM lessons l JOIN courses c ON c.id = l.course_id
       WHERE l.id = $1 AND l.course_id = $2`,
      [request.params.lesson_id, request.params.id],
    );
    if (lesson === null) throw notFound('Lesson not found');
    const templates = await db.query<{ page_number: number; code_id: string }>(
      'SELECT page_number, code_id FROM page_templates WHERE lesson_id = $1 ORDER BY page_number',
      [request.params.lesson_id],
    );
    if (templates.length === 0) throw notFound('This lesson has no answer-sheet pages');
    const { makeAnswerSheetMaster } = await pdfDrawing();
    const pdf = await makeAnswerSheetMaster({
      courseName: lesson.course_name,
      lessonName: lesson.name,
      lessonNumber: lesson.number,
      pages: templates.map((t) => ({ page_number: t.page_number, code: { prefix: 't', id: t.code_id } })),
      publicUrl: app.config.publicUrl,
    });
    return sendPdf(reply, pdf, pdfName(`${lesson.course_name} - Lesson ${lesson.number} - answer sheet`, 'answer-sheet'));
  });

  app.get<Route<'printServiceCenterCoverSheet'>>('/api/service_centers/:id/cover-sheet.pdf', async (request, reply) => {
    requireAdmin(request);
    const center = await db.maybeOne<{ id: string; name: string; location: string }>(
      'SELECT id, name, location FROM service_centers WHERE id = $1',
      [request.params.id],
    );
    if (center === null) throw notFound('Service center not found');
    const codeId = await db.transaction(async (tx) => {
      // One c code per service center: every cover sheet it prints is the same.
      await tx.query(`SELECT pg_advisory_xact_lock(hashtext('cover-code:' || $1))`, [center.id]);
      const existing = await tx.maybeOne<{ code_id: string }>(
        `SELECT code_id FROM printed_codes WHERE prefix = 'c' AND target_id = $1 ORDER BY created_at LIMIT 1`,
        [center.id],
      );
      return existing?.code_id ?? (await issuePrintedCode(tx, { prefix: 'c', targetId: center.id }));
    });
    const { makeCoverSheet } = await pdfDrawing();
    const pdf = await makeCoverSheet({
      code: { prefix: 'c', id: codeId },
      name: center.name,
      location: center.location,
      publicUrl: app.config.publicUrl,
    });
    return sendPdf(reply, pdf, pdfName(`${center.name} - cover sheet`, 'cover-sheet'));
  });
}

function sendPdf(reply: FastifyReply, pdf: Uint8Array, filename: string): FastifyReply {
  return reply
    .type('application/pdf')
    .header('content-disposition', contentDisposition(filename))
    .header('cache-control', 'private, no-cache')
    .send(Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength));
}

// Where a phone lands after scanning a printed code ({PUBLIC_URL}/api/qr-api/{prefix}/{id}):
// t (blank master page) → its course, s (personalised sheet page) → the student,
// p (received page) → the page's information screen, c (cover sheet) → the service center.
// Public on purpose (a phone is rarely signed in); the target screens ask for sign-in.
import type { FastifyInstance } from 'fastify';
import type { Route } from '../contract/types';
import { notFound } from '../http-error';
import { normaliseCodeId } from '../db/printed-codes';

const CODE_NOT_FOUND = 'Unknown code';

export async function qrRoutes(app: FastifyInstance) {
  app.get<Route<'resolveQrCode'>>('/api/qr-api/:prefix/:id', async (request, reply) => {
    const { prefix } = request.params;
    const id = normaliseCodeId(request.params.id);
    const target = await resolveTarget(app, prefix, id);
    if (target === null) throw notFound(CODE_NOT_FOUND);
    return reply.code(302).header('cache-control', 'no-store').redirect(`${app.config.publicUrl}${target}`, 302);
  });
}

async function resolveTarget(app: FastifyInstance, prefix: 't' | 's' | 'p' | 'c', id: string): Promise<string | null> {
  const db = app.db;
  switch (prefix) {
    case 't': {
      // Templates carry their t code; printed_codes may record it too.
      const row = await db.maybeOne<{ course_id: string; lesson_id: string; page_number: number }>(
        `SELECT l.course_id, l.id AS lesson_id, pt.page_number
         FROM page_templates pt JOIN lessons l ON l.id = pt.lesson_id
         WHERE pt.code_id = $1
            OR pt.id = (SELECT target_id FROM printed_codes WHERE prefix = 't' AND code_id = $1)
         LIMIT 1`,
        [id],
      );
      // The web app has no course screen: a blank master's code leads to that lesson's printable master.
      return row === null ? null : `/api/courses/${row.course_id}/lessons/${row.lesson_id}/master.pdf#page=${row.page_number}`;
    }
    case 's': {
      const row = await db.maybeOne<{ student_id: string | null }>(
        `SELECT pc.student_id FROM printed_codes pc JOIN students s ON s.id = pc.student_id WHERE pc.prefix = 's' AND pc.code_id = $1`,
        [id],
      );
      return row?.student_id ? `/students/${row.student_id}` : null;
    }
    case 'p': {
      const row = await db.maybeOne<{ page_id: string }>(
        `SELECT p.id AS page_id FROM printed_codes pc JOIN pages p ON p.id = pc.target_id WHERE pc.prefix = 'p' AND pc.code_id = $1`,
        [id],
      );
      return row === null ? null : `/admin/pages/${row.page_id}`;
    }
    case 'c': {
      const row = await db.maybeOne<{ id: string }>(
        `SELECT sc.id FROM printed_codes pc JOIN service_centers sc ON sc.id = pc.target_id WHERE pc.prefix = 'c' AND pc.code_id = $1`,
        [id],
      );
      return row === null ? null : `/admin/service-centers/${row.id}`;
    }
  }
}

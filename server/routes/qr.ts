// Where a phone lands after scanning a printed code ({PUBLIC_URL}/api/qr-api/{prefix}/{id}):
// t (blank master page) → its course, s (personalised sheet page) → the student,
// p (received page) → the page's information screen, c (cover sheet) → the service center.
// Public on purpose (a phone is rarely signed in); the target screens ask for sign-in.
import type { FastifyInstance } from 'fastify';
import type { Route } from '../contract/types';
import { notFound } from '../http-error';
import { normaliseCodeId } from '../db/printed-codes';
import { lessonPageOfTemplateCode } from '../repositories/page-templates';
import { pageOfPageCode, serviceCenterOfCoverCode, studentOfSheetCode } from '../repositories/printed-codes';

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
      const row = await lessonPageOfTemplateCode(db, id);
      // The web app has no course screen: a blank master's code leads to that lesson's printable master.
      return row === null ? null : `/api/courses/${row.course_id}/lessons/${row.lesson_id}/master.pdf#page=${row.page_number}`;
    }
    case 's': {
      const studentId = await studentOfSheetCode(db, id);
      return studentId ? `/students/${studentId}` : null;
    }
    case 'p': {
      const pageId = await pageOfPageCode(db, id);
      return pageId === null ? null : `/admin/pages/${pageId}`;
    }
    case 'c': {
      const centerId = await serviceCenterOfCoverCode(db, id);
      return centerId === null ? null : `/admin/service-centers/${centerId}`;
    }
  }
}

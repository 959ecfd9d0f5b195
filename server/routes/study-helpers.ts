// Study helpers across congregations: the list (by name and congregation) and one helper with
// how many students it has. A coordinator sees only its own congregation's helpers. An admin
// deletes a helper made by mistake while no student or graded upload names it (else 409).
import type { FastifyInstance } from 'fastify';
import { congregationScope } from '../auth/session';
import type { ReplyOf, Route } from '../contract/types';
import { notFound } from '../http-error';
import { STUDY_HELPER_NOT_FOUND } from './shared/errors';
import { refuseWhileUsed } from './shared/in-use';
import { pageOf, paged } from './shared/paging';
import { listCongregation } from './shared/scope';
import { STUDY_HELPER_SELECT, studyHelperOf, type StudyHelperRow } from './shared/study-helper';
import { Where, containsPattern } from './shared/where';

export async function studyHelperRoutes(app: FastifyInstance) {
  const db = app.db;

  app.get<Route<'listStudyHelpers'>>('/api/study-helpers', async (request): Promise<ReplyOf<'listStudyHelpers'>> => {
    const congregation = listCongregation(request, request.query.congregation);
    const page = pageOf(request.query);
    const where = new Where().addIf(congregation, (p) => `h.congregation_id = ${p}`);
    const name = request.query.name?.trim();
    if (name) where.add((p) => `lower(h.name) LIKE ${p}`, containsPattern(name));
    const { total } = await db.one<{ total: number }>(`SELECT count(*) AS total FROM study_helpers h ${where.sql}`, where.params);
    const rows = await db.query<StudyHelperRow>(
      `${STUDY_HELPER_SELECT} ${where.sql}
       ORDER BY lower(h.name), h.id LIMIT ${where.param(page.limit)} OFFSET ${where.param(page.skip)}`,
      where.params,
    );
    return paged(rows.map(studyHelperOf), total, page);
  });

  app.get<Route<'getStudyHelper'>>('/api/study-helpers/:id', async (request): Promise<ReplyOf<'getStudyHelper'>> => {
    const scope = congregationScope(request);
    const row = await db.maybeOne<StudyHelperRow>(
      `${STUDY_HELPER_SELECT} WHERE h.id = $1 AND ($2::uuid IS NULL OR h.congregation_id = $2::uuid)`,
      [request.params.id, scope],
    );
    // Another congregation's helper is as invisible to a coordinator as a missing one.
    if (row === null) throw notFound(STUDY_HELPER_NOT_FOUND);
    return studyHelperOf(row);
  });

  app.delete<Route<'deleteStudyHelper'>>('/api/study-helpers/:id', async (request, reply) => {
    const id = request.params.id;
    await db.transaction(async (tx) => {
      const found = await tx.maybeOne('SELECT id FROM study_helpers WHERE id = $1 FOR UPDATE', [id]);
      if (found === null) throw notFound(STUDY_HELPER_NOT_FOUND);
      await refuseWhileUsed(tx, 'study helper', id, [
        { name: ['student', 'students'], countSql: 'SELECT count(*) FROM students WHERE study_helper_id = $1' },
        { name: ['graded upload', 'graded uploads'], countSql: 'SELECT count(*) FROM feedback_uploads WHERE study_helper_id = $1' },
      ]);
      await tx.query('DELETE FROM study_helpers WHERE id = $1', [id]);
    });
    return reply.code(204).send();
  });
}

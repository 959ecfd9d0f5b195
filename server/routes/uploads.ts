// Graded-packet uploads that congregations sent back (feedback uploads): sorted, filtered by
// congregation and paged. A coordinator sees its own congregation's uploads only.
import type { FastifyInstance } from 'fastify';
import type { ReplyOf, Route, Schemas } from '../contract/types';
import { orderClause, pageOf, paged, type SortColumn } from './shared/paging';
import { iso } from './shared/refs';
import { listCongregation } from './shared/scope';
import { Where } from './shared/where';

const SORT: Record<'name' | 'created_at', SortColumn> = {
  name: { sql: 'lower(name)', defaultDirection: 'asc' },
  created_at: { sql: 'created_at', defaultDirection: 'desc' },
};

interface UploadRow {
  id: string;
  name: string;
  created_at: Date;
  process_status: Schemas['ProcessStatus'];
  is_intro: boolean;
}

export async function uploadRoutes(app: FastifyInstance) {
  const db = app.db;

  app.get<Route<'listUploads'>>('/api/uploads/', async (request): Promise<ReplyOf<'listUploads'>> => {
    const query = request.query;
    const congregation = listCongregation(request, query.group_id);
    const page = pageOf(query);
    const where = new Where().addIf(congregation, (p) => `congregation_id = ${p}`);
    const order = orderClause(SORT, query.order_by ?? 'created_at', query.order_direction, 'id');
    const { total } = await db.one<{ total: number }>(`SELECT count(*) AS total FROM feedback_uploads ${where.sql}`, where.params);
    const rows = await db.query<UploadRow>(
      `SELECT id, name, created_at, process_status, is_intro FROM feedback_uploads ${where.sql}
       ${order} LIMIT ${where.param(page.limit)} OFFSET ${where.param(page.skip)}`,
      where.params,
    );
    return paged(
      rows.map((row) => ({ ...row, created_at: iso(row.created_at) })),
      total,
      page,
    );
  });
}

// Uploads: the graded packets congregations sent back (graded uploads) and, for admins, the
// service centers' files: the list (sorted, filtered by congregation, paged, with each upload's
// matched / not matched counts), an upload's report page by page, and the scan of a page for the
// report's thumbnails. A coordinator sees its own congregation's graded uploads only. An upload sent by mistake is withdrawn by an admin or by its
// congregation's coordinator (workflow/withdraw-upload.ts).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { congregationScope } from '../auth/session';
import type { ReplyOf, Route, Schemas } from '../contract/types';
import { forbidden, notFound } from '../http-error';
import { sendBlob } from './shared/blob-response';
import { IMAGE_CACHE_CONTROL } from '../jobs/job-types';
import { meaningOf } from '../domain/upload-report';
import { uploadSummaryJoin } from '../repositories/sql/upload-summary';
import { UPLOAD_NOT_FOUND, withdrawUpload } from '../workflow/withdraw-upload';
import { fileUploadReport, fileUploadSummaryJoin, filePageImageKey } from './shared/file-upload-report';
import { pageOf, paged } from './shared/paging';
import { orderClause, type SortColumn } from '../repositories/sql/paging';
import { listCongregation } from './shared/scope';
import { Where } from '../repositories/sql/where';

const SORT: Record<'name' | 'created_at', SortColumn> = {
  name: { sql: 'lower(u.name)', defaultDirection: 'asc' },
  created_at: { sql: 'u.created_at', defaultDirection: 'desc' },
};

interface UploadHeadRow {
  id: string;
  name: string;
  created_at: Date;
  process_status: Schemas['ProcessStatus'];
  is_intro: boolean;
  kind: Schemas['UploadKind'];
}

/** An upload's counts (the columns of uploadSummaryJoin and fileUploadSummaryJoin). */
type SummaryRow = { id: string } & Schemas['UploadSummary'];

type UploadRow = Omit<UploadHeadRow, 'kind'> & SummaryRow;

const summaryOf = (row: SummaryRow): Schemas['UploadSummary'] => ({
  pages_read: row.pages_read,
  matched: row.matched,
  not_matched: row.not_matched,
  blank_dropped: row.blank_dropped,
});

interface ReportPageRow {
  page_number: number;
  outcome: string | null;
  detail: string | null;
  code_prefix: string | null;
  code_id: string | null;
  identified_by: Schemas['IdentifiedBy'] | null;
  has_image: boolean;
  file_id: string | null;
  file_name: string | null;
  sheet_id: string | null;
  student_human_id: number | null;
  lesson: string | null;
}

export async function uploadRoutes(app: FastifyInstance) {
  const db = app.db;

  /**
   * The graded upload, when the caller may see it (403 another congregation's); null when the id
   * is none: it may be an admin's service center file.
   */
  const gradedUploadFor = async (request: FastifyRequest, id: string) => {
    const scope = congregationScope(request);
    const upload = await db.maybeOne<UploadRow & { congregation_id: string; failure_reason: string | null }>(
      `SELECT u.id, u.name, u.created_at, u.process_status, u.is_intro, u.congregation_id, u.failure_reason, summary.*
       FROM graded_uploads u ${uploadSummaryJoin('u')} WHERE u.id = $1`,
      [id],
    );
    if (upload === null && scope !== null) throw notFound(UPLOAD_NOT_FOUND);
    if (upload !== null && scope !== null && upload.congregation_id !== scope) throw forbidden();
    return upload;
  };

  /** Each listed upload's counts, from its own kind's pages. */
  const summariesOf = async (rows: readonly UploadHeadRow[]): Promise<Map<string, SummaryRow>> => {
    const ids = (kind: Schemas['UploadKind']) => rows.filter((row) => row.kind === kind).map((row) => row.id);
    const counts = [
      ...(await db.query<SummaryRow>(`SELECT u.id, summary.* FROM graded_uploads u ${uploadSummaryJoin('u')} WHERE u.id = ANY($1::uuid[])`, [ids('graded')])),
      ...(await db.query<SummaryRow>(`SELECT f.id, summary.* FROM files f ${fileUploadSummaryJoin('f')} WHERE f.id = ANY($1::uuid[])`, [ids('service_center')])),
    ];
    return new Map(counts.map((row) => [row.id, row]));
  };

  app.get<Route<'listUploads'>>('/api/uploads/', async (request): Promise<ReplyOf<'listUploads'>> => {
    const query = request.query;
    const congregation = listCongregation(request, query.group_id);
    const page = pageOf(query);
    const where = new Where().addIf(congregation, (p) => `u.congregation_id = ${p}`);
    const graded = `SELECT u.id, u.name, u.created_at, u.process_status, u.is_intro, 'graded' AS kind FROM graded_uploads u ${where.sql}`;
    // An admin's whole list holds the service centers' files too (they belong to no congregation).
    const uploads =
      congregation === null
        ? `${graded} UNION ALL SELECT f.id, f.name, f.created_at, f.process_status, false, 'service_center' FROM files f`
        : graded;
    const order = orderClause(SORT, query.order_by ?? 'created_at', query.order_direction, 'u.id');
    const { total } = await db.one<{ total: number }>(`SELECT count(*) AS total FROM (${uploads}) u`, where.params);
    const rows = await db.query<UploadHeadRow>(
      `SELECT u.* FROM (${uploads}) u ${order} LIMIT ${where.param(page.limit)} OFFSET ${where.param(page.skip)}`,
      where.params,
    );
    const summaries = await summariesOf(rows);
    return paged(
      rows.map((row) => ({
        id: row.id,
        name: row.name,
        created_at: new Date(row.created_at).toISOString(),
        kind: row.kind,
        process_status: row.process_status,
        is_intro: row.is_intro,
        ...(summaries.has(row.id) && { summary: summaryOf(summaries.get(row.id)!) }),
      })),
      total,
      page,
    );
  });

  app.get<Route<'getUpload'>>('/api/uploads/:id', async (request): Promise<ReplyOf<'getUpload'>> => {
    const upload = await gradedUploadFor(request, request.params.id);
    if (upload === null) {
      const report = await fileUploadReport(db, request.params.id);
      if (report === null) throw notFound(UPLOAD_NOT_FOUND);
      return report;
    }
    const pages = await db.query<ReportPageRow>(
      `SELECT s.page_number, s.outcome, s.detail, s.code_prefix, s.code_id, s.identified_by, s.image_blob_key IS NOT NULL AS has_image,
              f.id AS file_id, f.name AS file_name, a.id AS sheet_id, st.human_id AS student_human_id, l.name AS lesson
       FROM graded_upload_pages s
       LEFT JOIN pages p ON p.id = s.page_id
       LEFT JOIN files f ON f.id = p.file_id
       LEFT JOIN answer_sheets a ON a.id = p.answer_sheet_id
       LEFT JOIN students st ON st.id = a.student_id
       LEFT JOIN lessons l ON l.id = a.lesson_id
       WHERE s.upload_id = $1 ORDER BY s.page_number`,
      [upload.id],
    );
    return {
      id: upload.id,
      name: upload.name,
      created_at: new Date(upload.created_at).toISOString(),
      kind: 'graded',
      process_status: upload.process_status,
      is_intro: upload.is_intro,
      failure_reason: upload.failure_reason,
      summary: summaryOf(upload),
      pages: pages.map((page) => {
        const meaning = meaningOf(page.outcome);
        // The original page a scan was matched to says where it went: only for kept scans and
        // already-graded ones (a refused page names nothing of another congregation's).
        const showsTarget = meaning !== null && (meaning.kept || meaning.reason === 'already_graded');
        return {
          page_number: page.page_number,
          // A page still being read is not matched (yet).
          result: meaning?.result ?? 'not_matched',
          reason: meaning?.reason ?? null,
          kept: meaning?.kept ?? false,
          detail: page.detail,
          code: page.code_prefix !== null && page.code_id !== null ? `${page.code_prefix.toUpperCase()}-${page.code_id}` : null,
          identified_by: page.code_id === null ? null : (page.identified_by ?? 'code'),
          file: showsTarget && page.file_id !== null ? { id: page.file_id, name: page.file_name ?? '' } : null,
          answer_sheet:
            showsTarget && page.sheet_id !== null
              ? { id: page.sheet_id, student_human_id: page.student_human_id === null ? null : Number(page.student_human_id), lesson: page.lesson }
              : null,
          has_image: page.has_image,
        };
      }),
    };
  });

  app.get<Route<'getUploadPageImage'>>('/api/uploads/:id/pages/:page_number/image', async (request, reply) => {
    const { id, page_number: pageNumber } = request.params;
    const upload = await gradedUploadFor(request, id);
    const key =
      upload === null
        ? await filePageImageKey(db, id, pageNumber)
        : ((await db.maybeOne<{ image_blob_key: string | null }>('SELECT image_blob_key FROM graded_upload_pages WHERE upload_id = $1 AND page_number = $2', [id, pageNumber]))
            ?.image_blob_key ?? null);
    if (key === null) throw notFound('This page has no image');
    return sendBlob(request, reply, app.blobStore, key, { contentType: 'image/jpeg', cacheControl: IMAGE_CACHE_CONTROL, conditional: true });
  });

  app.delete<Route<'withdrawUpload'>>('/api/uploads/:id', async (request, reply) => {
    await withdrawUpload(db, app.blobStore, request.params.id, congregationScope(request));
    return reply.code(204).send();
  });
}

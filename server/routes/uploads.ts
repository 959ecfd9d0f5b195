// Uploads: the graded packets congregations sent back (graded uploads) and, for admins, the
// service centers' files: the list (sorted, filtered by congregation, paged, with each upload's
// matched / not matched counts), an upload's report page by page, and the scan of a page for the
// report's thumbnails. A coordinator sees its own congregation's graded uploads only. An upload
// sent by mistake is withdrawn by an admin or by its congregation's coordinator
// (workflow/withdraw-upload.ts).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { congregationScope } from '../auth/session';
import type { ReplyOf, Route, Schemas } from '../contract/types';
import type { Database } from '../db/database';
import { forbidden, notFound } from '../http-error';
import { IMAGE_CACHE_CONTROL } from '../jobs/job-types';
import {
  gradedUploadPageImageKey,
  gradedUploadReportPages,
  gradedUploadWithSummary,
  uploadListPage,
  uploadSummaries,
  type GradedUploadReportPageRow,
  type GradedUploadRow,
  type UploadHeadRow,
  type UploadSummaryRow,
} from '../repositories/graded-uploads';
import { meaningOf } from '../domain/upload-report';
import { UPLOAD_NOT_FOUND, withdrawUpload } from '../workflow/withdraw-upload';
import { sendBlob } from './shared/blob-response';
import { fileUploadReport, filePageImageKey } from './shared/file-upload-report';
import { pageOf, paged } from './shared/paging';
import { listCongregation } from './shared/scope';

const summaryOf = (row: UploadSummaryRow): Schemas['UploadSummary'] => ({
  pages_read: row.pages_read,
  matched: row.matched,
  not_matched: row.not_matched,
  blank_dropped: row.blank_dropped,
});

type ReportPage = Schemas['UploadReport']['pages'][number];

function reportPageOf(page: GradedUploadReportPageRow): ReportPage {
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
}

/** Each listed upload's counts, from its own kind's pages. */
async function summariesOf(db: Database, rows: readonly UploadHeadRow[]): Promise<Map<string, UploadSummaryRow>> {
  const ids = (kind: Schemas['UploadKind']) => rows.filter((row) => row.kind === kind).map((row) => row.id);
  const counts = await uploadSummaries(db, ids('graded'), ids('service_center'));
  return new Map(counts.map((row) => [row.id, row]));
}

export async function uploadRoutes(app: FastifyInstance) {
  const db = app.db;

  /**
   * The graded upload, when the caller may see it (403 another congregation's); null when the id
   * is none: it may be an admin's service center file.
   */
  const gradedUploadFor = async (request: FastifyRequest, id: string): Promise<GradedUploadRow | null> => {
    const scope = congregationScope(request);
    const upload = await gradedUploadWithSummary(db, id);
    if (upload === null && scope !== null) throw notFound(UPLOAD_NOT_FOUND);
    if (upload !== null && scope !== null && upload.congregation_id !== scope) throw forbidden();
    return upload;
  };

  app.get<Route<'listUploads'>>('/api/uploads/', async (request): Promise<ReplyOf<'listUploads'>> => {
    const query = request.query;
    const page = pageOf(query);
    const filter = { congregation: listCongregation(request, query.group_id), orderBy: query.order_by ?? 'created_at', direction: query.order_direction };
    const { rows, total } = await uploadListPage(db, filter, page);
    const summaries = await summariesOf(db, rows);
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
    const pages = await gradedUploadReportPages(db, upload.id);
    return {
      id: upload.id,
      name: upload.name,
      created_at: new Date(upload.created_at).toISOString(),
      kind: 'graded',
      process_status: upload.process_status,
      is_intro: upload.is_intro,
      failure_reason: upload.failure_reason,
      summary: summaryOf(upload),
      pages: pages.map(reportPageOf),
    };
  });

  app.get<Route<'getUploadPageImage'>>('/api/uploads/:id/pages/:page_number/image', async (request, reply) => {
    const { id, page_number: pageNumber } = request.params;
    const upload = await gradedUploadFor(request, id);
    const key = upload === null ? await filePageImageKey(db, id, pageNumber) : await gradedUploadPageImageKey(db, id, pageNumber);
    if (key === null) throw notFound('This page has no image');
    return sendBlob(request, reply, app.blobStore, key, { contentType: 'image/jpeg', cacheControl: IMAGE_CACHE_CONTROL, conditional: true });
  });

  app.delete<Route<'withdrawUpload'>>('/api/uploads/:id', async (request, reply) => {
    await withdrawUpload(db, app.blobStore, request.params.id, congregationScope(request));
    return reply.code(204).send();
  });
}

// Scanned pages: the pages of an answer sheet, one page, ignoring a page or choosing its template
// (review), and its upright image in full or as a thumbnail.
import type { FastifyInstance } from 'fastify';
import { requireAdmin } from '../auth/session';
import type { ReplyOf, Route } from '../contract/types';
import { notFound } from '../http-error';
import { sendBlob } from '../jobs/blob-response';
import { IMAGE_CACHE_CONTROL } from '../jobs/job-types';
import { pageThumbnail } from '../jobs/page-images';
import { loadPage, loadSheetPages, PAGE_NOT_FOUND, requirePageAccess, requireSheetAccess } from '../jobs/page-view';
import { validationError } from './shared/errors';

export async function pagesRoutes(app: FastifyInstance) {
  const db = app.db;

  app.get<Route<'listPages'>>('/api/pages', async (request): Promise<ReplyOf<'listPages'>> => {
    await requireSheetAccess(db, request, request.query.response_id);
    return loadSheetPages(db, request.query.response_id);
  });

  app.get<Route<'getPage'>>('/api/pages/:page_id', async (request): Promise<ReplyOf<'getPage'>> => {
    await requirePageAccess(db, request, request.params.page_id);
    return loadPage(db, request.params.page_id);
  });

  app.patch<Route<'updatePage'>>('/api/pages/:page_id', async (request): Promise<ReplyOf<'updatePage'>> => {
    requireAdmin(request);
    const pageId = request.params.page_id;
    const { ignored, template } = request.body;
    if (template !== undefined && template !== null) {
      const exists = await db.maybeOne('SELECT 1 FROM page_templates WHERE id = $1', [template]);
      if (exists === null) throw validationError('template: no such page template');
    }
    const changed = await db.execute(
      `UPDATE pages SET ignored = CASE WHEN $2::boolean IS NULL THEN ignored ELSE $2::boolean END,
                        template_id = CASE WHEN $3::boolean THEN $4::uuid ELSE template_id END
       WHERE id = $1`,
      [pageId, ignored ?? null, template !== undefined, template ?? null],
    );
    if (changed === 0) throw notFound(PAGE_NOT_FOUND);
    return loadPage(db, pageId);
  });

  app.get<Route<'getPagePreview'>>('/api/pages/:page_id/preview', async (request, reply) => {
    await requirePageAccess(db, request, request.params.page_id);
    const row = await db.one<{ image_blob_key: string | null }>('SELECT image_blob_key FROM pages WHERE id = $1', [request.params.page_id]);
    if (row.image_blob_key === null) throw notFound('This page has no image');
    return sendBlob(request, reply, app.blobStore, row.image_blob_key, {
      contentType: 'image/jpeg',
      cacheControl: IMAGE_CACHE_CONTROL,
      conditional: true,
    });
  });

  app.get<Route<'getPageThumbnail'>>('/api/pages/:page_id/thumbnail', async (request, reply) => {
    await requirePageAccess(db, request, request.params.page_id);
    const key = await pageThumbnail(db, app.blobStore, request.params.page_id, request.query.size ?? 500);
    return sendBlob(request, reply, app.blobStore, key, { contentType: 'image/jpeg', cacheControl: IMAGE_CACHE_CONTROL, conditional: true });
  });
}

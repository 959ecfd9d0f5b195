// Scanned pages: the pages of an answer sheet, one page, its mends in Review (ignore, template,
// move, start a sheet, typed code, a new student: server/workflow/review-mends.ts; turn:
// sheet-mends.ts), its upright image in full or as a thumbnail, and its latest graded scan (front or back).
import type { FastifyInstance } from 'fastify';
import { requireAdmin } from '../auth/session';
import type { ReplyOf, Route } from '../contract/types';
import { notFound, validationError } from '../http-error';
import { IMAGE_CACHE_CONTROL } from '../jobs/job-types';
import { latestGradedScanOfPage } from '../repositories/feedback';
import { pageTemplateExists } from '../repositories/page-templates';
import { pageImageKey, pagePhotoKey } from '../repositories/pages';
import { giveNewStudent, movePage, setIgnored, setTemplate, startSheetAt, typeCode } from '../workflow/review-mends';
import { turnPage } from '../workflow/sheet-mends';
import { sendBlob } from './shared/blob-response';
import { pageThumbnail } from './shared/page-images';
import { loadPage, loadSheetPages, requirePageAccess, requireSheetAccess } from './shared/page-view';

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
    const by = requireAdmin(request);
    const pageId = request.params.page_id;
    const body = request.body;
    if (body.template !== undefined && body.template !== null) {
      if (!(await pageTemplateExists(db, body.template))) throw validationError('template: no such page template');
    }
    const mends = ['answer_sheet', 'new_sheet', 'code', 'turn', 'new_student'].filter((key) => key in body);
    if (mends.length > 0 && Object.keys(body).length > 1) throw validationError(`${mends[0]}: send it alone`);
    if (body.ignored !== undefined) await setIgnored(db, pageId, body.ignored, by);
    if (body.template !== undefined) await setTemplate(db, pageId, body.template, by);
    if (body.answer_sheet !== undefined) await movePage(db, pageId, body.answer_sheet, by);
    else if (body.new_sheet !== undefined) await startSheetAt(db, pageId, by);
    else if (body.code !== undefined) await typeCode(db, pageId, body.code, by);
    else if (body.turn !== undefined) await turnPage(db, app.blobStore, pageId, body.turn, by);
    else if (body.new_student !== undefined) await giveNewStudent(db, pageId, by);
    return loadPage(db, pageId);
  });

  app.get<Route<'getPagePreview'>>('/api/pages/:page_id/preview', async (request, reply) => {
    await requirePageAccess(db, request, request.params.page_id);
    const key = await pageImageKey(db, request.params.page_id);
    if (key === null) throw notFound('This page has no image');
    return sendBlob(request, reply, app.blobStore, key, {
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

  app.get<Route<'getPagePhoto'>>('/api/pages/:page_id/photo', async (request, reply) => {
    await requirePageAccess(db, request, request.params.page_id);
    const key = await pagePhotoKey(db, request.params.page_id);
    if (key === null) throw notFound('This page did not come as a photo');
    return sendBlob(request, reply, app.blobStore, key, { contentType: 'image/jpeg', cacheControl: IMAGE_CACHE_CONTROL, conditional: true });
  });

  app.get<Route<'getPageGradedPreview'>>('/api/pages/:page_id/graded-preview', async (request, reply) => {
    await requirePageAccess(db, request, request.params.page_id);
    const row = await latestGradedScanOfPage(db, request.params.page_id);
    const key = request.query.is_back === true ? row?.back_blob_key : row?.front_blob_key;
    if (key == null) throw notFound(request.query.is_back === true ? 'This page has no graded back' : 'This page has no graded scan');
    return sendBlob(request, reply, app.blobStore, key, { contentType: 'image/jpeg', cacheControl: IMAGE_CACHE_CONTROL, conditional: true });
  });
}

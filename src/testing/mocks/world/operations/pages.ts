// The pages tag (spec §7 "Pages"): a sheet's pages, a page, its images, and Review's mends to it.
import type { HttpHandler } from 'msw';
import type { components } from '../../../../../generated/api-types';
import {
  getGetPageGradedPreviewMockHandler,
  getGetPageMockHandler,
  getGetPagePhotoMockHandler,
  getGetPagePreviewMockHandler,
  getGetPageThumbnailMockHandler,
  getListPagesMockHandler,
  getUpdatePageMockHandler,
} from '../../../../../generated/hooks/pages/pages.msw';
import { answer, forbidden, notFound, refusal, scanImage, type WorldAccess } from '../http';
import { mendPage } from '../review-mends';
import { pageView, templateOf } from '../views';
import { tick, type FileRow, type PageRow } from '../world';
import type { WorldLookups } from './lookups';

type S = components['schemas'];

export function pageResponders({ world, viewer, userEmail }: WorldAccess, { visibleFile, pageOf }: WorldLookups): HttpHandler[] {
  const pageImage = (page: PageRow | undefined, side: string): Response => {
    if (!page) return notFound('Page not found');
    const file = world().files.find((row) => row.id === page.fileId) as FileRow;
    const template = templateOf(world(), page.templateId);
    return scanImage(template?.lesson.name ?? 'Unrecognized page', `${file.name}, ${side.toLowerCase()} ${page.page_number}`);
  };
  return [
    answer(getListPagesMockHandler, ({ request }) => {
      const sheetId = new URL(request.url).searchParams.get('response_id');
      const pages = world().pages.filter((page) => visibleFile(page.fileId) && (sheetId === null || page.sheetId === sheetId));
      return pages.map((page) => pageView(world(), page));
    }),
    answer(getGetPagePreviewMockHandler, ({ params }) => pageImage(pageOf(params.pageId), 'Page')),
    answer(getGetPageThumbnailMockHandler, ({ params }) => pageImage(pageOf(params.pageId), 'Page')),
    answer(getGetPageGradedPreviewMockHandler, ({ params, request }) =>
      pageImage(pageOf(params.pageId), new URL(request.url).searchParams.get('is_back') === 'true' ? 'Graded, back' : 'Graded, front'),
    ),
    // Every mock page came in a PDF (none has_photo), so none has a photo to show.
    answer(getGetPagePhotoMockHandler, ({ params }) => notFound(pageOf(params.pageId) ? 'This page came in a PDF: it has no photo' : 'Page not found')),
    answer(getGetPageMockHandler, ({ params }) => {
      const page = pageOf(params.pageId);
      return page ? pageView(world(), page) : notFound('Page not found');
    }),
    answer(getUpdatePageMockHandler, async ({ params, request }) => {
      if (viewer() !== null) return forbidden();
      const page = pageOf(params.pageId);
      if (!page) return notFound('Page not found');
      const refused = mendPage(world(), page, (await request.json()) as S['PagePatch'], userEmail());
      if (refused) return refusal(refused.status, refused.errorType, refused.message);
      tick(world());
      return pageView(world(), page);
    }),
  ];
}

// A page's scan as a thumbnail (GET /api/pages/{id}/thumbnail, size 500 in lists and 1000 in
// page items, spec §9).
import { getGetPageThumbnailUrl } from '../../../generated/hooks/pages/pages';
import type { GetPageThumbnailSize } from '../../../generated/hooks/model';
import { THUMBNAIL_SIZE_LIST, THUMBNAIL_SIZE_PAGE_ITEM } from '../../../machines/constants';

/** `turns` (Page.turns) gives a turned page's thumbnail a new address, so no cache shows it as it was. */
export function thumbnailUrl(pageId: string, size: GetPageThumbnailSize, turns = 0): string {
  return getGetPageThumbnailUrl(pageId, { size, ...(turns > 0 && { turns }) });
}

export const LIST_THUMBNAIL = THUMBNAIL_SIZE_LIST as GetPageThumbnailSize;
export const PAGE_ITEM_THUMBNAIL = THUMBNAIL_SIZE_PAGE_ITEM as GetPageThumbnailSize;

export function PageThumbnail({ pageId, size, alt, turns }: { pageId: string; size: GetPageThumbnailSize; alt: string; turns?: number | undefined }) {
  return <img className="page-thumbnail" src={thumbnailUrl(pageId, size, turns)} alt={alt} loading="lazy" />;
}

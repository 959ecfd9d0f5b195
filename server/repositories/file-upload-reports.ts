// A service center's file read as an upload (the Uploads list and its report): each page's
// outcome (matched, the batch's cover, in Review, ignored, blank and dropped) and their summary.

export type FilePageOutcome = 'matched' | 'cover' | 'in_review' | 'ignored' | 'blank';

/** One page's outcome, over pages aliased `page`; the batch's cover sheet is read, not waiting. */
export const filePageOutcomeSql = (page: string): string =>
  `CASE WHEN ${page}.ignored AND ${page}.blank THEN 'blank' WHEN ${page}.ignored THEN 'ignored'
        WHEN ${page}.id = (SELECT cf.cover_page_id FROM files cf WHERE cf.id = ${page}.file_id) THEN 'cover'
        WHEN ${page}.answer_sheet_id IS NULL OR ${page}.flag IS NOT NULL THEN 'in_review' ELSE 'matched' END`;

/** The summary columns (as uploadSummaryJoin's) for files aliased `alias`, as one LATERAL join. */
export function fileUploadSummaryJoin(alias: string): string {
  return `LEFT JOIN LATERAL (
      SELECT count(*)::int AS pages_read,
             (count(*) FILTER (WHERE fo.o IN ('matched', 'cover')))::int AS matched,
             (count(*) FILTER (WHERE fo.o IN ('in_review', 'ignored')))::int AS not_matched,
             (count(*) FILTER (WHERE fo.o = 'blank'))::int AS blank_dropped
      FROM (SELECT ${filePageOutcomeSql('fp')} AS o FROM pages fp WHERE fp.file_id = ${alias}.id) fo) summary ON true`;
}

// An upload's counts in the uploader's words, as SQL over its staged pages (the outcomes each
// result stands for come from domain/upload-report).
import type { Schemas } from '../../contract/types';
import { outcomesOf } from '../../domain/upload-report';

type Result = Schemas['UploadPageResult'];

/**
 * The summary columns for uploads aliased `alias`, as one LATERAL join (an upload's pages sit
 * together under the staging table's primary key).
 */
export function uploadSummaryJoin(alias: string): string {
  const list = (result: Result) => outcomesOf(result).map((outcome) => `'${outcome}'`).join(', ');
  return `LEFT JOIN LATERAL (
      SELECT count(*)::int AS pages_read,
             (count(*) FILTER (WHERE sp.outcome IN (${list('matched')})))::int AS matched,
             (count(*) FILTER (WHERE sp.outcome IN (${list('not_matched')})))::int AS not_matched,
             (count(*) FILTER (WHERE sp.outcome IN (${list('blank_dropped')})))::int AS blank_dropped
      FROM graded_upload_pages sp WHERE sp.upload_id = ${alias}.id) summary ON true`;
}

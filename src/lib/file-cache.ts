// Which cached answers a change makes stale (spec §7): every file mutation invalidates the
// /api/files/{id} and /api/files queries (and this file's own detail, stats, steps and
// congregations); a page or answer-sheet change also makes the answer-sheet and page caches stale.
import type { Query, QueryClient } from '@tanstack/react-query';

function firstKey(query: Query): string {
  const key = query.queryKey[0];
  return typeof key === 'string' ? key : '';
}

/** The queries a change to file `fileId` makes stale. */
export function isFileQuery(fileId: string, key: string): boolean {
  return (
    key === '/api/files' ||
    key === `/api/files/${fileId}` ||
    key === `/api/file/${fileId}` ||
    key.startsWith(`/api/file/${fileId}/`)
  );
}

export function invalidateFile(queryClient: QueryClient, fileId: string): Promise<void> {
  return queryClient.invalidateQueries({ predicate: (query) => isFileQuery(fileId, firstKey(query)) });
}

/** After a page or answer-sheet change: every answer-sheet, page and file query. */
export function invalidateAnswerSheetsAndFiles(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({
    predicate: (query) => /^\/api\/(answer-sheets|pages|files?)(\/|$)/.test(firstKey(query)),
  });
}

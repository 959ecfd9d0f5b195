// The cache's one key factory (spec §7): queryOptions per resource, keyed by the generated hooks'
// key builders, and the cache updates that follow a change. Screens read through these options,
// changes refresh through these keys, so a key is spelled in one place: the contract.
import { queryOptions, type QueryClient, type QueryKey } from '@tanstack/react-query';
import {
  getGetAnswerSheetQueryKey,
  getGetAnswerSheetQueryOptions,
  getListAnswerSheetPagesQueryKey,
  getListAnswerSheetPagesQueryOptions,
  getListAnswerSheetsQueryKey,
  getListAnswerSheetsQueryOptions,
  getPrintAnswerSheetQueryKey,
} from '../../generated/hooks/answer-sheets/answer-sheets';
import {
  getGetCongregationQueryKey,
  getGetCongregationStatsQueryKey,
  getListCongregationEmailsQueryKey,
  getListCongregationsQueryKey,
  getListCongregationStudyHelpersQueryKey,
} from '../../generated/hooks/congregations/congregations';
import {
  getDownloadFileQueryKey,
  getDownloadGradedFileQueryKey,
  getGetFileCoverQueryKey,
  getGetFileQueryKey,
  getGetFileQueryOptions,
  getGetFileQuizFeedbackAvailableQueryKey,
  getGetFileStatsQueryKey,
  getGetFileStatsQueryOptions,
  getGetFileStepsQueryKey,
  getGetFileStepsQueryOptions,
  getGetFileSummaryQueryKey,
  getListFileCongregationsQueryKey,
  getListFileCongregationsQueryOptions,
  getListFilesQueryKey,
  getListFilesQueryOptions,
} from '../../generated/hooks/files/files';
import {
  getGetPageGradedPreviewQueryKey,
  getGetPagePhotoQueryKey,
  getGetPagePreviewQueryKey,
  getGetPageQueryKey,
  getGetPageQueryOptions,
  getGetPageThumbnailQueryKey,
  getListPagesQueryKey,
} from '../../generated/hooks/pages/pages';
import {
  getGetResumableUploadQueryKey,
  getGetUploadPageImageQueryKey,
  getGetUploadQueryKey,
  getListUploadsQueryKey,
} from '../../generated/hooks/uploads/uploads';
import { getListStudentsQueryKey } from '../../generated/hooks/students/students';
import type { ListAnswerSheetsParams, ListFilesParams } from '../../generated/hooks/model';
import { inFamilies } from './query-family';

type KeyBuilder = (id: string) => QueryKey;

export const fileQueries = {
  list: (params?: ListFilesParams) => queryOptions(getListFilesQueryOptions(params)),
  detail: (fileId: string) => queryOptions(getGetFileQueryOptions(fileId)),
  stats: (fileId: string) => queryOptions(getGetFileStatsQueryOptions(fileId)),
  steps: (fileId: string) => queryOptions(getGetFileStepsQueryOptions(fileId)),
  congregations: (fileId: string) => queryOptions(getListFileCongregationsQueryOptions(fileId)),
  /** What a change to one file makes stale: the file lists, its summary and its own queries. */
  changedKeys: (fileId: string): QueryKey[] => [
    getListFilesQueryKey(),
    getGetFileSummaryQueryKey(fileId),
    getGetFileQueryKey(fileId),
    getGetFileStatsQueryKey(fileId),
    getGetFileStepsQueryKey(fileId),
    getGetFileCoverQueryKey(fileId),
    getGetFileQuizFeedbackAvailableQueryKey(fileId),
    getListFileCongregationsQueryKey(fileId),
    getDownloadGradedFileQueryKey(fileId),
  ],
  /** The file lists and summaries (under /api/files), whichever file. */
  listFamilies: [() => getListFilesQueryKey(), getGetFileSummaryQueryKey] satisfies KeyBuilder[],
  /** Every file query, whichever file. */
  families: [
    () => getListFilesQueryKey(),
    getGetFileSummaryQueryKey,
    getGetFileQueryKey,
    getGetFileStatsQueryKey,
    getGetFileStepsQueryKey,
    getGetFileCoverQueryKey,
    getGetFileQuizFeedbackAvailableQueryKey,
    getListFileCongregationsQueryKey,
    (id) => getDownloadGradedFileQueryKey(id),
    getDownloadFileQueryKey,
  ] satisfies KeyBuilder[],
};

export const answerSheetQueries = {
  list: (params?: ListAnswerSheetsParams) => queryOptions(getListAnswerSheetsQueryOptions(params)),
  detail: (sheetId: string) => queryOptions(getGetAnswerSheetQueryOptions(sheetId)),
  pages: (sheetId: string) => queryOptions(getListAnswerSheetPagesQueryOptions(sheetId)),
  families: [
    () => getListAnswerSheetsQueryKey(),
    getGetAnswerSheetQueryKey,
    getListAnswerSheetPagesQueryKey,
    getPrintAnswerSheetQueryKey,
  ] satisfies KeyBuilder[],
};

export const pageQueries = {
  detail: (pageId: string) => queryOptions(getGetPageQueryOptions(pageId)),
  families: [
    () => getListPagesQueryKey(),
    getGetPageQueryKey,
    (id) => getGetPagePreviewQueryKey(id),
    (id) => getGetPageThumbnailQueryKey(id),
    getGetPagePhotoQueryKey,
    (id) => getGetPageGradedPreviewQueryKey(id),
  ] satisfies KeyBuilder[],
};

export const congregationQueries = {
  families: [
    () => getListCongregationsQueryKey(),
    getGetCongregationQueryKey,
    getGetCongregationStatsQueryKey,
    (id) => getListCongregationStudyHelpersQueryKey(id),
    getListCongregationEmailsQueryKey,
  ] satisfies KeyBuilder[],
};

export const uploadQueries = {
  families: [
    () => getListUploadsQueryKey(),
    getGetUploadQueryKey,
    getGetResumableUploadQueryKey,
    // The page number fills the second hole of the path like an id.
    (id) => getGetUploadPageImageQueryKey(id, id as unknown as number),
  ] satisfies KeyBuilder[],
};

/** After a change to file `fileId` (rename, organisation, a step, deletion, its progress ending). */
export async function invalidateFile(queryClient: QueryClient, fileId: string): Promise<void> {
  await Promise.all(fileQueries.changedKeys(fileId).map((queryKey) => queryClient.invalidateQueries({ queryKey })));
}

/** After a page or answer-sheet change: every answer-sheet, page and file query. */
export function invalidateAnswerSheetsAndFiles(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({
    predicate: inFamilies([...answerSheetQueries.families, ...pageQueries.families, ...fileQueries.families]),
  });
}

/** After printing a packet: the file and congregation queries (both show what was printed). */
export function invalidateFilesAndCongregations(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({
    predicate: inFamilies([...fileQueries.listFamilies, ...congregationQueries.families]),
  });
}

/** After a study helper's upload: files, uploads and congregations. */
export function invalidateAfterGradedUpload(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({
    predicate: inFamilies([...fileQueries.listFamilies, ...uploadQueries.families, ...congregationQueries.families]),
  });
}

/** After a student's attributes change: every page of the students list. */
export function invalidateStudents(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: getListStudentsQueryKey() });
}

// What the files tables share: the default sort (spec §9: created_at descending) and the empty text.
export const FILES_EMPTY_MESSAGE = 'There are no files to display';
export const FILES_DEFAULT_SORT = { orderBy: 'created_at', orderDirection: 'desc' } as const;

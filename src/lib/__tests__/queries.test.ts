// The cache updates after a change (spec §7): which cached queries each one makes stale.
import { describe, expect, it } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import {
  invalidateAfterGradedUpload,
  invalidateAnswerSheetsAndFiles,
  invalidateFile,
  invalidateFilesAndCongregations,
  invalidateStudents,
} from '../queries';
import { fillsTemplate, pathTemplate } from '../query-family';

/** Whether a change to file `fileId` makes a cached query under `path` stale. */
async function isFileQuery(fileId: string, path: string): Promise<boolean> {
  const client = new QueryClient();
  client.setQueryData([path], {});
  await invalidateFile(client, fileId);
  return client.getQueryCache().find({ queryKey: [path] })!.state.isInvalidated;
}

function staleKeys(client: QueryClient): unknown[] {
  return client
    .getQueryCache()
    .findAll()
    .filter((query) => query.state.isInvalidated)
    .map((query) => query.queryKey[0]);
}

function clientWith(keys: unknown[][]): QueryClient {
  const client = new QueryClient();
  for (const key of keys) client.setQueryData(key, {});
  return client;
}

describe('file cache', () => {
  it('a file change makes /api/files, /api/files/{id} and the file\'s own queries stale, nothing else', async () => {
    expect(await isFileQuery('f1', '/api/files')).toBe(true);
    expect(await isFileQuery('f1', '/api/files/f1')).toBe(true);
    expect(await isFileQuery('f1', '/api/file/f1')).toBe(true);
    expect(await isFileQuery('f1', '/api/file/f1/stats')).toBe(true);
    expect(await isFileQuery('f1', '/api/files/f2')).toBe(false);
    expect(await isFileQuery('f1', '/api/file/f10')).toBe(false);
    expect(await isFileQuery('f1', '/api/students')).toBe(false);
  });

  it('invalidates the matching cached queries', async () => {
    const client = clientWith([['/api/files', { skip: 0 }], ['/api/files/f1'], ['/api/file/f1'], ['/api/files/f2'], ['/api/answer-sheets', { file: 'f1' }], ['/api/students']]);
    await invalidateFile(client, 'f1');
    expect(staleKeys(client).sort()).toEqual(['/api/file/f1', '/api/files', '/api/files/f1']);
    await invalidateAnswerSheetsAndFiles(client);
    expect(staleKeys(client)).toContain('/api/answer-sheets');
    expect(staleKeys(client)).toContain('/api/files/f2');
    expect(staleKeys(client)).not.toContain('/api/students');
  });

  it('a page or answer-sheet change reaches every answer sheet, page and file, whichever id', async () => {
    const client = clientWith([['/api/answer-sheets/a1'], ['/api/answer-sheets/a2/pages'], ['/api/pages/p1'], ['/api/file/f3/steps'], ['/api/congregations'], ['/api/students/s1/answer-sheets']]);
    await invalidateAnswerSheetsAndFiles(client);
    expect(staleKeys(client).sort()).toEqual(['/api/answer-sheets/a1', '/api/answer-sheets/a2/pages', '/api/file/f3/steps', '/api/pages/p1']);
  });

  it('a printed packet reaches files and congregations; an upload also the uploads', async () => {
    const keys = [['/api/files', { skip: 0 }], ['/api/files/f1'], ['/api/file/f1'], ['/api/congregations/c1/stats'], ['/api/uploads/'], ['/api/uploads/u1']];
    const printed = clientWith(keys);
    await invalidateFilesAndCongregations(printed);
    expect(staleKeys(printed).sort()).toEqual(['/api/congregations/c1/stats', '/api/files', '/api/files/f1']);
    const uploaded = clientWith(keys);
    await invalidateAfterGradedUpload(uploaded);
    expect(staleKeys(uploaded).sort()).toEqual(['/api/congregations/c1/stats', '/api/files', '/api/files/f1', '/api/uploads/', '/api/uploads/u1']);
  });

  it('a student change reaches every page of the students list only', async () => {
    const client = clientWith([['/api/students', { skip: 0 }], ['/api/students/s1']]);
    await invalidateStudents(client);
    expect(staleKeys(client)).toEqual(['/api/students']);
  });
});

describe('query families', () => {
  it('fills each id of a generated path with one path segment', () => {
    const stats = pathTemplate((id) => [`/api/file/${id}/stats`]);
    expect(fillsTemplate('/api/file/f1/stats', stats)).toBe(true);
    expect(fillsTemplate('/api/file/f1/steps', stats)).toBe(false);
    expect(fillsTemplate('/api/file//stats', stats)).toBe(false);
    expect(fillsTemplate('/api/file/a/b/stats', stats)).toBe(false);
    const detail = pathTemplate((id) => [`/api/file/${id}`]);
    expect(fillsTemplate('/api/file/f1', detail)).toBe(true);
    expect(fillsTemplate('/api/file/f1/stats', detail)).toBe(false);
    expect(fillsTemplate('/api/files', pathTemplate(() => ['/api/files']))).toBe(true);
    expect(fillsTemplate('/api/files/f1', pathTemplate(() => ['/api/files']))).toBe(false);
  });
});

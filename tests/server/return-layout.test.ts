// The return file's two layouts (server/workflow/return-file.ts layOutReturnFile), without PDFs:
// two-sided, every student's block starts on an odd page and every graded page or next-lesson
// page has a sheet of paper to itself; one-sided, nothing is added.
import { describe, expect, it } from 'vitest';
import { layOutReturnFile, type ReturnBlock, type ReturnPage } from '../../server/workflow/return-file';

const graded = (name: string, back: boolean): ReturnBlock[number] => ({ kind: 'graded', front: name, back: back ? `${name}-back` : null });
const next = (name: string): ReturnBlock[number] => ({ kind: 'next_lesson', page: { input: { studentName: name } as never, index: 0, masterKey: name } });
const token = (page: ReturnPage) => (page.kind === 'scan' ? page.blob_key : page.kind === 'blank' ? '·' : `next:${page.page.masterKey}`);

const blocks: ReturnBlock[] = [
  [graded('a1', true), graded('a2', false), next('a')],
  [graded('b1', false)],
  [graded('c1', true), next('c'), next('c2')],
];

describe('return file layouts', () => {
  it('two-sided: each page with its back or a blank page, every block on an odd page', () => {
    expect(layOutReturnFile(blocks, 'two').map(token)).toEqual([
      'a1', 'a1-back', 'a2', '·', 'next:a', '·',
      'b1', '·',
      'c1', 'c1-back', 'next:c', '·', 'next:c2', '·',
    ]);
  });

  it('one-sided: the pages as they are', () => {
    expect(layOutReturnFile(blocks, 'one').map(token)).toEqual(['a1', 'a1-back', 'a2', 'next:a', 'b1', 'c1', 'c1-back', 'next:c', 'next:c2']);
  });
});

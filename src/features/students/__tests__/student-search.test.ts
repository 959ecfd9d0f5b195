import { describe, expect, it } from 'vitest';
import { studentIdSearch } from '../student-search';

describe('studentIdSearch', () => {
  it('sends human_id_prefix with limit 20 for a numeric search', () => {
    expect(studentIdSearch('1234')).toEqual({ human_id_prefix: '1234', limit: 20 });
    expect(studentIdSearch(' 77 ')).toEqual({ human_id_prefix: '77', limit: 20 });
  });
  it('sends no prefix for a non-numeric search', () => {
    expect(studentIdSearch('12a')).toEqual({ limit: 20 });
    expect(studentIdSearch('-5')).toEqual({ limit: 20 });
  });
  it('asks for 0 rows when the box is empty', () => {
    expect(studentIdSearch('')).toEqual({ limit: 0 });
    expect(studentIdSearch(undefined)).toEqual({ limit: 0 });
  });
});

import { describe, expect, it } from 'vitest';
import {
  applyListChange,
  lastPage,
  nextSortDirection,
  parsePageInput,
  readListState,
  showingText,
} from '../list-state';

const params = (query: string) => new URLSearchParams(query);

describe('readListState', () => {
  it('defaults to page 1 of 10 rows, no sort and no filters', () => {
    expect(readListState(params(''), { filters: ['country'] })).toEqual({
      page: 1,
      skip: 0,
      limit: 10,
      order_by: undefined,
      order_direction: undefined,
      filters: { country: undefined },
    });
  });

  it('reads page, sort and filters from the address', () => {
    const state = readListState(params('page=3&order_by=created_at&order_direction=desc&country=GH&other=x'), {
      filters: ['country', 'studyHelper'],
    });
    expect(state).toMatchObject({ page: 3, skip: 20, limit: 10, order_by: 'created_at', order_direction: 'desc' });
    expect(state.filters).toEqual({ country: 'GH', studyHelper: undefined });
  });

  it('ignores a page that is not a positive whole number', () => {
    expect(readListState(params('page=0')).page).toBe(1);
    expect(readListState(params('page=-2')).page).toBe(1);
    expect(readListState(params('page=abc')).page).toBe(1);
  });

  it('uses the configured default sort and page size', () => {
    const state = readListState(params('page=2'), { orderBy: 'created_at', orderDirection: 'desc', pageSize: 25 });
    expect(state).toMatchObject({ skip: 25, limit: 25, order_by: 'created_at', order_direction: 'desc' });
  });

  it('keeps two lists apart with a prefix', () => {
    const state = readListState(params('page=2&a_page=4&a_country=NG'), { prefix: 'a_', filters: ['country'] });
    expect(state.page).toBe(4);
    expect(state.filters.country).toBe('NG');
  });
});

describe('applyListChange', () => {
  const config = { filters: ['country'] as const };

  it('sets a filter, back to page 1, keeping params it does not own', () => {
    const next = applyListChange(params('page=4&mode=print'), { type: 'filter', name: 'country', value: 'GH' }, config);
    expect(next.toString()).toBe('mode=print&country=GH');
  });

  it('clears a filter with undefined or an empty string', () => {
    expect(applyListChange(params('country=GH'), { type: 'filter', name: 'country', value: '' }, config).toString()).toBe('');
    expect(applyListChange(params('country=GH'), { type: 'filter', name: 'country', value: undefined }, config).toString()).toBe('');
  });

  it('toggles the sort direction on the same column and starts a new column ascending', () => {
    const first = applyListChange(params('page=2'), { type: 'sort', orderBy: 'human_id' }, config);
    expect(first.toString()).toBe('order_by=human_id&order_direction=asc');
    const second = applyListChange(first, { type: 'sort', orderBy: 'human_id' }, config);
    expect(second.toString()).toBe('order_by=human_id&order_direction=desc');
    const third = applyListChange(second, { type: 'sort', orderBy: 'created_at' }, config);
    expect(third.toString()).toBe('order_by=created_at&order_direction=asc');
  });

  it('leaves the default sort out of the address', () => {
    const sortConfig = { orderBy: 'created_at', orderDirection: 'desc' as const };
    const flipped = applyListChange(params(''), { type: 'sort', orderBy: 'created_at' }, sortConfig);
    expect(flipped.toString()).toBe('order_by=created_at&order_direction=asc');
    expect(applyListChange(flipped, { type: 'sort', orderBy: 'created_at' }, sortConfig).toString()).toBe('');
  });

  it('writes pages above 1 only', () => {
    expect(applyListChange(params('country=GH'), { type: 'page', page: 3 }, config).toString()).toBe('country=GH&page=3');
    expect(applyListChange(params('page=3'), { type: 'page', page: 1 }, config).toString()).toBe('');
  });

  it('clears every filter of the list', () => {
    expect(applyListChange(params('country=GH&page=2&mode=all'), { type: 'clearFilters' }, config).toString()).toBe('mode=all');
  });
});

describe('paging texts and limits', () => {
  it('says "Showing X to Y of Z results"', () => {
    expect(showingText(0, 10, 42)).toBe('Showing 1 to 10 of 42 results');
    expect(showingText(40, 10, 42)).toBe('Showing 41 to 42 of 42 results');
    expect(showingText(0, 10, 0)).toBe('Showing 0 to 0 of 0 results');
  });

  it('computes the last page, at least 1', () => {
    expect(lastPage(42, 10)).toBe(5);
    expect(lastPage(40, 10)).toBe(4);
    expect(lastPage(0, 10)).toBe(1);
  });

  it('accepts typed pages from 1 to the last only', () => {
    expect(parsePageInput('1', 5)).toBe(1);
    expect(parsePageInput(' 5 ', 5)).toBe(5);
    expect(parsePageInput('6', 5)).toBeNull();
    expect(parsePageInput('0', 5)).toBeNull();
    expect(parsePageInput('2.5', 5)).toBeNull();
    expect(parsePageInput('', 5)).toBeNull();
    expect(parsePageInput('two', 5)).toBeNull();
  });

  it('next sort direction flips only on the current column', () => {
    expect(nextSortDirection({ order_by: 'a', order_direction: 'asc' }, 'a')).toBe('desc');
    expect(nextSortDirection({ order_by: 'a', order_direction: 'desc' }, 'a')).toBe('asc');
    expect(nextSortDirection({ order_by: 'a', order_direction: 'desc' }, 'b')).toBe('asc');
  });
});

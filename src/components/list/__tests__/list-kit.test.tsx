// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { useListState } from '../use-list-state';
import { ListTable, type ListColumn } from '../list-table';
import { Pagination } from '../pagination';
import { PagedList, type ListQuery } from '../paged-list';
import { ApiError } from '../../../lib/api-client';
import { FilterPanel } from '../filter-panel';
import { TextFilter, TEXT_FILTER_DEBOUNCE_MS } from '../text-filter';
import { CountryFlag } from '../country-flag';
import { flagCount, flagUrl } from '../flags';

interface Row {
  id: number;
  name: string;
}
const ALL_ROWS: Row[] = Array.from({ length: 42 }, (_, i) => ({ id: i + 1, name: `Row ${String(i + 1).padStart(2, '0')}` }));
const columns: ListColumn<Row>[] = [
  { id: 'id', header: 'ID', sortKey: 'id', cell: (r) => r.id },
  { id: 'name', header: 'Name', sortKey: 'name', cell: (r) => r.name },
];

/** A list screen on the kit, over rows in memory (what a server would return for the state). */
function DemoList() {
  const list = useListState({ filters: ['name'] as const });
  const matching = ALL_ROWS.filter((r) => !list.filters.name || r.name.includes(list.filters.name));
  const sorted = [...matching].sort((a, b) => {
    const key = (list.order_by ?? 'id') as keyof Row;
    const order = a[key] < b[key] ? -1 : a[key] > b[key] ? 1 : 0;
    return list.order_direction === 'desc' ? -order : order;
  });
  return (
    <>
      <FilterPanel activeCount={list.filters.name ? 1 : 0} onClear={list.clearFilters}>
        <TextFilter label="Name" value={list.filters.name} onChange={(v) => list.setFilter('name', v, { replace: true })} />
      </FilterPanel>
      <ListTable
        label="Demo"
        columns={columns}
        rows={sorted.slice(list.skip, list.skip + list.limit)}
        rowKey={(r) => String(r.id)}
        emptyMessage="Nothing here"
        orderBy={list.order_by}
        orderDirection={list.order_direction}
        onSort={(key) => list.setSort(key)}
      />
      <Pagination skip={list.skip} limit={list.limit} total={matching.length} onPageChange={list.setPage} />
    </>
  );
}

function renderList(entry = '/list') {
  const router = createMemoryRouter([{ path: '/list', element: <DemoList /> }], { initialEntries: [entry] });
  render(<RouterProvider router={router} />);
  return router;
}

const firstCells = () =>
  within(screen.getByRole('table', { name: 'Demo' }))
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[0]?.textContent);
const pageBox = () => screen.getByRole('textbox', { name: 'Page number' }) as HTMLInputElement;

afterEach(() => cleanup());

describe('the list kit', () => {
  it('shows the first page of 10 and "Showing X to Y of Z results"', () => {
    renderList();
    expect(firstCells()).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9', '10']);
    expect(screen.getByText('Showing 1 to 10 of 42 results')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Previous' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('pages with Next and Previous, keeping the page in the address', () => {
    const router = renderList();
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(router.state.location.search).toBe('?page=2');
    expect(screen.getByText('Showing 11 to 20 of 42 results')).toBeTruthy();
    expect(pageBox().value).toBe('2');
    fireEvent.click(screen.getByRole('button', { name: 'Previous' }));
    expect(router.state.location.search).toBe('');
  });

  it('accepts 1 to the last page in the page box and reverts anything else', () => {
    const router = renderList();
    fireEvent.change(pageBox(), { target: { value: '5' } });
    fireEvent.keyDown(pageBox(), { key: 'Enter' });
    expect(screen.getByText('Showing 41 to 42 of 42 results')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Next' }) as HTMLButtonElement).disabled).toBe(true);

    for (const bad of ['6', '0', 'abc', '2.5', '']) {
      fireEvent.change(pageBox(), { target: { value: bad } });
      fireEvent.blur(pageBox());
      expect(pageBox().value).toBe('5');
      expect(router.state.location.search).toBe('?page=5');
    }

    fireEvent.change(pageBox(), { target: { value: '1' } });
    fireEvent.blur(pageBox());
    expect(pageBox().value).toBe('1');
    expect(router.state.location.search).toBe('');
  });

  it('sorts from the column headers, toggling asc and desc, back to page 1', () => {
    const router = renderList('/list?page=3');
    const idHeader = () => screen.getByRole('columnheader', { name: /ID/ });
    expect(idHeader().getAttribute('aria-sort')).toBe('none');
    fireEvent.click(within(idHeader()).getByRole('button'));
    expect(router.state.location.search).toBe('?order_by=id&order_direction=asc');
    expect(idHeader().getAttribute('aria-sort')).toBe('ascending');
    fireEvent.click(within(idHeader()).getByRole('button'));
    expect(idHeader().getAttribute('aria-sort')).toBe('descending');
    expect(firstCells()[0]).toBe('42');
  });

  it('keeps filters, sort and page across a remount (reload) and goes back through history', () => {
    const router = renderList('/list?order_by=id&order_direction=desc&page=2');
    expect(firstCells()[0]).toBe('32');
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    const address = `${router.state.location.pathname}${router.state.location.search}`;
    cleanup();

    const reloaded = renderList(address);
    expect(firstCells()[0]).toBe('22');
    expect(screen.getByText('Showing 21 to 30 of 42 results')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Previous' }));
    expect(firstCells()[0]).toBe('32');
    act(() => void reloaded.navigate(-1));
    expect(firstCells()[0]).toBe('22');
  });

  it('slides in a filter panel from the Filter icon; the text filter waits for a pause', async () => {
    const router = renderList('/list?page=2');
    expect(screen.queryByRole('textbox', { name: 'Name' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Filter' }));
    const box = await screen.findByRole('textbox', { name: 'Name' });
    const typedAt = Date.now();
    fireEvent.change(box, { target: { value: 'Row 1' } });
    expect(router.state.location.search).toBe('?page=2');
    await waitFor(() => expect(router.state.location.search).toBe('?name=Row+1'));
    expect(Date.now() - typedAt).toBeGreaterThanOrEqual(TEXT_FILTER_DEBOUNCE_MS - 20);
    expect(await screen.findByText('Showing 1 to 10 of 10 results')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(router.state.location.search).toBe('');
    expect((screen.getByRole('textbox', { name: 'Name' }) as HTMLInputElement).value).toBe('');
  });

  it('shows the empty message when nothing matches', () => {
    renderList('/list?name=nothing');
    expect(screen.getByText('Nothing here')).toBeTruthy();
    expect(screen.getByText('Showing 0 to 0 of 0 results')).toBeTruthy();
  });
});

describe('PagedList', () => {
  function renderPaged(query: ListQuery<Row>) {
    function Screen() {
      const list = useListState();
      return <PagedList label="Demo" columns={columns} query={query} list={list} rowKey={(r) => String(r.id)} emptyMessage="Nothing here" />;
    }
    const router = createMemoryRouter([{ path: '/list', element: <Screen /> }], { initialEntries: ['/list?page=2'] });
    render(<RouterProvider router={router} />);
    return router;
  }
  const idle = { isLoading: false, error: null, refetch: () => undefined };

  it('shows a spinner while loading, then the page of rows and the pager from the address', () => {
    renderPaged({ ...idle, data: undefined, isLoading: true });
    expect(screen.getByLabelText('Loading')).toBeTruthy();
    cleanup();
    renderPaged({ ...idle, data: { items: ALL_ROWS.slice(10, 20), total: 42 } });
    expect(firstCells()).toEqual(['11', '12', '13', '14', '15', '16', '17', '18', '19', '20']);
    expect(screen.getByText('Showing 11 to 20 of 42 results')).toBeTruthy();
  });

  it('shows the empty message for no rows', () => {
    renderPaged({ ...idle, data: { items: [], total: 0 } });
    expect(screen.getByText('Nothing here')).toBeTruthy();
  });

  it('shows a failure with the server\'s words and retries on Try again', () => {
    let retries = 0;
    const error = new ApiError(500, 'Internal Server Error', { detail: 'The database is asleep' });
    renderPaged({ ...idle, data: undefined, error, refetch: () => (retries += 1) });
    const alert = screen.getByRole('alert');
    expect(within(alert).getByText('Could not load this list.')).toBeTruthy();
    expect(alert.textContent).toContain('The database is asleep');
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(retries).toBe(1);
  });

  it('says a refused list is not available, with nothing to retry', () => {
    renderPaged({ ...idle, data: undefined, error: new ApiError(403, 'Forbidden', { detail: 'Not yours' }) });
    expect(screen.getByRole('alert').textContent).toBe('This list is not available to this account.');
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
  });
});

describe('CountryFlag', () => {
  it('shows the bundled flag with the country name as alt text', () => {
    render(<CountryFlag iso_code="gh" display_name="Ghana" />);
    const flag = screen.getByRole('img', { name: 'Ghana' }) as HTMLImageElement;
    // Vite serves each flag from the app's origin (tests inline them as data URIs).
    expect(flag.getAttribute('src')).toBe(flagUrl('GH'));
    expect(flag.getAttribute('src')).not.toMatch(/^https?:/);
    expect(flagUrl('GH')).not.toBe(flagUrl('NG'));
  });

  it('falls back to the code for a country without a flag', () => {
    render(<CountryFlag iso_code="QQ" />);
    expect(screen.queryByRole('img')).toBeNull();
    expect(screen.getByText('QQ')).toBeTruthy();
  });

  it('bundles every flag of the package', () => {
    expect(flagCount()).toBeGreaterThan(250);
  });
});

// @vitest-environment happy-dom
// /admin/pages/{page_id} on MSW (spec §2): the thumbnail and the table Congregation, Page (template
// name or "None"), Response (first 6 characters of the answer sheet id), Student (human id).
import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { Page } from '../../generated/hooks/model';
import { renderApp, setupMockApi } from '../../src/testing/test-utils';
import { server } from '../../src/testing/mocks/server';
import { pageRecord } from './support/fixtures';

setupMockApi();

function pageApi(page: Page | null) {
  server.use(
    http.get('*/api/pages/:id', () => (page ? HttpResponse.json(page) : HttpResponse.json({ detail: 'Not found' }, { status: 404 }))),
  );
}

const row = () =>
  within(within(screen.getByRole('table', { name: 'Page information' })).getAllByRole('row')[1] as HTMLElement)
    .getAllByRole('cell')
    .map((cell) => cell.textContent);

describe('page information', () => {
  it('shows the thumbnail and the page\'s congregation, template, response and student', async () => {
    const page = pageRecord();
    pageApi(page);
    renderApp(`/admin/pages/${page.id}`, { as: 'admin' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Page Information' })).toBeTruthy();
    await screen.findByRole('table', { name: 'Page information' });
    expect(within(screen.getByRole('table', { name: 'Page information' })).getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
      'Congregation',
      'Page',
      'Response',
      'Student',
    ]);
    expect(row()).toEqual(['US 1234', 'Lesson 1: The Bible, page 1', 'a50000', '100234']);
    expect(screen.getByRole('link', { name: 'a50000' }).getAttribute('href')).toBe('/responses/a5000000-0000-4000-8000-000000000001');
    expect(screen.getByRole('img', { name: 'Page 1' }).getAttribute('src')).toBe(`/api/pages/${page.id}/thumbnail?size=500`);
  });

  it('says None for a page without template, sheet or student', async () => {
    pageApi(pageRecord({ template: null, answer_sheet: null }));
    renderApp('/admin/pages/p1', { as: 'admin' });
    await screen.findByRole('table', { name: 'Page information' });
    expect(row()).toEqual(['None', 'None', 'None', 'None']);
  });

  it('says so for an unknown page', async () => {
    pageApi(null);
    renderApp('/admin/pages/p1', { as: 'admin' });
    expect(await screen.findByText('No page found')).toBeTruthy();
  });
});

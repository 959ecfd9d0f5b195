// @vitest-environment happy-dom
// Refusals said as refusals (issue 23): a route the role may not use shows "Not Allowed" with
// the way home and none of the screen's buttons; another congregation's record (the server's
// 403) says it is not available to this account instead of "could not be loaded".
import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { renderApp, setupMockApi } from '../../src/testing/test-utils';
import { server } from '../../src/testing/mocks/server';
import { FILE_ID } from './support/fixtures';

setupMockApi();

const forbidden = () => HttpResponse.json({ detail: 'Forbidden' }, { status: 403 });

describe('a route the role may not use', () => {
  for (const path of ['/admin/', '/admin/congregations', '/admin/service-centers', '/admin/service-centers/sc1']) {
    it(`shows a coordinator "Not Allowed" at ${path}, with a link home and no admin buttons`, async () => {
      renderApp(path, { as: 'coordinator' });
      expect(await screen.findByRole('heading', { level: 1, name: 'Not Allowed' })).toBeTruthy();
      expect(screen.getByText('This page is not available to this account.')).toBeTruthy();
      expect(screen.getByRole('link', { name: 'Back to the Dashboard' }).getAttribute('href')).toBe('/');
      expect(screen.queryByText('Could not load this list.')).toBeNull();
      expect(screen.queryByRole('button', { name: /add|upload|view as/i })).toBeNull();
      expect(screen.queryByRole('link', { name: 'Congregations' })).toBeNull();
    });
  }

  it('shows the admin its admin screens', async () => {
    renderApp('/admin/', { as: 'admin' });
    // The tile besides the tab.
    expect((await screen.findAllByRole('link', { name: /Congregations/ })).length).toBeGreaterThan(1);
    expect(screen.queryByRole('heading', { name: 'Not Allowed' })).toBeNull();
  });
});

describe("another congregation's record", () => {
  it('says the file is not available to this account', async () => {
    server.use(http.get(`*/api/file/${FILE_ID}`, forbidden));
    renderApp(`/file/${FILE_ID}`, { as: 'coordinator' });
    expect(await screen.findByRole('heading', { level: 1, name: 'This file is not available to this account.' })).toBeTruthy();
    expect(screen.queryByText('The file could not be loaded. Please try again.')).toBeNull();
  });

  it("says so on the file's responses too", async () => {
    server.use(http.get(`*/api/file/${FILE_ID}`, forbidden), http.get('*/api/answer-sheets', forbidden));
    renderApp(`/file/${FILE_ID}/responses`, { as: 'coordinator' });
    expect(await screen.findByRole('heading', { level: 1, name: 'This file is not available to this account.' })).toBeTruthy();
  });

  it('says the student and the response are not available to this account', async () => {
    server.use(http.get('*/api/students/s-other', forbidden), http.get('*/api/answer-sheets/r-other', forbidden));
    const student = renderApp('/students/s-other', { as: 'coordinator' });
    expect(await screen.findByRole('heading', { level: 1, name: 'This student is not available to this account.' })).toBeTruthy();
    student.unmount();
    renderApp('/responses/r-other', { as: 'coordinator' });
    expect(await screen.findByRole('heading', { level: 1, name: 'This response is not available to this account.' })).toBeTruthy();
  });

  it("says another congregation's pages are not available to this account, without their lists", async () => {
    server.use(http.get('*/api/congregations/c-other', forbidden), http.get('*/api/files', forbidden));
    renderApp('/admin/congregations/c-other/files', { as: 'coordinator' });
    expect(await screen.findByText('This congregation is not available to this account.')).toBeTruthy();
    expect(screen.queryByText('Could not load this list.')).toBeNull();
  });

  it('keeps "could not be loaded" for a failure that is not a refusal', async () => {
    server.use(http.get(`*/api/file/${FILE_ID}`, () => HttpResponse.json({ detail: 'Internal server error' }, { status: 500 })));
    renderApp(`/file/${FILE_ID}`, { as: 'coordinator' });
    await waitFor(() => expect(screen.getByText('The file could not be loaded. Please try again.')).toBeTruthy());
  });
});

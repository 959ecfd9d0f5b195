// @vitest-environment happy-dom
// The admin home and the congregation dashboard (spec §2 "Screen contents").
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { renderApp, setupMockApi } from '../../src/testing/test-utils';
import { server } from '../../src/testing/mocks/server';
import { DEMO_CONGREGATION_ID } from '../../src/testing/mocks/handlers';

setupMockApi();

const tiles = (label: string) =>
  within(screen.getByRole('navigation', { name: label }))
    .getAllByRole('link')
    .map((link) => [link.textContent, link.getAttribute('href')]);

describe('admin home', () => {
  it('has the header "Admin", subtitle "Admin Tag", the spec\'s six tiles and Mail', async () => {
    renderApp('/admin/', { as: 'admin' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Admin' })).toBeTruthy();
    expect(screen.getByText('Admin Tag')).toBeTruthy();
    expect(tiles('Admin')).toEqual([
      ['Upload', '/files/'],
      ['Files', '/files/'],
      ['Congregations', '/admin/congregations'],
      ['Service Centers', '/admin/service-centers'],
      ['Students', '/students'],
      ['Baptism Requests', '/baptism-requests'],
      ['Mail', '/admin/mail'],
    ]);
  });
});

describe('congregation dashboard', () => {
  it('shows the code and name, an Upload button and the tiles with the stats counts', async () => {
    const statsFor: string[] = [];
    server.use(
      http.get('*/api/congregations/:id/stats', ({ params }) => {
        statsFor.push(String(params.id));
        return HttpResponse.json({ ready_to_print_count: 3, all_files_count: 17 });
      }),
    );
    renderApp('/', { as: 'coordinator' });
    expect(await screen.findByRole('heading', { level: 1, name: 'US 1234' })).toBeTruthy();
    expect(screen.getByText('Springfield North')).toBeTruthy();
    expect(await screen.findByText('17')).toBeTruthy();
    expect(tiles('Dashboard')).toEqual([
      ['Ready to Print3', '/files?mode=print'],
      ['Files17', '/files'],
      ['Baptism Requests', '/baptism-requests'],
      ['Study Helpers', '/study-helpers'],
      ['Students', '/students'],
      ['Resources', '/resources'],
    ]);
    expect(statsFor).toContain(DEMO_CONGREGATION_ID);
  });

  it('opens the upload dialog from the Upload button', async () => {
    renderApp('/', { as: 'coordinator' });
    fireEvent.click(await screen.findByRole('button', { name: 'Upload' }));
    expect(await screen.findByRole('dialog', { name: 'Upload' })).toBeTruthy();
  });

  it('is what a standard_user with a congregation sees', async () => {
    renderApp('/', { as: 'user' });
    expect(await screen.findByRole('heading', { level: 1, name: 'US 1234' })).toBeTruthy();
    expect(screen.getByRole('link', { name: /Ready to Print/ }).getAttribute('href')).toBe('/files?mode=print');
  });
});

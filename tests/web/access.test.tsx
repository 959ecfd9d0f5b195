// @vitest-environment happy-dom
// Access screens per role (spec §2 "Access screens", §6): login landing, unauthorised, No Group
// Assigned, and the app for everyone else.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { renderApp, setupMockApi } from '../../src/testing/test-utils';
import { server } from '../../src/testing/mocks/server';
import { browserLocation } from '../../src/lib/browser-location';
import { organisation } from '../../src/config/organisation';

setupMockApi();
afterEach(() => vi.restoreAllMocks());

describe('a visitor who is not signed in (about-me 401)', () => {
  it('sees the login landing: title, "presented by" line and a Login button to /api/auth/login', async () => {
    const assign = vi.spyOn(browserLocation, 'assign').mockImplementation(() => {});
    renderApp('/students', { as: 'signed-out' });
    expect(await screen.findByRole('heading', { name: organisation.portalTitle })).toBeTruthy();
    expect(screen.getByText(`presented by ${organisation.name}`)).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: 'Main' })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Students' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Login' }));
    // The page asked for is not lost: sign-in lands back on it.
    expect(assign).toHaveBeenCalledWith('/api/auth/login?return_to=%2Fstudents');
  });

  it('signs in from the Dashboard without a page to come back to', async () => {
    const assign = vi.spyOn(browserLocation, 'assign').mockImplementation(() => {});
    renderApp('/', { as: 'signed-out' });
    fireEvent.click(await screen.findByRole('button', { name: 'Login' }));
    expect(assign).toHaveBeenCalledWith('/api/auth/login');
  });

  it('keeps a link with a query to come back to', async () => {
    const assign = vi.spyOn(browserLocation, 'assign').mockImplementation(() => {});
    renderApp('/file/5b2b8c1e-4a5d-4e6f-9a7b-1c2d3e4f5a6c/responses?reason=duplicate_sheet', { as: 'signed-out' });
    fireEvent.click(await screen.findByRole('button', { name: 'Login' }));
    expect(assign).toHaveBeenCalledWith(
      '/api/auth/login?return_to=%2Ffile%2F5b2b8c1e-4a5d-4e6f-9a7b-1c2d3e4f5a6c%2Fresponses%3Freason%3Dduplicate_sheet',
    );
  });
});

describe('a signed-in user without an e-mail', () => {
  it('sees the unauthorised screen and no app content', async () => {
    renderApp('/', { as: 'no-email' });
    expect(await screen.findByRole('heading', { name: 'Not Authorised' })).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: 'Main' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Login' })).toBeTruthy();
  });

  it('is treated the same when the server refuses about-me (403)', async () => {
    server.use(http.get('*/api/auth/me', () => HttpResponse.json({ detail: 'Forbidden' }, { status: 403 })));
    renderApp('/');
    expect(await screen.findByRole('heading', { name: 'Not Authorised' })).toBeTruthy();
  });
});

describe('a standard_user without a congregation', () => {
  it('sees "No Group Assigned" with the e-mail in lower case, and nothing else of the app', async () => {
    renderApp('/students', { as: 'no-group' });
    expect(await screen.findByRole('heading', { name: 'No Group Assigned' })).toBeTruthy();
    expect(screen.getByText('newcomer@demo.local')).toBeTruthy();
    expect(screen.getByText(/contact your representative of .+ to fix this issue/)).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: 'Main' })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Students' })).toBeNull();
  });
});

describe('a coordinator without a congregation', () => {
  it('sees "No Group Assigned" on the home page', async () => {
    server.use(
      http.get('*/api/auth/me', () =>
        HttpResponse.json({ email: 'Helper@Example.org', role: 'study_helper_coordinator', congregation: '', is_admin: false }),
      ),
    );
    renderApp('/');
    expect(await screen.findByRole('heading', { name: 'No Group Assigned' })).toBeTruthy();
    expect(screen.getByText('helper@example.org')).toBeTruthy();
  });
});

describe('when the server cannot be reached', () => {
  it('offers to try again', async () => {
    server.use(http.get('*/api/auth/me', () => HttpResponse.json({}, { status: 500 })));
    renderApp('/');
    expect(await screen.findByRole('heading', { name: 'Something went wrong' })).toBeTruthy();
    server.resetHandlers();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Admin' })).toBeTruthy();
  });
});

describe('signed-in users see the app', () => {
  it.each([
    ['admin', 'Admin'],
    ['coordinator', 'US 1234'],
    ['user', 'US 1234'],
  ] as const)('%s lands on the home page', async (as, heading) => {
    renderApp('/', { as });
    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeTruthy();
  });
});

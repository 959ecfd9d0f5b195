// @vitest-environment happy-dom
// The page chrome per role (spec §2 "Page chrome"): logo, role tabs and the highlighted one, the
// account menu (title, Profile, Log Out, Exit View As), the banner area and the footer.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { http, HttpResponse } from 'msw';
import { renderApp, setupMockApi } from '../../src/testing/test-utils';
import { server } from '../../src/testing/mocks/server';
import { browserLocation } from '../../src/lib/browser-location';
import { organisation } from '../../src/config/organisation';
import { useNotifications, useResultBanner } from '../../src/components/notifications/notifications-context';
import { AppProvider } from '../../src/app/provider';
import { AppLayout } from '../../src/components/layout/app-layout';
import { CurrentUserContext } from '../../src/lib/auth';
import { createQueryClient } from '../../src/lib/query-client';

setupMockApi();
afterEach(() => vi.restoreAllMocks());

const tabLabels = () =>
  within(screen.getByRole('navigation', { name: 'Main' }))
    .getAllByRole('link')
    .map((link) => link.textContent);
const currentTab = () =>
  within(screen.getByRole('navigation', { name: 'Main' }))
    .getAllByRole('link')
    .filter((link) => link.getAttribute('aria-current') === 'page')
    .map((link) => link.textContent);

/**
 * Opens the account menu. PrimeReact positions its popup by measuring it, which happy-dom cannot
 * do, so the popup stays display:none here: query it with `hidden: true`.
 */
async function openAccountMenu(title: string) {
  fireEvent.click(await screen.findByRole('button', { name: title }));
  return screen.findByRole('menu', { hidden: true });
}
const menuItem = (menu: HTMLElement, name: string) => within(menu).queryByRole('menuitem', { name, hidden: true });

describe('tabs by role', () => {
  it('scanning_admin', async () => {
    renderApp('/', { as: 'admin' });
    await screen.findByRole('heading', { name: 'Admin' });
    expect(tabLabels()).toEqual(['Dashboard', 'Files', 'Congregations', 'Service Centers', 'Students', 'Baptism Requests']);
    expect(currentTab()).toEqual(['Dashboard']);
  });

  it('study_helper_coordinator', async () => {
    renderApp('/', { as: 'coordinator' });
    await screen.findByRole('heading', { name: 'US 1234' });
    expect(tabLabels()).toEqual([
      'Dashboard',
      'Ready to Print',
      'Files',
      'Baptism Requests',
      'Study Helpers',
      'Students',
      'Resources',
    ]);
  });

  it('standard_user has none', async () => {
    renderApp('/', { as: 'user' });
    await screen.findByRole('heading', { name: 'US 1234' });
    expect(screen.queryByRole('navigation', { name: 'Main' })).toBeNull();
  });

  it.each([
    ['/files?mode=print', 'Ready to Print'],
    ['/files?mode=all', 'Files'],
    ['/files/uploads', 'Files'],
    ['/file/1b9d6bcd/', 'Files'],
    ['/students/1b9d6bcd', 'Students'],
    ['/resources', 'Resources'],
  ])('the coordinator at %s has %s highlighted', async (address, tab) => {
    renderApp(address, { as: 'coordinator' });
    await waitFor(() => expect(currentTab()).toEqual([tab]));
  });

  it('the admin at /responses/... has Files highlighted, and it follows navigation', async () => {
    const { router } = renderApp('/responses/1b9d6bcd/', { as: 'admin' });
    await waitFor(() => expect(currentTab()).toEqual(['Files']));
    fireEvent.click(screen.getByRole('link', { name: 'Congregations' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/congregations'));
    await waitFor(() => expect(currentTab()).toEqual(['Congregations']));
  });
});

describe('top bar', () => {
  it('has the logo linking home', async () => {
    renderApp('/students');
    const logo = await screen.findByRole('link', { name: `${organisation.portalTitle} home` });
    expect(logo.getAttribute('href')).toBe('/');
    expect(logo.querySelector('img')).toBeTruthy();
  });
});

describe('account menu', () => {
  it('is titled "Admin" for a scanning_admin, with Log Out and no Exit View As', async () => {
    renderApp('/', { as: 'admin' });
    const menu = await openAccountMenu('Admin');
    expect(menuItem(menu, 'Exit View As')).toBeNull();
    // Signing out is a post from the portal, never a link (a GET signs nobody out).
    const post = vi.spyOn(browserLocation, 'post').mockImplementation(() => {});
    fireEvent.click(menuItem(menu, 'Log Out')!.querySelector('a')!);
    expect(post).toHaveBeenCalledWith('/api/auth/logout');
  });

  it('is titled with the wbs_code for others; a coordinator who is not is_admin gets no Exit View As', async () => {
    renderApp('/', { as: 'coordinator' });
    const menu = await openAccountMenu('US 1234');
    expect(menuItem(menu, 'Log Out')).toBeTruthy();
    expect(menuItem(menu, 'Exit View As')).toBeNull();
  });

  it('opens the Profile (e-mail settings) for anyone', async () => {
    const { router } = renderApp('/', { as: 'coordinator' });
    const menu = await openAccountMenu('US 1234');
    fireEvent.click(within(menuItem(menu, 'Profile')!).getByText('Profile'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/profile'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Profile' })).toBeTruthy();
  });

  it('takes the wbs_code from the congregation when about-me has none', async () => {
    server.use(
      http.get('*/api/auth/me', () =>
        HttpResponse.json({ email: 'c@example.org', role: 'study_helper_coordinator', congregation: 'c-9', is_admin: false }),
      ),
      http.get('*/api/congregations/:id', ({ params }) =>
        HttpResponse.json({ id: params.id, wbs_code: 'GH 5555', display_name: 'Accra', created_at: '2024-01-01T00:00:00Z' }),
      ),
    );
    renderApp('/');
    expect(await screen.findByRole('button', { name: 'GH 5555' })).toBeTruthy();
  });

  it('offers Exit View As to an is_admin acting as a congregation: POST null, then / and a reload', async () => {
    const pushPath = vi.spyOn(browserLocation, 'pushPath').mockImplementation(() => {});
    const reload = vi.spyOn(browserLocation, 'reload').mockImplementation(() => {});
    const bodies: unknown[] = [];
    server.use(
      http.post('*/api/auth/view-as', async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json({ email: 'admin@demo.local', role: 'scanning_admin', congregation: '', is_admin: true });
      }),
    );
    renderApp('/students', { as: 'view-as' });
    const menu = await openAccountMenu('US 1234');
    const exit = menuItem(menu, 'Exit View As');
    expect(exit).toBeTruthy();
    fireEvent.click(exit!.querySelector('a')!);
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    expect(bodies).toEqual([{ congregation: null }]);
    expect(pushPath).toHaveBeenCalledWith('/');
    expect(pushPath.mock.invocationCallOrder[0]).toBeLessThan(reload.mock.invocationCallOrder[0] as number);
  });

  it('does not offer Exit View As to an is_admin scanning_admin even with a congregation', async () => {
    server.use(
      http.get('*/api/auth/me', () =>
        HttpResponse.json({ email: 'a@example.org', role: 'scanning_admin', congregation: 'c-1', is_admin: true, wbs_code: 'US 1234' }),
      ),
    );
    renderApp('/');
    const menu = await openAccountMenu('Admin');
    expect(menuItem(menu, 'Exit View As')).toBeNull();
  });
});

describe('banner area and footer', () => {
  it('shows the footer with the 2024 copyright, Privacy Policy and Terms of Use', async () => {
    renderApp('/');
    expect(await screen.findByText(`© 2024 ${organisation.name}`)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Privacy Policy' }).getAttribute('href')).toBe(organisation.privacyPolicyUrl);
    expect(screen.getByRole('link', { name: 'Terms of Use' }).getAttribute('href')).toBe(organisation.termsOfUseUrl);
  });

  it('shows results and notifications in the 4em area above the content until dismissed or due', async () => {
    function Probe() {
      const banner = useResultBanner();
      const { notify } = useNotifications();
      return (
        <>
          <button type="button" onClick={() => banner.show({ type: 'error', errorType: 'DUPLICATE_FILE' })}>
            fail
          </button>
          <button type="button" onClick={() => notify('Saved.', { severity: 'success', durationMs: 300 })}>
            save
          </button>
        </>
      );
    }
    const user = { email: 'admin@demo.local', role: 'scanning_admin', congregation: '', is_admin: true } as const;
    render(
      <AppProvider queryClient={createQueryClient({ queries: { retry: false } })}>
        <MemoryRouter>
          <CurrentUserContext.Provider value={user}>
            <AppLayout user={user}>
              <Probe />
            </AppLayout>
          </CurrentUserContext.Provider>
        </MemoryRouter>
      </AppProvider>,
    );
    const area = document.querySelector('.banner-area') as HTMLElement;
    const main = screen.getByRole('main');
    expect(area.compareDocumentPosition(main) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'fail' }));
    const alert = within(area).getByRole('alert');
    expect(alert.textContent).toContain('This file has already been uploaded. Please upload a different file.');
    fireEvent.click(within(alert).getByRole('button', { name: 'Dismiss' }));
    expect(within(area).queryByRole('alert')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'save' }));
    expect(within(area).getByRole('status').textContent).toContain('Saved.');
    await waitFor(() => expect(within(area).queryByRole('status')).toBeNull(), { timeout: 2_000 });
  });

  it('shows one banner at a time, the newest, with a count of the others; dismissing shows the next', async () => {
    function Probe() {
      const banner = useResultBanner();
      const { notify } = useNotifications();
      return (
        <>
          <button type="button" onClick={() => banner.show({ type: 'error', errorType: 'DUPLICATE_FILE' })}>
            fail
          </button>
          {['First', 'Second', 'Third'].map((word) => (
            <button key={word} type="button" onClick={() => notify(`${word} saved.`, { durationMs: 60_000 })}>
              {word}
            </button>
          ))}
        </>
      );
    }
    const user = { email: 'admin@demo.local', role: 'scanning_admin', congregation: '', is_admin: true } as const;
    render(
      <AppProvider queryClient={createQueryClient({ queries: { retry: false } })}>
        <MemoryRouter>
          <CurrentUserContext.Provider value={user}>
            <AppLayout user={user}>
              <Probe />
            </AppLayout>
          </CurrentUserContext.Provider>
        </MemoryRouter>
      </AppProvider>,
    );
    const area = document.querySelector('.banner-area') as HTMLElement;
    const banners = () => [...area.querySelectorAll('.banner')].map((banner) => banner.querySelector('.banner-text')?.textContent);
    const others = () => area.querySelector('.banner-others')?.textContent ?? null;

    fireEvent.click(screen.getByRole('button', { name: 'First' }));
    expect(banners()).toEqual(['First saved.']);
    expect(others()).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'fail' }));
    fireEvent.click(screen.getByRole('button', { name: 'Second' }));
    fireEvent.click(screen.getByRole('button', { name: 'Third' }));
    expect(banners()).toEqual(['Third saved.']);
    expect(others()).toBe('3 more notifications');

    fireEvent.click(within(area).getByRole('button', { name: 'Dismiss' }));
    expect(banners()).toEqual(['Second saved.']);
    expect(others()).toBe('2 more notifications');
    fireEvent.click(within(area).getByRole('button', { name: 'Dismiss' }));
    expect(banners()).toEqual(['This file has already been uploaded. Please upload a different file.']);
    expect(others()).toBe('1 more notification');
    fireEvent.click(within(area).getByRole('button', { name: 'Dismiss' }));
    expect(banners()).toEqual(['First saved.']);
    expect(others()).toBeNull();
  });
});

// @vitest-environment happy-dom
// A congregation's Emails screen on the mock world: its coordinator sees the addresses, adds one
// through a dialog that refuses what is no address, and deletes one after the spec's confirm; the
// Profile screen (account menu) turns upload reports off and leads a coordinator to the Emails.
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { server } from '../../src/testing/mocks/server';
import { renderApp, setupMockApi } from '../../src/testing/test-utils';

setupMockApi();

const HOME = '3f2b8c1e-4a5d-4e6f-9a7b-1c2d3e4f5a6b';
const table = async () => within(await screen.findByRole('table', { name: 'Emails' }));
const addresses = async () => (await table()).queryAllByRole('row').slice(1).map((row) => within(row).queryAllByRole('cell')[0]?.textContent);

describe('congregation e-mails', () => {
  it('lists, adds (checking the address) and deletes after "Are you sure…"', async () => {
    renderApp(`/admin/congregations/${HOME}/emails`, { as: 'coordinator' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Congregation Emails' })).toBeTruthy();
    await waitFor(async () => expect(await addresses()).toEqual(['coordinator@example.org', 'helpers@example.org']));

    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add E-mail' });
    fireEvent.change(within(dialog).getByLabelText('E-mail'), { target: { value: 'not an address' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Enter one e-mail address, like name@example.org.')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('E-mail'), { target: { value: 'Amy@Example.org' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('E-mail amy@example.org added.')).toBeTruthy();
    await waitFor(async () => expect(await addresses()).toEqual(['amy@example.org', 'coordinator@example.org', 'helpers@example.org']));

    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    const again = await screen.findByRole('dialog', { name: 'Add E-mail' });
    fireEvent.change(within(again).getByLabelText('E-mail'), { target: { value: 'helpers@example.org' } });
    fireEvent.click(within(again).getByRole('button', { name: 'Save' }));
    expect(await within(again).findByText('This congregation has the address helpers@example.org already.')).toBeTruthy();
    fireEvent.click(within(again).getByRole('button', { name: 'Cancel' }));

    fireEvent.click(screen.getByRole('button', { name: 'Delete helpers@example.org' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete E-mail' });
    expect(confirm.textContent).toContain('Are you sure you want to delete this e-mail? This action cannot be undone.');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(async () => expect(await addresses()).toEqual(['amy@example.org', 'coordinator@example.org']));
  });

  it('opens from the Emails tile of the congregation page', async () => {
    renderApp(`/admin/congregations/${HOME}/`, { as: 'admin' });
    const tiles = within(await screen.findByRole('navigation', { name: 'Congregation shortcuts' }));
    fireEvent.click(tiles.getByRole('link', { name: 'Emails' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Congregation Emails' })).toBeTruthy();
  });
});

describe('who may not keep the addresses is told so', () => {
  const forbidden = () => HttpResponse.json({ detail: 'Forbidden' }, { status: 403 });

  it("another congregation's Emails: not available to a coordinator, with nothing to add", async () => {
    server.use(http.get('*/api/congregations/c-other', forbidden), http.get('*/api/congregations/c-other/emails', forbidden));
    renderApp('/admin/congregations/c-other/emails', { as: 'coordinator' });
    expect(await screen.findByText('This congregation is not available to this account.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Add' })).toBeNull();
    expect(screen.queryByRole('table', { name: 'Emails' })).toBeNull();
  });

  it("a member's own congregation: the list is not available and there is no Add", async () => {
    renderApp(`/admin/congregations/${HOME}/emails`, { as: 'user' });
    expect(await screen.findByText('This list is not available to this account.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Add' })).toBeNull();
    expect(screen.queryByText('coordinator@example.org')).toBeNull();
  });

  it('the mail record: "Not Allowed" for a coordinator', async () => {
    renderApp('/admin/mail', { as: 'coordinator' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Not Allowed' })).toBeTruthy();
    expect(screen.queryByText('not sent: no mail server set')).toBeNull();
  });
});

describe('profile', () => {
  it('turns upload reports off, and leads a coordinator to the congregation\'s e-mails', async () => {
    renderApp('/profile', { as: 'coordinator' });
    const box = await screen.findByRole('checkbox', { name: 'E-mail me the report of each upload I make when its reading ends' });
    await waitFor(() => expect((box as HTMLInputElement).checked).toBe(true));
    fireEvent.click(box);
    await waitFor(() => expect((screen.getByRole('checkbox') as HTMLInputElement).checked).toBe(false));
    expect(screen.getByRole('link', { name: "My congregation's e-mail addresses" }).getAttribute('href')).toBe(`/admin/congregations/${HOME}/emails`);
  });

  it('leads a member to no e-mail addresses it could not keep', async () => {
    renderApp('/profile', { as: 'user' });
    expect(await screen.findByRole('checkbox', { name: 'E-mail me the report of each upload I make when its reading ends' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: "My congregation's e-mail addresses" })).toBeNull();
  });
});

describe('mail record', () => {
  it('lists what went out, what failed and what was not sent', async () => {
    renderApp('/admin/mail', { as: 'admin' });
    expect(await screen.findByText('not sent: no mail server set')).toBeTruthy();
    expect(screen.getByText('451 Try again later')).toBeTruthy();
  });
});

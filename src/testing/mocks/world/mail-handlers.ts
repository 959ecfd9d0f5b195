// The mock world's e-mail calls: a congregation's addresses (the Emails tile), the admin's mail
// record and the user's e-mail settings.
import { http, type RequestHandler } from 'msw';
import type { components } from '../../../../generated/api-types';
import { forbidden, json, notFound, paged, refusal, type WorldAccess } from './http';
import { newId, tick } from './world';

type S = components['schemas'];

const EMAIL = /^[^\s@<>(),;:"]+@[^\s@<>(),;:"]+\.[^\s@<>(),;:".]+$/;
/** The contract's maxItems of a congregation's address list. */
const MAX_ADDRESSES = 100;

export function mailHandlers(access: WorldAccess): RequestHandler[] {
  const { world, viewer, userRole } = access;
  const congregationOf = (id: unknown) => world().congregations.find((row) => row.id === id && (viewer() === null || row.id === viewer()));
  // As on the server: admins and the congregation's coordinator keep its addresses, a member does not.
  const member = () => userRole() === 'standard_user';
  const deleted = () => {
    tick(world());
    return new Response(null, { status: 204 });
  };
  const view = ({ id, email, created_at }: S['CongregationEmail']): S['CongregationEmail'] => ({ id, email, created_at });
  return [
    http.get('*/api/congregations/:id/emails', ({ params }) => {
      if (member()) return forbidden();
      const congregation = congregationOf(params.id);
      if (!congregation) return notFound('Congregation not found');
      const rows = world().congregationEmails.filter((row) => row.congregationId === congregation.id);
      return json<S['CongregationEmail'][]>(rows.map(view).sort((a, b) => a.email.localeCompare(b.email)));
    }),
    http.post('*/api/congregations/:id/emails', async ({ params, request }) => {
      if (member()) return forbidden();
      const congregation = congregationOf(params.id);
      if (!congregation) return notFound('Congregation not found');
      const email = ((await request.json()) as S['CongregationEmailCreate']).email.trim().toLowerCase();
      if (!EMAIL.test(email)) return refusal(400, 'VALIDATION_ERROR', `"${email}" is not an e-mail address.`);
      const kept = world().congregationEmails.filter((row) => row.congregationId === congregation.id);
      if (kept.length >= MAX_ADDRESSES) return refusal(400, 'VALIDATION_ERROR', `A congregation keeps at most ${MAX_ADDRESSES} e-mail addresses.`);
      if (kept.some((row) => row.email === email)) {
        return refusal(400, 'VALIDATION_ERROR', `This congregation has the address ${email} already.`);
      }
      const row = { id: newId(world(), 'congregation-email'), congregationId: congregation.id, email, created_at: tick(world()) };
      world().congregationEmails.push(row);
      return json<S['CongregationEmailCreated']>({ id: row.id, email }, 201);
    }),
    http.delete('*/api/congregations/:id/emails/:emailId', ({ params }) => {
      if (member()) return forbidden();
      const congregation = congregationOf(params.id);
      if (!congregation) return notFound('Congregation not found');
      const row = world().congregationEmails.find((candidate) => candidate.id === params.emailId && candidate.congregationId === congregation.id);
      if (!row) return notFound('E-mail address not found');
      world().congregationEmails = world().congregationEmails.filter((candidate) => candidate !== row);
      return deleted();
    }),
    http.get('*/api/mail/messages', ({ request }) => {
      if (viewer() !== null) return forbidden();
      return json<S['MailMessageList']>(paged(new URL(request.url), world().mail));
    }),
    http.get('*/api/mail/settings', () => json<S['MailSettings']>(world().mailSettings)),
    http.patch('*/api/mail/settings', async ({ request }) => {
      world().mailSettings = { upload_reports: ((await request.json()) as S['MailSettingsUpdate']).upload_reports };
      return json<S['MailSettings']>(world().mailSettings);
    }),
  ];
}

// The congregations tag, a congregation's e-mail addresses (the Emails tile): kept by admins and
// the congregation's coordinator, not by a member (as on the server).
import { schemaLimits } from '../../../../../generated/limits';
import type { HttpHandler } from 'msw';
import type { components } from '../../../../../generated/api-types';
import {
  getCreateCongregationEmailMockHandler,
  getDeleteCongregationEmailMockHandler,
  getListCongregationEmailsMockHandler,
} from '../../../../../generated/hooks/congregations/congregations.msw';
import { answer, forbidden, notFound, refusal, type WorldAccess } from '../http';
import { newId, tick } from '../world';
import type { WorldLookups } from './lookups';

type S = components['schemas'];

const EMAIL = /^[^\s@<>(),;:"]+@[^\s@<>(),;:"]+\.[^\s@<>(),;:".]+$/;
/** The contract's maxItems of a congregation's address list. */
const MAX_ADDRESSES = schemaLimits.CongregationEmailList.maxItems;

const view = ({ id, email, created_at }: S['CongregationEmail']): S['CongregationEmail'] => ({ id, email, created_at });

export function congregationEmailResponders({ world, userRole }: WorldAccess, { congregationOf, deleted }: WorldLookups): HttpHandler[] {
  const member = () => userRole() === 'standard_user';
  return [
    answer(getListCongregationEmailsMockHandler, ({ params }) => {
      if (member()) return forbidden();
      const congregation = congregationOf(params.id);
      if (!congregation) return notFound('Congregation not found');
      const rows = world().congregationEmails.filter((row) => row.congregationId === congregation.id);
      return rows.map(view).sort((a, b) => a.email.localeCompare(b.email));
    }),
    answer(getCreateCongregationEmailMockHandler, async ({ params, request }) => {
      if (member()) return forbidden();
      const congregation = congregationOf(params.id);
      if (!congregation) return notFound('Congregation not found');
      const email = ((await request.json()) as S['CongregationEmailCreate']).email.trim().toLowerCase();
      if (!EMAIL.test(email)) return refusal(400, 'VALIDATION_ERROR', `"${email}" is not an e-mail address.`);
      const kept = world().congregationEmails.filter((row) => row.congregationId === congregation.id);
      if (kept.length >= MAX_ADDRESSES) return refusal(400, 'VALIDATION_ERROR', `A congregation keeps at most ${MAX_ADDRESSES} e-mail addresses.`);
      if (kept.some((row) => row.email === email)) return refusal(400, 'VALIDATION_ERROR', `This congregation has the address ${email} already.`);
      const row = { id: newId(world(), 'congregation-email'), congregationId: congregation.id, email, created_at: tick(world()) };
      world().congregationEmails.push(row);
      return { id: row.id, email };
    }),
    answer(getDeleteCongregationEmailMockHandler, ({ params }) => {
      if (member()) return forbidden();
      const congregation = congregationOf(params.id);
      if (!congregation) return notFound('Congregation not found');
      const row = world().congregationEmails.find((candidate) => candidate.id === params.emailId && candidate.congregationId === congregation.id);
      if (!row) return notFound('E-mail address not found');
      world().congregationEmails = world().congregationEmails.filter((candidate) => candidate !== row);
      deleted();
    }),
  ];
}

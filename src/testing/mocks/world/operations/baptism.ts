// The baptism tag (spec §7 "Baptism"): the requests, one made by a student's number or by flagging
// an answer sheet, and one withdrawn while still pending.
import type { HttpHandler } from 'msw';
import type { components } from '../../../../../generated/api-types';
import {
  getCreateBaptismRequestMockHandler,
  getDeleteBaptismRequestMockHandler,
  getFlagAnswerSheetBaptismRequestMockHandler,
  getListBaptismRequestsMockHandler,
} from '../../../../../generated/hooks/baptism/baptism.msw';
import { answer, forbidden, json, notFound, paged, refusal, type WorldAccess } from '../http';
import { baptismView, sheetView } from '../views';
import { newId, tick } from '../world';
import type { WorldLookups } from './lookups';

type S = components['schemas'];

export function baptismResponders({ world, viewer }: WorldAccess, { mayAct, deleted }: WorldLookups): HttpHandler[] {
  return [
    answer(getListBaptismRequestsMockHandler, ({ request }) => {
      const rows = world()
        .baptismRequests.filter((row) => mayAct(world().students.find((student) => student.id === row.studentId)?.congregationId ?? null))
        .sort((a, b) => b.requested_at.localeCompare(a.requested_at));
      const page = paged(new URL(request.url), rows);
      return { ...page, items: page.items.map((row) => baptismView(world(), row)) };
    }),
    answer(getCreateBaptismRequestMockHandler, async ({ request }) => {
      const body = (await request.json()) as S['BaptismRequestCreate'];
      if (!Number.isInteger(body.student_id) || body.student_id < 1) return refusal(400, 'VALIDATION_ERROR', 'Invalid Student ID format.');
      const student = world().students.find((row) => row.human_id === body.student_id && mayAct(row.congregationId));
      if (!student) return notFound('Student not found');
      if (!world().sheets.some((sheet) => sheet.studentId === student.id)) return json<S['ErrorSimple']>({ detail: 'No answer sheet found for this student.' }, 400);
      if (world().baptismRequests.some((row) => row.studentId === student.id)) return refusal(409, 'DUPLICATE', 'A baptism request already exists for this student.');
      const row = { id: newId(world(), 'baptism'), studentId: student.id, status: 'pending' as const, requested_at: tick(world()) };
      world().baptismRequests.push(row);
      return baptismView(world(), row);
    }),
    answer(getDeleteBaptismRequestMockHandler, ({ params }) => {
      if (viewer() !== null) return forbidden();
      const row = world().baptismRequests.find((request) => request.id === params.id);
      if (!row) return notFound('Baptism request not found');
      if (row.status !== 'pending') return refusal(409, 'CONFLICT', 'This baptism request is already being handled, so it cannot be deleted.');
      world().baptismRequests = world().baptismRequests.filter((request) => request.id !== row.id);
      for (const sheet of world().sheets) if (sheet.studentId === row.studentId) sheet.is_baptism_request = false;
      deleted();
    }),
    answer(getFlagAnswerSheetBaptismRequestMockHandler, ({ params }) => {
      const sheet = world().sheets.find((row) => row.id === params.responseId && mayAct(row.assignedGroup));
      if (!sheet) return notFound('Answer sheet not found');
      sheet.is_baptism_request = true;
      if (sheet.studentId !== null && !world().baptismRequests.some((row) => row.studentId === sheet.studentId)) {
        world().baptismRequests.push({ id: newId(world(), 'baptism'), studentId: sheet.studentId, status: 'pending', requested_at: tick(world()) });
      }
      return sheetView(world(), sheet);
    }),
  ];
}

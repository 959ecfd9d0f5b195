// The answer-sheets tag (spec §7 "Answer sheets"): the list, a sheet and its pages, its printout,
// a file's sheets given to one congregation, and Review's changes to a sheet.
import type { HttpHandler } from 'msw';
import type { components } from '../../../../../generated/api-types';
import {
  getAssignFileAnswerSheetsMockHandler,
  getGetAnswerSheetMockHandler,
  getListAnswerSheetPagesMockHandler,
  getListAnswerSheetsMockHandler,
  getPrintAnswerSheetMockHandler,
  getUpdateAnswerSheetMockHandler,
} from '../../../../../generated/hooks/answer-sheets/answer-sheets.msw';
import { answer, forbidden, notFound, paged, pdf, refusal, sorted, type WorldAccess } from '../http';
import { sheetShowsReason } from '../review-flags';
import { keptSheets, pageView, sheetView } from '../views';
import { tick } from '../world';
import type { WorldLookups } from './lookups';
import { mendSheet } from './sheet-patch';

type S = components['schemas'];

export function answerSheetResponders(access: WorldAccess, { visibleFile, sheetOf }: WorldLookups): HttpHandler[] {
  const { world, viewer } = access;
  return [
    answer(getListAnswerSheetsMockHandler, ({ request }) => {
      const url = new URL(request.url);
      const fileId = url.searchParams.get('file');
      const graded = url.searchParams.get('graded');
      const reason = url.searchParams.get('reason') as S['ReviewReason'] | null;
      const rows = world().sheets.filter(
        (sheet) =>
          visibleFile(sheet.fileId) !== undefined &&
          (reason === null || sheetShowsReason(world(), sheet, reason)) &&
          (fileId === null || sheet.fileId === fileId) &&
          (graded === null || (sheet.gradedAt !== null) === (graded === 'true')) &&
          (viewer() === null || sheet.assignedGroup === viewer()) &&
          keptSheets(world(), sheet.fileId).includes(sheet),
      );
      const views = rows.map((sheet) => ({ sheet, view: sheetView(world(), sheet) }));
      const order = sorted(
        url,
        views,
        {
          sequence: ({ sheet }) => `${sheet.fileId}:${String(sheet.sequence).padStart(5, '0')}`,
          course: ({ view }) => view.course?.name ?? null,
          student: ({ view }) => view.student?.human_id ?? null,
          graded_at: ({ sheet }) => sheet.gradedAt,
        },
        'sequence',
      );
      const page = paged(url, order);
      return { ...page, items: page.items.map(({ view }) => view) };
    }),
    answer(getAssignFileAnswerSheetsMockHandler, async ({ request }) => {
      const fileId = new URL(request.url).searchParams.get('file');
      const file = visibleFile(fileId ?? undefined);
      if (!file) return notFound('File not found');
      const body = (await request.json()) as S['BulkAssign'];
      if (!world().congregations.some((congregation) => congregation.id === body.assigned_group)) return refusal(400, 'VALIDATION_ERROR', 'Unknown congregation.');
      const sheets = keptSheets(world(), file.id);
      for (const sheet of sheets) sheet.assignedGroup = body.assigned_group;
      tick(world());
      return { updated: sheets.length };
    }),
    answer(getListAnswerSheetPagesMockHandler, ({ params }) => {
      const sheet = sheetOf(params.id);
      if (!sheet) return notFound('Answer sheet not found');
      return world()
        .pages.filter((page) => page.sheetId === sheet.id)
        .map((page) => pageView(world(), page));
    }),
    answer(getPrintAnswerSheetMockHandler, ({ params }) => {
      const sheet = sheetOf(params.responseId);
      return sheet ? pdf(`answer-sheet-${sheet.id.slice(0, 6)}.pdf`, `Answer sheet ${sheet.sequence}`) : notFound('Answer sheet not found');
    }),
    answer(getGetAnswerSheetMockHandler, ({ params }) => {
      const sheet = sheetOf(params.sheetId);
      return sheet ? sheetView(world(), sheet) : notFound('Answer sheet not found');
    }),
    answer(getUpdateAnswerSheetMockHandler, async ({ params, request }) => {
      // Review's mends and the choice of a sheet's congregation are the admins' (x-access admin).
      if (viewer() !== null) return forbidden();
      const sheet = sheetOf(params.sheetId);
      if (!sheet) return notFound('Answer sheet not found');
      return mendSheet(access, sheet, (await request.json()) as S['AnswerSheetPatch']);
    }),
  ];
}

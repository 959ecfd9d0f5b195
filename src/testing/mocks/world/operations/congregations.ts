// The congregations tag (spec §7 "Congregations"): the list, one congregation and its counts, a
// new one (with a valid WBS code), its study helpers, and one deleted when nothing is in it.
import { WBS_CODE_MIN_LENGTH_EXCLUSIVE } from '../../../../../machines/constants';
import type { HttpHandler } from 'msw';
import type { components } from '../../../../../generated/api-types';
import {
  getCreateCongregationMockHandler,
  getCreateCongregationStudyHelperMockHandler,
  getDeleteCongregationMockHandler,
  getGetCongregationMockHandler,
  getGetCongregationStatsMockHandler,
  getListCongregationStudyHelpersMockHandler,
  getListCongregationsMockHandler,
} from '../../../../../generated/hooks/congregations/congregations.msw';
import { answer, contains, forbidden, notFound, paged, refusal, sorted, uses, type WorldAccess } from '../http';
import { congregationStats, studyHelperView } from '../views';
import { newId, tick, type World } from '../world';
import { inUse, type WorldLookups } from './lookups';

type S = components['schemas'];

/** A congregation WBS code as spec §5 wants it: longer than 5, one space, not in the first two places. */
const validWbsCode = (code: string) => code.length > WBS_CODE_MIN_LENGTH_EXCLUSIVE && code.split(' ').length === 2 && code.indexOf(' ') >= 2;

/** "3 students and 1 study helper": what keeps a congregation from being deleted, or null. */
const congregationUses = (world: World, id: string) =>
  uses([
    [world.students.filter((student) => student.congregationId === id).length, 'student', 'students'],
    [world.studyHelpers.filter((helper) => helper.congregationId === id).length, 'study helper', 'study helpers'],
    [world.sheets.filter((sheet) => sheet.assignedGroup === id).length, 'answer sheet assigned to it', 'answer sheets assigned to it'],
    [world.uploads.filter((upload) => upload.congregationId === id).length, 'graded upload', 'graded uploads'],
  ]);

export function congregationResponders({ world, viewer }: WorldAccess, { congregationOf, helperList, deleted }: WorldLookups): HttpHandler[] {
  return [
    answer(getListCongregationsMockHandler, ({ request }) => {
      const url = new URL(request.url);
      const rows = world().congregations.filter((row) => contains(row.wbs_code, url.searchParams.get('wbs_code')));
      const order = sorted(url, rows, { wbs_code: (row) => row.wbs_code, display_name: (row) => row.display_name.toLowerCase(), created_at: (row) => row.created_at }, 'wbs_code');
      return paged(url, order);
    }),
    answer(getCreateCongregationMockHandler, async ({ request }) => {
      const body = (await request.json()) as S['CongregationCreate'];
      if (!validWbsCode(body.wbs_code)) return refusal(400, 'VALIDATION_ERROR', 'Invalid WBS code.');
      if (world().congregations.some((row) => row.wbs_code === body.wbs_code)) return refusal(409, 'DUPLICATE', 'A congregation with this WBS code exists.');
      const congregation = { id: newId(world(), 'congregation'), wbs_code: body.wbs_code, display_name: body.display_name, created_at: tick(world()) };
      world().congregations.push(congregation);
      return congregation;
    }),
    answer(getGetCongregationStatsMockHandler, ({ params }) => {
      const congregation = congregationOf(params.id);
      return congregation ? congregationStats(world(), congregation.id) : notFound('Congregation not found');
    }),
    answer(getListCongregationStudyHelpersMockHandler, ({ params, request }) => {
      const congregation = congregationOf(params.id);
      return congregation ? helperList(new URL(request.url), congregation.id) : notFound('Congregation not found');
    }),
    answer(getCreateCongregationStudyHelperMockHandler, async ({ params, request }) => {
      const congregation = congregationOf(params.id);
      if (!congregation) return notFound('Congregation not found');
      const body = (await request.json()) as S['StudyHelperCreate'];
      if (body.name.trim() === '') return refusal(400, 'VALIDATION_ERROR', 'A study helper needs a name.');
      const helper = { id: newId(world(), 'study-helper'), name: body.name.trim(), email: body.email, congregationId: congregation.id, created_at: tick(world()), last_active_at: null };
      world().studyHelpers.push(helper);
      return studyHelperView(world(), helper);
    }),
    answer(getDeleteCongregationMockHandler, ({ params }) => {
      if (viewer() !== null) return forbidden();
      const congregation = world().congregations.find((row) => row.id === params.id);
      if (!congregation) return notFound('Congregation not found');
      const refused = inUse('congregation', congregationUses(world(), congregation.id));
      if (refused) return refused;
      world().congregations = world().congregations.filter((row) => row.id !== congregation.id);
      deleted();
    }),
    answer(getGetCongregationMockHandler, ({ params }) => congregationOf(params.id) ?? notFound('Congregation not found')),
  ];
}

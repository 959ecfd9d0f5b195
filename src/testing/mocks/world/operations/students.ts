// The students tag (spec §7 "Students"): the lists, a student and their answer sheets, and the
// changes a coordinator or an admin makes to a student.
import type { HttpHandler } from 'msw';
import type { components } from '../../../../../generated/api-types';
import {
  getGetStudentMockHandler,
  getListStudentAnswerSheetsMockHandler,
  getListStudentsMockHandler,
  getListStudyHelperStudentsMockHandler,
  getUpdateStudentMockHandler,
} from '../../../../../generated/hooks/students/students.msw';
import { answer, notFound, refusal, type WorldAccess } from '../http';
import { sheetView, studentView } from '../views';
import { tick } from '../world';
import type { WorldLookups } from './lookups';

type S = components['schemas'];

export function studentResponders({ world, viewer }: WorldAccess, { studentOf, helperOf, studentList }: WorldLookups): HttpHandler[] {
  return [
    answer(getListStudentsMockHandler, ({ request }) => {
      const url = new URL(request.url);
      const q = (name: string) => url.searchParams.get(name);
      const congregation = viewer() ?? q('congregation');
      const rows = world().students.filter(
        (student) =>
          (congregation === null || student.congregationId === congregation) &&
          (q('human_id_prefix') === null || String(student.human_id).startsWith(q('human_id_prefix') as string)) &&
          (q('country') === null || student.country?.iso_code === q('country')) &&
          (q('study_helper') === null || student.studyHelperId === q('study_helper')),
      );
      return studentList(url, rows);
    }),
    answer(getListStudentAnswerSheetsMockHandler, ({ params }) => {
      const student = studentOf(params.id);
      if (!student) return notFound('Student not found');
      return world()
        .sheets.filter((sheet) => sheet.studentId === student.id)
        .map((sheet) => sheetView(world(), sheet));
    }),
    answer(getGetStudentMockHandler, ({ params }) => {
      const student = studentOf(params.id);
      return student ? studentView(world(), student) : notFound('Student not found');
    }),
    answer(getUpdateStudentMockHandler, async ({ params, request }) => {
      const student = studentOf(params.id);
      if (!student) return notFound('Student not found');
      const patch = (await request.json()) as S['StudentPatch'];
      if ('attributes' in patch) student.attributes = { ...student.attributes, ...patch.attributes };
      if ('congregation' in patch) {
        if (viewer() !== null) return refusal(403, 'FORBIDDEN', 'Only a scanning admin moves a student to another congregation.');
        student.congregationId = patch.congregation;
        student.studyHelperId = null;
      }
      if ('study_helper' in patch) {
        const helper = patch.study_helper === null ? null : world().studyHelpers.find((candidate) => candidate.id === patch.study_helper);
        if (helper === undefined) return refusal(400, 'VALIDATION_ERROR', 'Unknown study helper.');
        student.studyHelperId = helper?.id ?? null;
      }
      tick(world());
      return studentView(world(), student);
    }),
    answer(getListStudyHelperStudentsMockHandler, ({ params, request }) => {
      const helper = helperOf(params.id);
      if (!helper) return notFound('Study helper not found');
      return studentList(
        new URL(request.url),
        world().students.filter((student) => student.studyHelperId === helper.id),
      );
    }),
  ];
}

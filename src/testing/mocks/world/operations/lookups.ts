// The world's records as one signed-in user may reach them, shared by the operations' responders:
// a file (and its sheets and pages) that the user may see, a person or place the user may act on.
import type { components } from '../../../../../generated/api-types';
import { contains, paged, refusal, sorted, type WorldAccess } from '../http';
import { fileVisible, studentView, studyHelperView } from '../views';
import { tick, type FileRow, type StudentRow } from '../world';

type S = components['schemas'];

export function worldLookups(access: WorldAccess) {
  const { world, viewer } = access;
  const visibleFile = (id: unknown): FileRow | undefined => {
    const file = world().files.find((row) => row.id === id);
    return file && fileVisible(world(), file, viewer()) ? file : undefined;
  };
  const mayAct = (congregationId: string | null) => viewer() === null || congregationId === viewer();
  return {
    visibleFile,
    sheetOf: (id: unknown) => world().sheets.find((sheet) => sheet.id === id && visibleFile(sheet.fileId)),
    pageOf: (id: unknown) => world().pages.find((page) => page.id === id && visibleFile(page.fileId)),
    mayAct,
    studentOf: (id: unknown) => world().students.find((student) => student.id === id && mayAct(student.congregationId)),
    helperOf: (id: unknown) => world().studyHelpers.find((helper) => helper.id === id && mayAct(helper.congregationId)),
    centerOf: (id: unknown) => world().serviceCenters.find((center) => center.id === id),
    congregationOf: (id: unknown) => world().congregations.find((row) => row.id === id && mayAct(row.id)),
    studentList: (url: URL, rows: StudentRow[]): S['StudentList'] => {
      const page = paged(url, sorted(url, rows, { human_id: (student) => student.human_id, created_at: (student) => student.created_at }, 'human_id'));
      return { ...page, items: page.items.map((student) => studentView(world(), student)) };
    },
    helperList: (url: URL, congregation: string | null): S['StudyHelperList'] => {
      const name = url.searchParams.get('name');
      const rows = world().studyHelpers.filter((helper) => (congregation === null || helper.congregationId === congregation) && contains(helper.name, name));
      const page = paged(url, [...rows].sort((a, b) => a.name.localeCompare(b.name)));
      return { ...page, items: page.items.map((helper) => studyHelperView(world(), helper)) };
    },
    /** A record removed: the world's clock moves (the generated handler answers 204). */
    deleted: () => {
      tick(world());
    },
  };
}

export type WorldLookups = ReturnType<typeof worldLookups>;

/** 409 "This <what> cannot be deleted: it has …", as the server refuses a record in use. */
export const inUse = (what: string, found: string | null, verb = 'has') => (found === null ? null : refusal(409, 'CONFLICT', `This ${what} cannot be deleted: it ${verb} ${found}.`));

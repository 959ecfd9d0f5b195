// Students: the filtered, sorted, paged list; one student; changing its attributes, its
// congregation (admin only; its sheets not sent yet follow it) or its study helper; its answer
// sheets; a study helper's students. A coordinator sees and changes only its own congregation's
// students (others are "not found"), and none of their sheets assigned to another congregation.
import type { FastifyInstance } from 'fastify';
import { congregationScope, requireAdmin } from '../auth/session';
import type { ReplyOf, Route, Schemas } from '../contract/types';
import type { Database } from '../db/database';
import { notFound, validationError } from '../http-error';
import { answerSheetsOfStudentInScope, moveSheetsOfStudentToCongregation } from '../repositories/answer-sheets';
import { congregationExists } from '../repositories/congregations';
import { lockUnsentFilesOfStudent } from '../repositories/files';
import {
  changeStudentAttributes,
  lockStudentInScope,
  moveStudentToCongregation,
  setStudentStudyHelper,
  studentListPage,
  studentRowInScope,
  studentsOfStudyHelperPage,
  studentVisibleInScope,
} from '../repositories/students';
import { congregationOfStudyHelper, studyHelperVisible } from '../repositories/study-helpers';
import { sheetOf } from './shared/answer-sheet-view';
import { STUDY_HELPER_NOT_FOUND, studentNotFound } from './shared/errors';
import { pageOf, paged } from './shared/paging';
import { listCongregation } from './shared/scope';
import { studentOf } from './shared/student';

type StudentPatch = Route<'updateStudent'>['Body'];

export async function findStudent(db: Database, id: string, scope: string | null): Promise<Schemas['Student']> {
  const row = await studentRowInScope(db, id, scope);
  if (row === null) throw studentNotFound();
  return studentOf(row);
}

/** Splits an attributes patch into fields to set and fields to clear (sent as null). */
function attributeChanges(attributes: Schemas['StudentAttributes']): { set: Record<string, unknown>; clear: string[] } {
  const set: Record<string, unknown> = {};
  const clear: string[] = [];
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined) continue;
    if (value === null) clear.push(key);
    else set[key] = value;
  }
  return { set, clear };
}

/**
 * The student's sheets not sent yet follow the student to its new congregation: those assigned
 * elsewhere, and unassigned ones that are kept. Sheets of files sent or being sent keep theirs.
 * Their files' rows are locked shared first, so a Send under way is waited for and its file left alone.
 */
async function moveUnsentSheets(tx: Database, studentId: string, congregationId: string): Promise<void> {
  const files = await lockUnsentFilesOfStudent(tx, studentId);
  if (files.length === 0) return;
  await moveSheetsOfStudentToCongregation(tx, studentId, congregationId, files);
}

async function changeCongregation(tx: Database, studentId: string, congregation: string | null): Promise<void> {
  if (congregation !== null && !(await congregationExists(tx, congregation))) throw validationError('Unknown congregation.');
  await moveStudentToCongregation(tx, studentId, congregation);
  if (congregation !== null) await moveUnsentSheets(tx, studentId, congregation);
}

async function changeStudyHelper(tx: Database, student: { id: string; congregation_id: string | null }, helperId: string | null): Promise<void> {
  if (helperId !== null) {
    const helperCongregation = await congregationOfStudyHelper(tx, helperId);
    if (helperCongregation === null) throw validationError('Unknown study helper.');
    if (helperCongregation !== student.congregation_id) {
      throw validationError("The study helper must belong to the student's congregation.");
    }
  }
  await setStudentStudyHelper(tx, student.id, helperId);
}

async function applyPatch(tx: Database, student: { id: string; congregation_id: string | null }, body: StudentPatch): Promise<void> {
  if ('attributes' in body) {
    const { set, clear } = attributeChanges(body.attributes);
    await changeStudentAttributes(tx, student.id, set, clear);
  } else if ('congregation' in body) {
    await changeCongregation(tx, student.id, body.congregation);
  } else {
    await changeStudyHelper(tx, student, body.study_helper);
  }
}

export async function studentRoutes(app: FastifyInstance) {
  const db = app.db;

  app.get<Route<'listStudents'>>('/api/students', async (request): Promise<ReplyOf<'listStudents'>> => {
    const query = request.query;
    const page = pageOf(query);
    const filter = {
      congregation: listCongregation(request, query.congregation),
      humanIdPrefix: query.human_id_prefix,
      country: query.country,
      studyHelper: query.study_helper,
      orderBy: query.order_by ?? 'human_id',
      direction: query.order_direction,
    };
    const { rows, total } = await studentListPage(db, filter, page);
    return paged(rows.map(studentOf), total, page);
  });

  app.get<Route<'getStudent'>>('/api/students/:id', async (request): Promise<ReplyOf<'getStudent'>> => {
    return findStudent(db, request.params.id, congregationScope(request));
  });

  app.patch<Route<'updateStudent'>>('/api/students/:id', async (request): Promise<ReplyOf<'updateStudent'>> => {
    const body = request.body;
    if ('congregation' in body) requireAdmin(request);
    const scope = congregationScope(request);
    await db.transaction(async (tx) => {
      const student = await lockStudentInScope(tx, request.params.id, scope);
      if (student === null) throw studentNotFound();
      await applyPatch(tx, student, body);
    });
    return findStudent(db, request.params.id, scope);
  });

  app.get<Route<'listStudentAnswerSheets'>>(
    '/api/students/:id/answer-sheets',
    async (request): Promise<ReplyOf<'listStudentAnswerSheets'>> => {
      const scope = congregationScope(request);
      if (!(await studentVisibleInScope(db, request.params.id, scope))) throw studentNotFound();
      const rows = await answerSheetsOfStudentInScope(db, request.params.id, scope);
      return rows.map(sheetOf);
    },
  );

  app.get<Route<'listStudyHelperStudents'>>(
    '/api/study-helper/:id/students',
    async (request): Promise<ReplyOf<'listStudyHelperStudents'>> => {
      const scope = congregationScope(request);
      if (!(await studyHelperVisible(db, request.params.id, scope))) throw notFound(STUDY_HELPER_NOT_FOUND);
      const page = pageOf(request.query);
      const { rows, total } = await studentsOfStudyHelperPage(db, request.params.id, scope, page);
      return paged(rows.map(studentOf), total, page);
    },
  );
}

// Reference data: countries (ISO 3166, searchable) and courses with their lessons and printed
// page templates. Read by every signed-in congregation user and admin; loaded, not edited, here.
// An admin prints a lesson's blank answer-sheet master (each page with its `t` code).
import type { FastifyInstance } from 'fastify';
import { requireAdmin } from '../auth/session';
import type { ReplyOf, Route } from '../contract/types';
import { notFound } from '../http-error';
import { pdfDrawing } from '../pdf/lazy-drawing';
import { codeIdText } from '../domain/codes';
import { countryByIsoCode, countryListPage } from '../repositories/countries';
import { courseExists, courseListPage } from '../repositories/courses';
import { lessonForMaster, lessonsOfCourses } from '../repositories/lessons';
import { masterPagesOfLesson, pageTemplatesOfCourse } from '../repositories/page-templates';
import { pdfName, sendPdf } from './shared/blob-response';
import { pageOf, paged } from './shared/paging';

export async function referenceRoutes(app: FastifyInstance) {
  app.get<Route<'listCountries'>>('/api/countries', async (request): Promise<ReplyOf<'listCountries'>> => {
    const page = pageOf(request.query);
    const { rows, total } = await countryListPage(app.db, request.query.q?.trim(), page);
    return paged(rows, total, page);
  });

  app.get<Route<'getCountry'>>('/api/countries/:iso_code', async (request): Promise<ReplyOf<'getCountry'>> => {
    const country = await countryByIsoCode(app.db, request.params.iso_code.toUpperCase());
    if (country === null) throw notFound('Country not found');
    return country;
  });

  app.get<Route<'listCourses'>>('/api/courses', async (request): Promise<ReplyOf<'listCourses'>> => {
    const page = pageOf(request.query);
    const { rows: courses, total } = await courseListPage(app.db, request.query.name?.trim(), page);
    const lessons = await lessonsOfCourses(app.db, courses.map((course) => course.id));
    const items = courses.map((course) => ({
      ...course,
      lessons: lessons.filter((lesson) => lesson.course_id === course.id),
    }));
    return paged(items, total, page);
  });

  app.get<Route<'listCoursePages'>>('/api/courses/:id/pages', async (request): Promise<ReplyOf<'listCoursePages'>> => {
    if (!(await courseExists(app.db, request.params.id))) throw notFound('Course not found');
    const rows = await pageTemplatesOfCourse(app.db, request.params.id);
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      page_number: row.page_number,
      lesson: { id: row.lesson_id, name: row.lesson_name, number: row.lesson_number, course_id: row.course_id },
      code: codeIdText({ prefix: 't', id: row.code_id }),
    }));
  });

  app.get<Route<'printLessonMaster'>>('/api/courses/:id/lessons/:lesson_id/master.pdf', async (request, reply) => {
    requireAdmin(request);
    const lesson = await lessonForMaster(app.db, request.params.id, request.params.lesson_id);
    if (lesson === null) throw notFound('Lesson not found');
    const templates = await masterPagesOfLesson(app.db, request.params.lesson_id);
    if (templates.length === 0) throw notFound('This lesson has no answer-sheet pages');
    const { makeAnswerSheetMaster } = await pdfDrawing();
    const pdf = await makeAnswerSheetMaster({
      courseName: lesson.course_name,
      lessonName: lesson.name,
      lessonNumber: lesson.number,
      pages: templates.map((t) => ({ page_number: t.page_number, code: { prefix: 't', id: t.code_id } })),
      publicUrl: app.config.publicUrl,
    });
    return sendPdf(reply, pdf, pdfName(`${lesson.course_name} - Lesson ${lesson.number} - answer sheet`, 'answer-sheet'));
  });
}

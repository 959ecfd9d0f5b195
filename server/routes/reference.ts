// Reference data: countries (ISO 3166, searchable) and courses with their lessons and printed
// page templates. Read by every signed-in congregation user and admin; loaded, not edited, here.
// An admin prints a lesson's blank answer-sheet master (each page with its `t` code).
import type { FastifyInstance } from 'fastify';
import { requireAdmin } from '../auth/session';
import type { ReplyOf, Route, Schemas } from '../contract/types';
import { notFound } from '../http-error';
import { pdfDrawing } from '../pdf/lazy-drawing';
import { codeIdText } from '../domain/codes';
import { pdfName, sendPdf } from './shared/blob-response';
import { pageOf, paged } from './shared/paging';
import { Where, containsPattern } from '../repositories/sql/where';

interface LessonRow {
  id: string;
  name: string;
  number: number;
  course_id: string;
}

interface PageTemplateRow {
  id: string;
  name: string;
  page_number: number;
  code_id: string;
  lesson_id: string;
  lesson_name: string;
  lesson_number: number;
  course_id: string;
}

export async function referenceRoutes(app: FastifyInstance) {
  app.get<Route<'listCountries'>>('/api/countries', async (request): Promise<ReplyOf<'listCountries'>> => {
    const page = pageOf(request.query);
    const where = new Where();
    const q = request.query.q?.trim();
    if (q) where.add((p) => `(lower(display_name) LIKE ${p} OR lower(iso_code) LIKE ${p})`, containsPattern(q));
    const { total } = await app.db.one<{ total: number }>(`SELECT count(*) AS total FROM countries ${where.sql}`, where.params);
    const items = await app.db.query<Schemas['Country']>(
      `SELECT iso_code, display_name FROM countries ${where.sql}
       ORDER BY display_name, iso_code LIMIT ${where.param(page.limit)} OFFSET ${where.param(page.skip)}`,
      where.params,
    );
    return paged(items, total, page);
  });

  app.get<Route<'getCountry'>>('/api/countries/:iso_code', async (request): Promise<ReplyOf<'getCountry'>> => {
    const country = await app.db.maybeOne<Schemas['Country']>(
      'SELECT iso_code, display_name FROM countries WHERE iso_code = $1',
      [request.params.iso_code.toUpperCase()],
    );
    if (country === null) throw notFound('Country not found');
    return country;
  });

  app.get<Route<'listCourses'>>('/api/courses', async (request): Promise<ReplyOf<'listCourses'>> => {
    const page = pageOf(request.query);
    const where = new Where();
    const name = request.query.name?.trim();
    if (name) where.add((p) => `lower(name) LIKE ${p}`, containsPattern(name));
    const { total } = await app.db.one<{ total: number }>(`SELECT count(*) AS total FROM courses ${where.sql}`, where.params);
    const courses = await app.db.query<{ id: string; name: string; version: string }>(
      `SELECT id, name, version FROM courses ${where.sql}
       ORDER BY name, version, id LIMIT ${where.param(page.limit)} OFFSET ${where.param(page.skip)}`,
      where.params,
    );
    const lessons =
      courses.length === 0
        ? []
        : await app.db.query<LessonRow>(
            'SELECT id, name, number, course_id FROM lessons WHERE course_id = ANY($1::uuid[]) ORDER BY course_id, number',
            [courses.map((course) => course.id)],
          );
    const items = courses.map((course) => ({
      ...course,
      lessons: lessons.filter((lesson) => lesson.course_id === course.id),
    }));
    return paged(items, total, page);
  });

  app.get<Route<'listCoursePages'>>('/api/courses/:id/pages', async (request): Promise<ReplyOf<'listCoursePages'>> => {
    const course = await app.db.maybeOne('SELECT id FROM courses WHERE id = $1', [request.params.id]);
    if (course === null) throw notFound('Course not found');
    const rows = await app.db.query<PageTemplateRow>(
      `SELECT t.id, t.name, t.page_number, t.code_id,
              l.id AS lesson_id, l.name AS lesson_name, l.number AS lesson_number, l.course_id
       FROM page_templates t JOIN lessons l ON l.id = t.lesson_id
       WHERE l.course_id = $1
       ORDER BY l.number, t.page_number`,
      [request.params.id],
    );
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
    const lesson = await app.db.maybeOne<{ name: string; number: number; course_name: string }>(
      `SELECT l.name, l.number, c.name AS course_name FROM lessons l JOIN courses c ON c.id = l.course_id
       WHERE l.id = $1 AND l.course_id = $2`,
      [request.params.lesson_id, request.params.id],
    );
    if (lesson === null) throw notFound('Lesson not found');
    const templates = await app.db.query<{ page_number: number; code_id: string }>(
      'SELECT page_number, code_id FROM page_templates WHERE lesson_id = $1 ORDER BY page_number',
      [request.params.lesson_id],
    );
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

// Page templates: the printed pages of each lesson, with their `t` codes.
import type { Database } from '../db/database';

export interface CoursePageTemplateRow {
  id: string;
  name: string;
  page_number: number;
  code_id: string;
  lesson_id: string;
  lesson_name: string;
  lesson_number: number;
  course_id: string;
}

export async function pageTemplateExists(db: Database, id: string): Promise<boolean> {
  return (await db.maybeOne('SELECT 1 FROM page_templates WHERE id = $1', [id])) !== null;
}

/** The course's page templates with their lessons, by lesson and page. */
export function pageTemplatesOfCourse(db: Database, courseId: string): Promise<CoursePageTemplateRow[]> {
  return db.query<CoursePageTemplateRow>(
    `SELECT t.id, t.name, t.page_number, t.code_id,
            l.id AS lesson_id, l.name AS lesson_name, l.number AS lesson_number, l.course_id
     FROM page_templates t JOIN lessons l ON l.id = t.lesson_id
     WHERE l.course_id = $1
     ORDER BY l.number, t.page_number`,
    [courseId],
  );
}

/** The lesson's printed pages with their `t` codes, in page order. */
export function masterPagesOfLesson(db: Database, lessonId: string): Promise<{ page_number: number; code_id: string }[]> {
  return db.query<{ page_number: number; code_id: string }>('SELECT page_number, code_id FROM page_templates WHERE lesson_id = $1 ORDER BY page_number', [lessonId]);
}

/** The lesson page a `t` code names: templates carry their code; printed_codes may record it too. */
export function lessonPageOfTemplateCode(db: Database, codeId: string): Promise<{ course_id: string; lesson_id: string; page_number: number } | null> {
  return db.maybeOne<{ course_id: string; lesson_id: string; page_number: number }>(
    `SELECT l.course_id, l.id AS lesson_id, pt.page_number
     FROM page_templates pt JOIN lessons l ON l.id = pt.lesson_id
     WHERE pt.code_id = $1
        OR pt.id = (SELECT target_id FROM printed_codes WHERE prefix = 't' AND code_id = $1)
     LIMIT 1`,
    [codeId],
  );
}

/** How many pages the lesson's master has. */
export async function templatePageCountOfLesson(db: Database, lessonId: string): Promise<number> {
  const { pages } = await db.one<{ pages: number }>('SELECT count(*)::int AS pages FROM page_templates WHERE lesson_id = $1', [lessonId]);
  return pages;
}

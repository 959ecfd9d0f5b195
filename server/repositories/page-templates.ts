// page_templates: the pages of each lesson's master.
import type { Database } from '../db/database';

/** How many pages the lesson's master has. */
export async function templatePageCountOfLesson(db: Database, lessonId: string): Promise<number> {
  const { pages } = await db.one<{ pages: number }>('SELECT count(*)::int AS pages FROM page_templates WHERE lesson_id = $1', [lessonId]);
  return pages;
}

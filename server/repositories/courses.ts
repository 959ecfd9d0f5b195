// Courses (reference data): searched by name, and whether one exists.
import type { Database } from '../db/database';
import type { Page } from './sql/paging';
import { Where, containsPattern } from './sql/where';

export interface CourseRow {
  id: string;
  name: string;
  version: string;
}

/** A page of courses whose name contains `name` (when given), by name and version, with the total. */
export async function courseListPage(db: Database, name: string | undefined, page: Page): Promise<{ rows: CourseRow[]; total: number }> {
  const where = new Where();
  if (name) where.add((p) => `lower(name) LIKE ${p}`, containsPattern(name));
  const { total } = await db.one<{ total: number }>(`SELECT count(*) AS total FROM courses ${where.sql}`, where.params);
  const rows = await db.query<CourseRow>(
    `SELECT id, name, version FROM courses ${where.sql}
     ORDER BY name, version, id LIMIT ${where.param(page.limit)} OFFSET ${where.param(page.skip)}`,
    where.params,
  );
  return { rows, total };
}

export async function courseExists(db: Database, id: string): Promise<boolean> {
  return (await db.maybeOne('SELECT id FROM courses WHERE id = $1', [id])) !== null;
}

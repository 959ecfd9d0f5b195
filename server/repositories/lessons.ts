// Lessons of the courses (reference data): whether one exists, a course's lessons, and a
// lesson with its course's name for its printed master.
import type { Database } from '../db/database';

export interface CourseLessonRow {
  id: string;
  name: string;
  number: number;
  course_id: string;
}

export async function lessonExists(db: Database, id: string): Promise<boolean> {
  return (await db.maybeOne('SELECT 1 FROM lessons WHERE id = $1', [id])) !== null;
}

/** The lessons of these courses, by course and number. */
export function lessonsOfCourses(db: Database, courseIds: readonly string[]): Promise<CourseLessonRow[]> {
  if (courseIds.length === 0) return Promise.resolve([]);
  return db.query<CourseLessonRow>('SELECT id, name, number, course_id FROM lessons WHERE course_id = ANY($1::uuid[]) ORDER BY course_id, number', [courseIds]);
}

/** The lesson of the course, with the course's name; null when the course has no such lesson. */
export function lessonForMaster(db: Database, courseId: string, lessonId: string): Promise<{ name: string; number: number; course_name: string } | null> {
  return db.maybeOne<{ name: string; number: number; course_name: string }>(
    `SELECT l.name, l.number, c.name AS course_name FROM lessons l JOIN courses c ON c.id = l.course_id
     WHERE l.id = $1 AND l.course_id = $2`,
    [lessonId, courseId],
  );
}

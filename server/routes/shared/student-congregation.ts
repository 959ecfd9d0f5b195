// A student belongs to a congregation (DESIGN §4, "Identity"): assigning a sheet of a student who
// has none gives the student that congregation, so the student's later sheets are assigned on
// arrival and the congregation's coordinator sees the student.
import type { Database } from '../../db/database';

/**
 * The students among `studentIds` without a congregation take `congregationId`. A student row
 * locked by a change under way is skipped rather than waited for: that change (an admin setting
 * the student's congregation) decides, and no two requests wait on each other's locks.
 */
export async function giveCongregationToStudents(tx: Database, studentIds: readonly string[], congregationId: string): Promise<void> {
  if (studentIds.length === 0) return;
  await tx.query(
    `UPDATE students s SET congregation_id = $2::uuid
     WHERE s.id IN (SELECT free.id FROM students free
                    WHERE free.id = ANY($1::uuid[]) AND free.congregation_id IS NULL
                    FOR UPDATE SKIP LOCKED)`,
    [[...new Set(studentIds)], congregationId],
  );
}

// students: the people studying, each of a congregation (and of a study helper when one recruited them).
import type { Database } from '../db/database';

/** A new student recruited by a study helper of the congregation (an intro sheet); its id. */
export async function insertRecruitedStudent(db: Database, congregationId: string, studyHelperId: string | null): Promise<string> {
  const row = await db.one<{ id: string }>(
    `INSERT INTO students (congregation_id, study_helper_id, last_active_at) VALUES ($1, $2, now()) RETURNING id, human_id`,
    [congregationId, studyHelperId],
  );
  return row.id;
}

// study_helpers: the people of a congregation who study with students and grade their sheets.
import type { Database } from '../db/database';

/** The helper did something in the portal (their intro file was read). */
export async function markStudyHelperActiveAfterIntro(db: Database, studyHelperId: string): Promise<void> {
  await db.query('UPDATE study_helpers SET last_active_at = now() WHERE id = $1', [studyHelperId]);
}

// Whether the demo's files in flight (demo-files.ts) are still to be made: a marker set once
// they are, and never over files somebody already uploaded. Kept apart so a start that has
// nothing to make does not load the printing and scanning code.
import type { Database } from '../db/database';

export const DEMO_FILES_MARKER = 'demo_files_made_at';

export async function demoFilesWanted(db: Database): Promise<boolean> {
  const marker = await db.maybeOne('SELECT 1 FROM app_settings WHERE key = $1', [DEMO_FILES_MARKER]);
  if (marker !== null) return false;
  return (await db.maybeOne('SELECT 1 FROM files LIMIT 1')) === null;
}

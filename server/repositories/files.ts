// files: a service center's uploaded scan and everything the workflow records on it (its
// processing, its step's dates, its return file).
import type { Database } from '../db/database';

/** Whether a file still waits to be read (a job left over from before the server started). */
export async function anyFileWaitingToBeRead(db: Database): Promise<boolean> {
  return (await db.maybeOne(`SELECT 1 FROM files WHERE process_status = 'pending' LIMIT 1`)) !== null;
}

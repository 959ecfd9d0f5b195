// Deleting a record made by mistake: refused (409, nothing deleted) while anything still refers
// to it, with a message naming what does. Run inside the delete's transaction after locking the
// record's row: a new reference (a foreign key) then waits for the delete to finish.
import type { Database } from '../../db/database';
import { conflictError } from '../../http-error';
import { countRecordUses } from '../../repositories/record-uses';

export interface Use {
  /** Singular and plural, e.g. ['file', 'files']. */
  name: readonly [string, string];
  /** Counts the references; $1 is the record's id. */
  countSql: string;
}

/** "3 files, 1 recruiter and 2 students", or null when nothing refers to the record. */
export async function usesOf(db: Database, id: string, uses: readonly Use[]): Promise<string | null> {
  const parts: string[] = [];
  for (const use of uses) {
    const n = await countRecordUses(db, id, use.countSql);
    if (n > 0) parts.push(`${n} ${n === 1 ? use.name[0] : use.name[1]}`);
  }
  if (parts.length === 0) return null;
  return parts.length === 1 ? parts[0]! : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)!}`;
}

/**
 * Throws 409 "This <what> cannot be deleted: it has 3 files." (or "it is named by 3 files.")
 * when anything refers to the record.
 */
export async function refuseWhileUsed(
  db: Database,
  what: string,
  id: string,
  uses: readonly Use[],
  verb: 'has' | 'is named by' = 'has',
): Promise<void> {
  const found = await usesOf(db, id, uses);
  if (found !== null) throw conflictError(`This ${what} cannot be deleted: it ${verb} ${found}.`);
}
